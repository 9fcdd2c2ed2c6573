/**
 * Bounded memory: a 1 GB file of NUL bytes named `.jsonl` (sparse, so the test costs no disk) is
 * given up after its first MiB, and a session with a 64 MB line is summarised without buffering
 * that line. Every other reader bounds a line too: check, stats, tree, context, fork and slim on a
 * session with a 200 MB tool output stay under 300 MB. The peak RSS of the CLI process is
 * measured by `/usr/bin/time`, for the listing against the same command on a store without the
 * big file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/store/read/lines.js';
import { SummaryCollector, summarizeFileSync } from '../../src/store/summary/summary.js';
import type { SessionInfo } from '../../src/store/types.js';
import { sessionsOf } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { writeHugeToolOutput } from './corpus.js';
import { expectCleanRun, jsonOf, type Run, type RunOptions, runCliAsync } from './run.js';

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
async function measured(args: string[], options: RunOptions = {}): Promise<{ run: Run; rssKb: number }> {
  const out = join(root, `rss-${Math.random().toString(36).slice(2)}`);
  const run = await runCliAsync(args, {
    wrapper: [TIME, '-f', '%M', '-o', out],
    timeoutMs: 60_000,
    ...options,
    env: { XDG_CACHE_HOME: join(root, 'cache'), ...options.env },
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

/** sha256 of the file's bytes after its first line (a fork's or slim's header is new), read in chunks. */
function hashAfterHeader(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1 << 20);
    let header = true;
    for (let position = 0; ; ) {
      const n = readSync(fd, chunk, 0, chunk.length, position);
      if (n === 0) break;
      position += n;
      let piece = chunk.subarray(0, n);
      if (header) {
        const nl = piece.indexOf(0x0a);
        if (nl === -1) continue;
        header = false;
        piece = piece.subarray(nl + 1);
      }
      hash.update(piece);
    }
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** A 200 MB line is never held whole: each reader's peak RSS stays under this. */
const READER_LIMIT_KB = 300 * 1024;

describe.runIf(canMeasure)(
  `every reader keeps a 200 MB line bounded${canMeasure ? '' : ' — SKIPPED: no /usr/bin/time to measure peak RSS'}`,
  () => {
    it('check, stats, tree --json, context --json, fork and slim stay under 300 MB, and say what they could not read', async () => {
      const dir = mkdtempSync(join(root, 'huge-'));
      const path = join(dir, '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-00000000b16b.jsonl');
      const huge = writeHugeToolOutput(path, 200);
      const figures: string[] = [];
      const env = { XDG_DATA_HOME: join(root, 'data'), XDG_STATE_HOME: join(root, 'state') };
      const run = async (name: string, args: string[], options: RunOptions = {}): Promise<Run> => {
        const { run, rssKb } = await measured(args, { timeoutMs: 120_000, ...options, env });
        expectCleanRun(run, name);
        figures.push(`${name} ${Math.round(rssKb / 1024)} MB`);
        expect(rssKb, `${name}: peak RSS ${rssKb} kB`).toBeLessThan(READER_LIMIT_KB);
        return run;
      };

      const check = await run('check', ['check', path, '--json']);
      const problems = (jsonOf(check) as { files: { problems: { line: number; kind: string; message: string }[] }[] })
        .files[0]!.problems;
      expect(problems).toContainEqual(
        expect.objectContaining({
          line: huge.hugeLine,
          kind: 'oversized-line',
          message: expect.stringMatching(/^line 5 is 200 MB: too large to read whole \(over 32 MB\)/),
        }),
      );

      const stats = await run('stats', ['stats', '--all', '--json', '--session-dir', dir]);
      // The usage beside the huge line is read exactly.
      expect((jsonOf(stats) as { totals: { totalTokens: number; cost: number } }).totals).toMatchObject({
        totalTokens: 42,
        cost: 0.75,
      });

      const treeOut = join(root, 'tree.json');
      await run('tree --json', ['tree', path, '--json'], { stdoutFile: treeOut });
      const tree = jsonOf({} as Run, treeOut) as { entryCount: number; branch: string[]; problems: { kind: string }[] };
      expect(tree.entryCount).toBe(5);
      expect(tree.branch).toEqual(['00000001', '00000002', '00000003', huge.leafId]);
      expect(tree.problems.map((p) => p.kind)).toEqual(['oversized-line']);
      rmSync(treeOut);

      // The huge tool output is in the active branch's context: refused with one line, not given cut.
      const context = await run('context', ['context', path, '--json']);
      expect(context.code).toBe(1);
      expect(context.stderr.trim()).toBe(
        `pi-sessions: ${path}: cannot give the context: entry 00000003 is on its path and line 5 is 200 MB, too large to read whole`,
      );
      const side = await run('context --leaf (a branch without it)', [
        'context',
        path,
        '--leaf',
        huge.sideId,
        '--json',
      ]);
      expect((jsonOf(side) as { messages: unknown[] }).messages).toHaveLength(2);

      // A fork of the leaf copies the huge line byte for byte, streamed.
      const fork = await run('fork', ['fork', path]);
      const forkPath = fork.stdout.trim();
      expect(statSync(forkPath).size).toBeGreaterThan(200 * 1024 * 1024);
      expect(hashAfterHeader(forkPath)).toBe(huge.branchHash);
      rmSync(forkPath);

      const slim = await run('slim', ['slim', path, '--yes']);
      const slimPath = slim.stdout.trim();
      expect(existsSync(path)).toBe(false);
      expect(hashAfterHeader(slimPath)).toBe(huge.branchHash);
      console.log(`peak RSS with a 200 MB line: ${figures.join(', ')}`);
    }, 600_000);
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
