/**
 * The big hostile cases, generated once per run into a temp dir and removed afterwards: a 200 MB
 * single line, a 1,000,000-entry linear chain and 100,000 siblings under one parent. Through
 * `list`, `tree --json`, `context --json` (stdout to a file: the tree JSON of a million entries is
 * far larger than a pipe buffer) and the tree view in a pty, each within a time bound, the file
 * byte-identical afterwards (checked by size + mtime + a hash of head and tail: hashing 200 MB
 * three times would cost more than the reads under test).
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionsOf } from '../helpers/cli.js';
import { tempDir } from '../helpers/factory.js';
import { PTY_KEYS, startPty } from '../helpers/pty.js';
import { writeHugeLine, writeLinearChain, writeSiblings } from './corpus.js';
import { expectCleanRun, jsonOf, runCliAsync } from './run.js';

/** Size, mtime and a hash of the first and last MiB: enough to see any rewrite or append. */
function fingerprint(path: string): string {
  const { size, mtimeMs } = statSync(path);
  const fd = openSync(path, 'r');
  try {
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(Math.min(size, 1 << 20));
    readSync(fd, chunk, 0, chunk.length, 0);
    hash.update(chunk);
    readSync(fd, chunk, 0, chunk.length, Math.max(0, size - chunk.length));
    hash.update(chunk);
    return `${size}:${mtimeMs}:${hash.digest('hex')}`;
  } finally {
    closeSync(fd);
  }
}

let root: string;
let dir: string;
const paths = { huge: '', chain: '', siblings: '' };

beforeAll(() => {
  root = tempDir('pi-sessions-big-');
  dir = join(root, 'sessions');
  mkdirSync(dir);
  paths.huge = join(dir, '2026-01-05T09-00-00-000Z_huge-line.jsonl');
  paths.chain = join(dir, '2026-01-05T09-00-01-000Z_million-chain.jsonl');
  paths.siblings = join(dir, '2026-01-05T09-00-02-000Z_siblings.jsonl');
  writeHugeLine(paths.huge, 200);
  writeLinearChain(paths.chain, 1_000_000);
  writeSiblings(paths.siblings, 100_000);
}, 120_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('big hostile files', () => {
  it('list reads all three within the time bound without loading the huge line into a row', async () => {
    const before = Object.values(paths).map(fingerprint);
    const run = await runCliAsync(['list', '--all', '--json', '--session-dir', dir], { timeoutMs: 60_000 });
    expectCleanRun(run, 'list');
    expect(run.code).toBe(0);
    const rows = sessionsOf(jsonOf(run)) as { path: string; entryCount: number; firstMessage: string }[];
    expect(rows.map((r) => r.path).sort()).toEqual(Object.values(paths).sort());
    expect(rows.find((r) => r.path === paths.huge)!.firstMessage).toBe('after the huge line');
    expect(Object.values(paths).map(fingerprint)).toEqual(before);
  }, 90_000);

  for (const name of ['huge', 'chain', 'siblings'] as const) {
    it(`tree --json and context --json on the ${name} file`, async () => {
      const path = paths[name];
      const before = fingerprint(path);
      const out = join(root, `${name}.json`);
      const tree = await runCliAsync(['tree', path, '--json'], { timeoutMs: 90_000, stdoutFile: out });
      expectCleanRun(tree, `tree ${name}`);
      expect(tree.code, tree.stderr).toBe(0);
      const parsed = jsonOf(tree, out) as {
        entryCount: number;
        branch: string[];
        tree: { roots: string[]; children: Record<string, string[]> };
      };
      if (name === 'chain') {
        expect(parsed.entryCount).toBe(1_000_000);
        expect(parsed.branch).toHaveLength(1_000_000);
      }
      if (name === 'siblings') expect(parsed.tree.children['00000001']).toHaveLength(100_000);
      if (name === 'huge') expect(parsed.entryCount).toBe(2);
      rmSync(out);
      const context = await runCliAsync(['context', path, '--json'], { timeoutMs: 90_000, stdoutFile: out });
      expectCleanRun(context, `context ${name}`);
      expect(context.code, context.stderr).toBe(0);
      const messages = (jsonOf(context, out) as { messages: unknown[] }).messages;
      expect(messages.length).toBe(name === 'huge' ? 1 : 2);
      rmSync(out);
      expect(fingerprint(path)).toBe(before);
    }, 180_000);
  }

  it('the tree view opens the 1,000,000-entry chain, jumps to both ends, and quits cleanly', async () => {
    const before = fingerprint(paths.chain);
    const pty = startPty({ args: ['tree', paths.chain], cols: 100, rows: 20, env: { HOME: root }, timeoutMs: 20_000 });
    await pty.waitForText('◆ assistant: done', 60_000);
    await pty.press(PTY_KEYS.home);
    await pty.waitForText(/\(1\/\d+\)/, 10_000);
    await pty.press(PTY_KEYS.end);
    await pty.waitForText('◆ assistant: done', 10_000);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit(10_000)).toBe(130);
    expect(pty.isAlternateScreen()).toBe(false);
    expect(fingerprint(paths.chain)).toBe(before);
  }, 120_000);
});
