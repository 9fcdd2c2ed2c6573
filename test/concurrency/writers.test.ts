/**
 * Concurrent writers: a pi-like writer process appends entries exactly as pi does (one
 * `appendFileSync` per line, each chained to the writer's own in-memory leaf) while pi-sessions
 * renames, labels and branches the same file (CLI subprocesses, and the tree view in a pty).
 * Afterwards every line parses, no line is torn or interleaved, every entry of both writers is
 * present, our entries hang under a real entry, and the real pi opens the file.
 *
 * Why this holds: each writer appends whole lines with a single write(2) on an O_APPEND fd, which
 * the kernel applies atomically at the end of the file for regular files on local file systems;
 * our store checks the file right before each append, re-reads only the tail pi added, and writes
 * its lines with one write(2) (src/store/write/write.ts).
 *
 * Decision — the file changing under an open tree view (src/tree/live.ts):
 *   - appended lines (pi running) appear without losing the cursor, folds or search; a torn last
 *     line is held back until its newline arrives;
 *   - if the file shrinks or is replaced (another inode), the view reloads it fully and says so
 *     on the status line ("Reloaded: …"); the cursor stays on the same entry id when it still
 *     exists;
 *   - our own writes from the view (label, resume here) append after whatever pi wrote, so they
 *     never overwrite pi's entries; pi keeps chaining to its in-memory leaf, exactly as with
 *     pi's own /tree in another process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS, startPty } from '../helpers/pty.js';
import { expectCleanRun, runCliAsync } from '../hostile/run.js';

/** The writer: `count` user/assistant messages, ids w-prefixed hex, one appendFileSync per line. */
const WRITER = `
const { appendFileSync } = require('node:fs');
const [path, count, startLeaf, delayMs] = process.argv.slice(1);
let leaf = startLeaf;
let i = 0;
const step = () => {
  if (i >= Number(count)) { process.stdout.write('writer-done\\n'); return; }
  i++;
  const id = (0xa0000000 + i).toString(16);
  const role = i % 2 ? 'user' : 'assistant';
  const message = role === 'user'
    ? { role, content: 'writer prompt ' + i + ' ' + 'x'.repeat(200 + (i % 7) * 300), timestamp: Date.now() }
    : { role, content: [{ type: 'text', text: 'writer reply ' + i }], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: Date.now() };
  appendFileSync(path, JSON.stringify({ type: 'message', id, parentId: leaf, timestamp: new Date().toISOString(), message }) + '\\n');
  leaf = id;
  setTimeout(step, Number(delayMs));
};
step();
`;

function startWriter(
  path: string,
  count: number,
  startLeaf: string,
  delayMs: number,
): { child: ChildProcess; done: Promise<void> } {
  const child = spawn(process.execPath, ['-e', WRITER, path, String(count), startLeaf, String(delayMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited with ${code}`))));
  });
  return { child, done };
}

function seed(dir: string): { path: string; leaf: string; first: string } {
  const b = new SessionBuilder({ id: '019b0000-0000-7000-8000-00000000c0c0', cwd: dir });
  const first = b.user('seed prompt');
  const leaf = b.assistant('seed reply');
  return { path: b.writeTo(join(dir, '2026-01-05T09-00-00-000Z_concurrent.jsonl')), leaf, first };
}

interface Line {
  type: string;
  id: string;
  parentId: string | null;
  targetId?: string;
}

/** Every line must be exactly one JSON object (no torn or interleaved lines). */
function parseStrict(path: string): Line[] {
  const text = readFileSync(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  return lines.slice(1).map((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 2} does not parse (torn or interleaved): ${line.slice(0, 200)}`);
    }
    expect(value !== null && typeof value === 'object' && !Array.isArray(value), `line ${i + 2}`).toBe(true);
    return value as Line;
  });
}

function expectConsistent(entries: Line[], writerCount: number, seedIds: string[]): void {
  const ids = new Set(entries.map((e) => e.id));
  expect(ids.size, 'ids are unique').toBe(entries.length);
  const writerIds = new Set(Array.from({ length: writerCount }, (_, i) => (0xa0000001 + i).toString(16)));
  const writer = entries.filter((e) => writerIds.has(e.id));
  expect(writer).toHaveLength(writerCount);
  // The writer chained each entry to its own previous entry.
  for (let i = 1; i < writer.length; i++) expect(writer[i]!.parentId).toBe(writer[i - 1]!.id);
  const real = new Set([...seedIds, ...writer.map((e) => e.id)]);
  for (const ours of entries.filter((e) => !real.has(e.id))) {
    expect(
      ours.parentId === null || ids.has(ours.parentId),
      `${ours.type} ${ours.id} hangs under ${ours.parentId}`,
    ).toBe(true);
    if (ours.targetId !== undefined) expect(real.has(ours.targetId), `${ours.type} targets a real entry`).toBe(true);
  }
}

describe('pi-sessions writing while pi writes', () => {
  it('renames, labels and branches through the CLI while a pi-like writer appends: nothing torn, nothing lost', async () => {
    const dir = tempDir('pi-sessions-concurrent-');
    const { path, leaf, first } = seed(dir);
    // pi appends an entry per finished message or tool result: bursts, then pauses. 10 ms apart
    // is far denser than a real session and still leaves the store gaps to append in.
    const writerCount = 300;
    const writer = startWriter(path, writerCount, leaf, 10);
    const ours: string[] = [];
    let refused = 0;
    let round = 0;
    while (writer.child.exitCode === null) {
      round++;
      const args =
        round % 3 === 0
          ? ['rename', path, `name ${round}`]
          : round % 3 === 1
            ? ['label', path, first, `label ${round}`]
            : ['branch', path, leaf];
      const run = await runCliAsync(args, { timeoutMs: 15_000 });
      expectCleanRun(run, args.join(' '));
      // The store re-plans when the file changed between its read and its append (so our entry
      // never hangs under a stale leaf) and gives up, writing nothing, after a few tries.
      if (run.code === 1) {
        expect(run.stderr).toMatch(/the file keeps changing \(is pi writing to it\?\); nothing was written/);
        refused++;
        continue;
      }
      ours.push(args[0]!);
    }
    await writer.done;
    for (const kind of ['rename', 'label', 'branch']) expect(ours, kind).toContain(kind);
    expect(refused).toBeLessThan(ours.length);
    const entries = parseStrict(path);
    expect(entries.length).toBe(2 + writerCount + ours.length);
    expectConsistent(entries, writerCount, [first, leaf]);
    const pi = await openWithPi(path);
    expect(pi.changedOnOpen).toBe(false);
    expect(pi.manager.getEntries()).toHaveLength(entries.length);
  }, 60_000);

  it('the tree view follows a running writer, labels in between, and reloads when the file is replaced', async () => {
    const dir = tempDir('pi-sessions-concurrent-view-');
    const { path, leaf, first } = seed(dir);
    const pty = startPty({ args: ['tree', path], cols: 100, rows: 30, env: { HOME: dir }, timeoutMs: 20_000 });
    await pty.waitForText('◆ assistant: seed reply', 10_000);
    // The cursor sits on the first prompt while entries stream in below.
    // Home is idempotent, so it is pressed again if the first press fell into the instant after
    // the first paint, before the view subscribed to input (known limitation, see the report).
    for (let tries = 0; tries < 3 && !/^› .*user: seed prompt/m.test(pty.screen()); tries++) {
      await pty.press(PTY_KEYS.home);
      await pty.waitForText(/^› .*user: seed prompt/m, 3000).catch(() => undefined);
    }
    await pty.waitForText(/^› .*user: seed prompt/m);
    const writerCount = 60;
    const writer = startWriter(path, writerCount, leaf, 15);
    await pty.waitForText('writer reply 10', 10_000);
    expect(pty.screen()).toMatch(/^› .*user: seed prompt/m);
    // Label from the view while pi is writing.
    await pty.press('L');
    await pty.waitForText(/Label/);
    await pty.press(...'live'.split(''), PTY_KEYS.enter);
    // Either the label is appended between pi's lines, or the store gives up after re-planning
    // while the file kept growing, says so, and writes nothing (the documented refusal).
    const outcome = await pty.waitForText(/\[live\]|keeps changing/);
    const labelled = outcome.includes('[live]');
    if (!labelled) await pty.press(PTY_KEYS.escape);
    await writer.done;
    await pty.press(PTY_KEYS.end);
    await pty.waitForText(`writer reply ${writerCount}`, 10_000);
    const entries = parseStrict(path);
    expectConsistent(entries, writerCount, [first, leaf]);
    expect(entries.filter((e) => e.type === 'label')).toHaveLength(labelled ? 1 : 0);

    // Replaced under the view (another inode, shorter): a full reload, said on the status line.
    const replacement = new SessionBuilder({ id: '019b0000-0000-7000-8000-00000000c0c1', cwd: dir });
    replacement.user('a different conversation');
    replacement.assistant('after the replacement');
    writeFileSync(`${path}.new`, replacement.text());
    renameSync(`${path}.new`, path);
    await pty.waitForText('after the replacement', 10_000);
    await pty.waitForText(/Reloaded: /);
    // A torn line is held back until its newline arrives.
    appendFileSync(
      path,
      '{"type":"message","id":"b0000001","parentId":"00000002","timestamp":"2026-01-05T09:00:10.000Z","message":{"role":"user","content":"torn then comp',
    );
    appendFileSync(path, 'leted"}}\n');
    await pty.waitForText('torn then completed', 10_000);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expect(pty.isAlternateScreen()).toBe(false);
  }, 60_000);
});
