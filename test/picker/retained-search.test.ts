/**
 * The picker's full-text search finds the text of compactions' retained messages, on
 * a fresh listing and on one loaded back from the catalogue.
 */
import { cpSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSessionsCached } from '../../src/catalog/list.js';
import { createSearchIndex, parseQuery, searchSessions, snippetFor } from '../../src/picker/query.js';
import { resolveLocations, type SessionInfo } from '../../src/store/index.js';
import { tempDir } from '../helpers/factory.js';
import { RETAINED_DIR, RETAINED_FILES } from '../helpers/retained.js';

function found(sessions: SessionInfo[], query: string): { file: string; snippet: string }[] {
  const parsed = parseQuery(query, Date.now());
  return searchSessions(createSearchIndex(sessions), parsed).matches.map((m) => {
    const s = m.textHit ? snippetFor(m.info, m.textHit) : undefined;
    return { file: m.info.path.split('/').pop()!, snippet: s ? s.match : '' };
  });
}

describe('picker full-text search over retained messages', () => {
  it('finds words that only a retained message holds, cold and from the catalogue', async () => {
    const dir = join(tempDir(), 'sessions');
    for (const file of RETAINED_FILES) {
      cpSync(join(RETAINED_DIR, file), join(dir, file), { recursive: true });
      // Old enough that the catalogue trusts its record (a just-written file is re-read).
      utimesSync(join(dir, file), new Date('2026-03-01T11:00:00Z'), new Date('2026-03-01T11:00:00Z'));
    }
    const locations = resolveLocations({ cwd: '/nonexistent', sessionDir: dir, env: {} });
    const cacheDir = tempDir();
    for (const round of ['cold', 'warm'] as const) {
      const result = await listSessionsCached(locations, { scope: 'all', cacheDir });
      await result.saved;
      if (round === 'warm')
        expect(result.stats).toMatchObject({ catalogue: 'loaded', unchanged: RETAINED_FILES.length, reread: 0 });
      expect(result.sessions).toHaveLength(RETAINED_FILES.length);
      // "trimmed" is only in with-first-kept's retained copy of the reply.
      expect(found(result.sessions, '"kept reply, trimmed"'), round).toEqual([
        { file: 'with-first-kept.jsonl', snippet: 'kept reply, trimmed' },
      ]);
      // Only in nested-kept-range's old checkpoint tail.
      expect(found(result.sessions, 'old retained'), round).toEqual([
        { file: 'nested-kept-range.jsonl', snippet: 'old' },
      ]);
    }
  });
});
