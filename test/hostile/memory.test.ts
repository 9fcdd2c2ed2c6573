/**
 * Bounded memory for listing: a 1 GB file of NUL bytes named `.jsonl` (sparse,
 * so the test costs no disk) is given up after its first MiB, and a session with a 64 MB line is
 * summarised without buffering that line. The peak RSS of the CLI process is measured by
 * `/usr/bin/time` and compared with the same command on a store without the big file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/store/lines.js';
import { SummaryCollector, summarizeFileSync } from '../../src/store/summary.js';
import type { SessionInfo } from '../../src/store/types.js';
import { sessionsOf } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { expectCleanRun, jsonOf, type Run, runCliAsync } from './run.js';

const TIME = '/usr/bin/time';
const canMeasure = existsSync(TIME) && spawnSync(TIME, ['-f', '%M', 'true']).status === 0;
/**
 * What the big file may add to the peak RSS of the same listing without it: a few lines' worth of
 * bounded buffers and the garbage collector's lag, far below a single 64 MB line held whole (the
 * line, its string and its parse: several times its size; 2.1 GB for the NUL file before).
 */
const HEADROOM_KB = 64 * 1024;

let root: string;
beforeAll(() => {
  root = tempDir('pi-sessions-memory-');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The summary of a file with every line buffered whole (the answer before lines were bounded). */
function unboundedSummary(path: string): unknown {
  const bytes = readFileSync(path);
  const collector = new SummaryCollector(path);
  const splitter = new LineSplitter(collector.onLine);
  splitter.push(bytes, bytes.length);
  splitter.end();
  return collector.finish(bytes.length, statSync(path).mtimeMs, splitter.endsWithNewline);
}

/** Runs the CLI under /usr/bin/time and returns the run and its peak RSS in kB. */
async function measured(args: string[]): Promise<{ run: Run; rssKb: number }> {
  const out = join(root, `rss-${Math.random().toString(36).slice(2)}`);
  const run = await runCliAsync(args, {
    wrapper: [TIME, '-f', '%M', '-o', out],
    timeoutMs: 60_000,
    env: { XDG_CACHE_HOME: join(root, 'cache') },
  });
  const rssKb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
  rmSync(out);
  return { run, rssKb };
}

function storeWith(name: string, extra: (dir: string) => void): string {
  const dir = mkdtempSync(join(root, `${name}-`));
  const builder = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000aa' });
  builder.user('a small session');
  builder.writeTo(join(dir, 'small.jsonl'));
  extra(dir);
  return dir;
}

describe.runIf(canMeasure)(
  `listing memory is bounded${canMeasure ? '' : ' — SKIPPED: no /usr/bin/time to measure peak RSS'}`,
  () => {
    it('a 1 GB file of NUL bytes is skipped after its first MiB, at about the RSS of a listing without it', async () => {
      const baseline = await measured([
        'list',
        '--all',
        '--no-cache',
        '--json',
        '--session-dir',
        storeWith('base', () => undefined),
      ]);
      const dir = storeWith('nul', (d) => execFileSync('truncate', ['-s', '1G', join(d, 'nul.jsonl')]));
      const big = await measured(['list', '--all', '--no-cache', '--json', '--session-dir', dir]);
      expectCleanRun(big.run, 'list with a 1 GB NUL file');
      expect((sessionsOf(jsonOf(big.run)) as SessionInfo[]).map((s) => s.path)).toEqual([join(dir, 'small.jsonl')]);
      console.log(`peak RSS: listing ${baseline.rssKb} kB, with a 1 GB NUL file ${big.rssKb} kB`);
      expect(big.rssKb).toBeLessThan(baseline.rssKb + HEADROOM_KB);
      expect(big.run.ms).toBeLessThan(10_000);
      // The reader gives up the same way: one line, exit 1.
      const tree = await runCliAsync(['tree', join(dir, 'nul.jsonl'), '--json'], { timeoutMs: 30_000 });
      expectCleanRun(tree, 'tree of a 1 GB NUL file');
      expect(tree.stderr.trim()).toBe(
        `pi-sessions: ${join(dir, 'nul.jsonl')}: no session header in the first 1 MiB: not a pi session`,
      );
    }, 120_000);

    it('a 64 MB tool output and a 64 MB prompt are summarised without being buffered', async () => {
      const baseline = await measured([
        'list',
        '--all',
        '--no-cache',
        '--json',
        '--session-dir',
        storeWith('base2', () => undefined),
      ]);
      const huge = 'y'.repeat(64 * 1024 * 1024);
      const dir = storeWith('long', (d) => {
        const b = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000bb' });
        b.user('run the tool');
        b.entry('message', {
          message: {
            role: 'toolResult',
            toolCallId: 'c1',
            toolName: 'bash',
            content: [{ type: 'text', text: huge }],
            isError: false,
            timestamp: 2,
          },
        });
        b.entry('custom', { customType: 'blob', data: huge });
        b.user('after the big output');
        b.writeTo(join(d, 'tool.jsonl'));
        const p = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000cc' });
        p.user(huge);
        p.writeTo(join(d, 'prompt.jsonl'));
      });
      const big = await measured(['list', '--all', '--no-cache', '--json', '--session-dir', dir]);
      expectCleanRun(big.run, 'list with 64 MB lines');
      console.log(`peak RSS: listing ${baseline.rssKb} kB, with 64 MB lines ${big.rssKb} kB`);
      expect(big.rssKb).toBeLessThan(baseline.rssKb + HEADROOM_KB);
      const rows = sessionsOf(jsonOf(big.run)) as SessionInfo[];
      const tool = rows.find((r) => r.path.endsWith('tool.jsonl'))!;
      // The tool output and the custom blob take the exact path: the same row as a full parse.
      expect(tool.problems).toEqual([]);
      expect(tool).toMatchObject({ messageCount: 3, entryCount: 4, userMessageCount: 2, firstMessage: 'run the tool' });
      expect(summarizeFileSync(tool.path)).toEqual(unboundedSummary(tool.path));
      const prompt = rows.find((r) => r.path.endsWith('prompt.jsonl'))!;
      expect(prompt).toMatchObject({ messageCount: 1, userMessageCount: 1, entryCount: 1 });
      expect(prompt.problems).toEqual([expect.objectContaining({ line: 2, kind: 'oversized-line' })]);
    }, 180_000);
  },
);

describe('the summariser and the reader give up on a file with no header in the first MiB', () => {
  it('junk lines before any header, past the bound', () => {
    const dir = mkdtempSync(join(root, 'junk-'));
    const path = join(dir, 'junk.jsonl');
    writeFileSync(path, `${'not json at all\n'.repeat(80_000)}{"type":"session","id":"x","version":3}\n`);
    const info = summarizeFileSync(path);
    expect(info).toMatchObject({
      ok: false,
      reason: 'no-header',
      message: 'no session header in the first 1 MiB: not a pi session',
    });
  });
});
