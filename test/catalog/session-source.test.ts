/**
 * The picker's session source over the catalogue: a warm list paints the whole cached list in its
 * first publish, corrects it (deleted rows vanish) and ends equal to a fresh listing; with
 * `cache: false` (`pi-sessions --no-cache`) the cache folder is never created.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueFile } from '../../src/catalog/index.js';
import { createStoreSource } from '../../src/picker/session-source.js';
import type { SessionInfo } from '../../src/store/index.js';
import { corpusStore, freshList, plain } from './helpers.js';

async function listOnce(source: ReturnType<typeof createStoreSource>) {
  const publishes: SessionInfo[][] = [];
  const summary = await source.list('all', (sessions) => void publishes.push(sessions), new AbortController().signal);
  return { publishes, summary };
}

describe('picker session source over the catalogue', () => {
  it('paints the cached list at once, then corrects it', async () => {
    const store = corpusStore();
    const cacheRoot = process.env['XDG_CACHE_HOME']!;
    const source = createStoreSource(store.locations);
    const cold = await listOnce(source);
    // The source does not wait for the background save: wait for the catalogue to appear (rename is atomic).
    const file = catalogueFile(join(cacheRoot, 'pi-sessions'), store.root);
    for (let i = 0; i < 250 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
    const fresh = await freshList(store.locations);
    expect(cold.summary.sessions.map(plain)).toStrictEqual(fresh.sessions);

    const gone = fresh.sessions[3]!.path;
    rmSync(gone);
    const warm = await listOnce(source);
    // First publish: every cached row, including the one whose file is gone (not checked yet).
    expect(warm.publishes[0]!.map((s) => s.path)).toEqual(fresh.sessions.map((s) => s.path));
    const after = await freshList(store.locations);
    expect(warm.summary.sessions.map(plain)).toStrictEqual(after.sessions);
    expect(warm.summary.sessions.some((s) => s.path === gone)).toBe(false);
  });

  it('with cache: false never creates the cache folder', async () => {
    const store = corpusStore();
    const before = process.env['XDG_CACHE_HOME'];
    const xdg = join(store.agentDir, 'xdg');
    process.env['XDG_CACHE_HOME'] = xdg;
    try {
      const off = await listOnce(createStoreSource(store.locations, { cache: false }));
      await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(xdg)).toBe(false);
      expect(off.summary.sessions.map(plain)).toStrictEqual((await freshList(store.locations)).sessions);
    } finally {
      process.env['XDG_CACHE_HOME'] = before;
    }
  });
});
