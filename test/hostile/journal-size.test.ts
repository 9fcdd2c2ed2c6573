/**
 * The journal's size, bounded for real: a 50 MB journal (old records, and lines of several MB an
 * older version or another tool wrote) is trimmed by the next `rename` in bounded memory (the
 * CLI's peak RSS, measured by /usr/bin/time, stays within a few tens of MB of the same rename on a
 * small journal; it was ~1.2 GB when the trim read and split the whole file), and the trim keeps
 * the newest records, at least 200 of them, whatever the size of the lines around them.
 */

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOURNAL_KEEP_RECORDS, JOURNAL_MAX_BYTES, journalLine, parseJournal } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { expectCleanRun, type Run, runCliAsync } from './run.js';

const TIME = '/usr/bin/time';
const canMeasure = existsSync(TIME) && spawnSync(TIME, ['-f', '%M', 'true']).status === 0;
/** What the 50 MB journal may add to the peak RSS of the same rename on a small journal. */
const HEADROOM_KB = 32 * 1024;

function store(): { root: string; file: string; env: Record<string, string>; journal: string } {
  const root = tempDir('pi-sessions-journal-size-');
  const project = join(root, 'agent', 'sessions', '--home-u-proj--');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(root, 'home'));
  const b = new SessionBuilder();
  b.user('a session');
  b.assistant('ok');
  const file = b.writeTo(join(project, 's.jsonl'));
  const env = {
    HOME: join(root, 'home'),
    PI_CODING_AGENT_DIR: join(root, 'agent'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: join(root, 'data'),
  };
  const journal = join(root, 'state', 'pi-sessions', 'journal.jsonl');
  mkdirSync(join(journal, '..'), { recursive: true, mode: 0o700 });
  return { root, file, env, journal };
}

/** An old-style record (a label on a file elsewhere), `pad` bytes of previous label to size it. */
function oldRecord(i: number, pad = 0): string {
  return journalLine({
    kind: 'label',
    path: `/old/session-${i}.jsonl`,
    time: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    id: (0x10000000 + i).toString(16),
    after: { size: i, mtimeMs: i, ino: i },
    entryId: 'e0000001',
    targetId: 't0000001',
    previousLabel: 'p'.repeat(pad),
  });
}

/**
 * ~50 MB: 40,000 records of ~1 KB, a 6 MB line (an older version's record of a huge label) in the
 * middle, and near the end a 4 MB line, then the newest 300 small records.
 */
function writeBigJournal(path: string): string[] {
  const fd = openSync(path, 'w', 0o600);
  const newest: string[] = [];
  try {
    let i = 0;
    const batch = (count: number, pad: number): void => {
      const lines: string[] = [];
      for (let n = 0; n < count; n++) lines.push(oldRecord(i++, pad));
      writeSync(fd, lines.join(''));
    };
    for (let k = 0; k < 20; k++) batch(1000, 1000);
    writeSync(fd, oldRecord(i++, 6 * 1024 * 1024));
    for (let k = 0; k < 20; k++) batch(1000, 1000);
    writeSync(fd, oldRecord(i++, 4 * 1024 * 1024));
    for (let n = 0; n < 300; n++) {
      newest.push((0x10000000 + i).toString(16));
      writeSync(fd, oldRecord(i++, 100));
    }
  } finally {
    closeSync(fd);
  }
  return newest;
}

async function measured(
  args: string[],
  env: Record<string, string>,
  root: string,
): Promise<{ run: Run; rssKb: number }> {
  const out = join(root, `rss-${Math.random().toString(36).slice(2)}`);
  const run = await runCliAsync(args, { wrapper: [TIME, '-f', '%M', '-o', out], timeoutMs: 120_000, env });
  const rssKb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
  rmSync(out);
  return { run, rssKb };
}

describe.runIf(canMeasure)(
  `a 50 MB journal${canMeasure ? '' : ' — SKIPPED: no /usr/bin/time to measure peak RSS'}`,
  () => {
    it('is trimmed by the next rename in bounded memory, keeping the newest records', async () => {
      const small = store();
      const baseline = await measured(['rename', small.file, 'Small journal'], small.env, small.root);
      expect(baseline.run.code, baseline.run.stderr).toBe(0);

      const big = store();
      const newest = writeBigJournal(big.journal);
      expect(statSync(big.journal).size).toBeGreaterThan(50 * 1000 * 1000);
      const run = await measured(['rename', big.file, 'After the trim'], big.env, big.root);
      expectCleanRun(run.run, 'rename with a 50 MB journal');
      expect(run.run.code).toBe(0);
      expect(run.run.stderr).toBe('');
      console.log(`peak RSS of a rename: small journal ${baseline.rssKb} kB, 50 MB journal ${run.rssKb} kB`);
      expect(run.rssKb - baseline.rssKb).toBeLessThan(HEADROOM_KB);

      const text = readFileSync(big.journal, 'utf8');
      expect(text.length).toBeLessThan(JOURNAL_MAX_BYTES);
      const records = parseJournal(text);
      expect(records[0]?.kind).toBe('trimmed');
      // The newest 300 were small: all kept, the big lines before them dropped, the new rename last.
      const ids = new Set(records.map((r) => r.id));
      for (const id of newest) expect(ids.has(id), id).toBe(true);
      expect(records.length).toBeGreaterThan(JOURNAL_KEEP_RECORDS);
      expect(records.at(-1)).toMatchObject({ kind: 'rename', name: 'After the trim' });
      expect(text.split('\n').every((line) => line.length < 64 * 1024)).toBe(true);
      const undo = await runCliAsync(['undo'], { env: big.env });
      expect(undo.code, undo.stderr).toBe(0);
      expect((await openWithPi(big.file)).manager.getSessionName()).toBeUndefined();
    }, 240_000);
  },
);
