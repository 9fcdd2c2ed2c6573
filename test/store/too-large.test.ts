/**
 * Lines over the readers' bound (store/read/too-large.ts), a 33 MiB tool output or prompt: the reader
 * gives the entry with its text cut, marked and reported with its size, and pi's own tree; what
 * needs the whole entry refuses (context, a fork before a huge prompt, a write that would replay a
 * cut label, a v1 rewrite) or copies the bytes (a fork, which pi 1.6.0 reads like the original).
 * The peak memory of the built CLI on a 200 MB line is in test/hostile/memory.test.ts.
 */
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/format.js';
import { checkFile } from '../../src/store/check/check.js';
import { buildContext } from '../../src/store/context.js';
import { KEPT_STRING_BYTES } from '../../src/store/read/bounded-json.js';
import { watchSession } from '../../src/store/read/live.js';
import { readSession, readSessionSync } from '../../src/store/read/read.js';
import { cutLineOf, READ_LINE_BYTES } from '../../src/store/read/too-large.js';
import { buildTree, getBranch, sessionUsage } from '../../src/store/tree.js';
import type { LoadedSession } from '../../src/store/types.js';
import { forkSession } from '../../src/store/write/fork.js';
import { renameSession, setLabel } from '../../src/store/write/write.js';
import { detailLines } from '../../src/tree/entry-detail.js';
import { entryDisplay } from '../../src/tree/entry-display.js';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';

/** Over the bound: 34 MB of JSON text with escapes and non-ASCII, like real tool output. */
const LONG = 'log: ünïcode line, "quoted"\t\\ end\n'.repeat(Math.ceil(READ_LINE_BYTES / 38));
/** The size the messages give for a line holding LONG (the rest of the line does not change it). */
const SIZE = formatBytes(Buffer.byteLength(JSON.stringify(LONG)));

function read(path: string): LoadedSession {
  const session = readSessionSync(path);
  if (!session.ok) throw new Error(session.message);
  return session;
}

/** Prompt, a side question, a tool call, its 33 MiB result (line 5), the answer (the leaf). */
function hugeToolOutput(dir = tempDir()): { path: string; ids: Record<string, string> } {
  const b = new SessionBuilder();
  const prompt = b.user('run the big command');
  const side = b.user('a side question');
  b.branchFrom(prompt);
  const call = b.toolCall('bash', { command: 'cat big.log' });
  const result = b.toolResult('bash', LONG);
  const answer = b.assistant('the log is long');
  return { path: b.writeTo(join(dir, 'huge.jsonl')), ids: { prompt, side, call, result, answer } };
}

describe('the reader bounds a line too long to hold', () => {
  it('gives the entry with its text cut, marked and reported with its size; the tree is pi’s', async () => {
    const { path, ids } = hugeToolOutput();
    const session = read(path);
    const { manager } = await openWithPi(path);
    expect(session.entries.map((e) => e.id)).toEqual(manager.getEntries().map((e) => e.id));
    const tree = buildTree(session);
    expect(getBranch(tree, tree.leafId).map((e) => e.id)).toEqual(manager.getBranch().map((e) => e.id));
    const size = statSync(path).size;
    expect(session.problems).toEqual([
      {
        line: 5,
        kind: 'oversized-line',
        message: `line 5 is ${SIZE}: too large to read whole (over 32 MB); shown with its text cut to the first 64 KB`,
      },
    ]);
    const result = tree.byId.get(ids['result']!)!;
    expect(cutLineOf(result)).toMatchObject({ line: 5, cutStrings: 1, droppedValues: false });
    expect(cutLineOf(result)!.bytes).toBeGreaterThan(size - 4096);
    const message = result['message'] as { toolCallId: string; content: { text: string }[] };
    expect(message.toolCallId).toBe(`call_${Number.parseInt(ids['call']!, 16)}`);
    const text = message.content[0]!.text;
    expect(LONG.startsWith(text)).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(text))).toBeLessThanOrEqual(KEPT_STRING_BYTES + 2);
    // The entries around it are whole, so their usage is counted exactly.
    expect(sessionUsage(tree).totalTokens).toBe(120);
    // The async reader (the screens') reads it the same way.
    expect(await readSession(path)).toEqual(session);
  });

  it('the tree view says the entry is too large, in its row and its detail view', () => {
    const { path, ids } = hugeToolOutput();
    const tree = buildTree(read(path));
    const result = tree.byId.get(ids['result']!)!;
    const ctx = { toolCalls: new Map() };
    expect(entryDisplay(result, ctx).text).toBe(`[too large: ${SIZE}] [bash]`);
    const fmt = { tokens: String, cost: String, date: String };
    expect(detailLines(result, tree, ctx, fmt, () => sessionUsage(tree)).map((l) => l.text)).toContain(
      `line 5 is ${SIZE}: too large to read whole (over 32 MB); shown with its text cut to the first 64 KB`,
    );
  });

  it('the context names a cut entry on its path instead of passing its text off as the model’s', async () => {
    const { path, ids } = hugeToolOutput();
    const tree = buildTree(read(path));
    expect(buildContext(tree).cutEntry).toMatchObject({ entryId: ids['result'], line: { line: 5 } });
    expect(buildContext(tree, ids['side']).cutEntry).toBeUndefined();
    const refused = runCli(['context', path, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `pi-sessions: ${path}: cannot give the context: entry ${ids['result']} is on its path and line 5 is ${SIZE}, too large to read whole\n`,
    );
    const side = runCli(['context', path, '--leaf', ids['side']!, '--json']);
    expect(side.code).toBe(0);
    const { manager } = await openWithPi(path);
    expect((JSON.parse(side.stdout) as { messages: unknown[] }).messages).toEqual(
      await piContextAt(manager, ids['side']!),
    );
  });

  it('check names the line and its size, and still counts its bytes in the health figures', () => {
    const { path } = hugeToolOutput();
    const check = checkFile(path);
    expect(check.problems).toContainEqual(
      expect.objectContaining({ line: 5, kind: 'oversized-line', severity: 'warning' }),
    );
    const lineBytes = Buffer.byteLength(readFileSync(path, 'utf8').split('\n')[4]!);
    expect(lineBytes).toBeGreaterThan(READ_LINE_BYTES);
    expect(check.health).toMatchObject({ entries: 5, toolOutputBytes: lineBytes + 1 });
    expect(check.health!.largestEntries[0]).toMatchObject({ line: 5, type: 'message', bytes: lineBytes + 1 });
  });

  it('the live watcher reads an appended long line the same way', async () => {
    const b = new SessionBuilder();
    b.user('before');
    const path = b.writeTo(join(tempDir(), 'live.jsonl'));
    const events: unknown[] = [];
    const watcher = watchSession(path, { from: read(path), pollMs: 60_000, onEvent: (e) => events.push(e) });
    try {
      const more = new SessionBuilder();
      more.lines.length = 0;
      more.branchFrom(b.leaf);
      more.toolResult('bash', LONG, 'call_9');
      appendFileSync(path, more.text());
      await watcher.poll();
    } finally {
      watcher.close();
    }
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'append',
        entryLines: [3],
        problems: [expect.objectContaining({ line: 3, kind: 'oversized-line' })],
      }),
    ]);
    const [entry] = (events[0] as { entries: object[] }).entries;
    expect(cutLineOf(entry!)).toMatchObject({ line: 3, cutStrings: 1 });
  });
});

describe('what needs the whole of a long line refuses it, or copies its bytes', () => {
  it('a fork copies the long line byte for byte, and pi reads the copy as it reads the original', async () => {
    const { path, ids } = hugeToolOutput();
    const fork = await forkSession(path, undefined, { journal: false });
    const original = (await openWithPi(path)).manager.getBranch();
    const { manager, changedOnOpen } = await openWithPi(fork.path);
    expect(changedOnOpen).toBe(false);
    expect(manager.getBranch()).toEqual(original);
    expect(manager.getLeafId()).toBe(ids['answer']);
    const line = (file: string): string =>
      readFileSync(file, 'utf8')
        .split('\n')
        .find((l) => l.length > READ_LINE_BYTES)!;
    expect(line(fork.path) === line(path)).toBe(true);
  });

  it('a fork refuses a long line that holds glued entries, and leaves no file', async () => {
    const dir = tempDir();
    const b = new SessionBuilder();
    const prompt = b.user('start');
    const glued = JSON.stringify({ type: 'custom', id: 'aaaa0001', parentId: prompt, customType: 'x', data: LONG });
    b.raw(`${glued}${JSON.stringify({ type: 'custom', id: 'aaaa0002', parentId: 'aaaa0001', customType: 'y' })}`);
    b.branchFrom('aaaa0002');
    b.assistant('after');
    const path = b.writeTo(join(dir, 'glued.jsonl'));
    expect(read(path).problems.map((p) => p.kind)).toEqual(['glued-line', 'oversized-line']);
    await expect(forkSession(path, undefined, { journal: false })).rejects.toThrow(
      `: line 3 is ${SIZE} and holds several entries glued together: too large to copy apart; nothing was created`,
    );
    expect(readdirSync(dir)).toEqual(['glued.jsonl']);
  });

  it('a fork before a huge prompt refuses: its text cannot be put back in the editor', async () => {
    const b = new SessionBuilder();
    b.user('first');
    b.assistant('ok');
    const huge = b.user(LONG);
    b.assistant('read it');
    const path = b.writeTo(join(tempDir(), 'prompt.jsonl'));
    await expect(forkSession(path, huge, { journal: false })).rejects.toThrow(
      `cannot fork before ${huge}: line 4 is ${SIZE}, too large to put its message back in the editor; nothing was created`,
    );
  });

  it('a write beside a long tool output is made; one that would replay a cut label is refused, the file unchanged', async () => {
    const { path, ids } = hugeToolOutput();
    await renameSession(path, 'big one');
    const { manager } = await openWithPi(path);
    expect(manager.getSessionName()).toBe('big one');

    const b = new SessionBuilder();
    const prompt = b.user('start');
    b.label(prompt, LONG);
    b.assistant('after');
    const labelled = b.writeTo(join(tempDir(), 'label.jsonl'));
    const before = readFileSync(labelled);
    await expect(setLabel(labelled, prompt, 'short')).rejects.toThrow(
      `${labelled}: the label entry 00000002: line 3 is ${SIZE}, too large to read whole; nothing was written`,
    );
    expect(readFileSync(labelled).equals(before)).toBe(true);
    expect(ids['result']).toBeDefined();
  });

  it('a v1 file with a long line is not rewritten as v3 (its line would be cut): refused before it is read whole', async () => {
    const b = new SessionBuilder({ version: null });
    b.raw(
      JSON.stringify({
        type: 'message',
        timestamp: '2026-01-05T09:00:01.000Z',
        message: { role: 'user', content: LONG },
      }),
    );
    b.raw(
      JSON.stringify({
        type: 'message',
        timestamp: '2026-01-05T09:00:02.000Z',
        message: { role: 'user', content: 'hi' },
      }),
    );
    const path = b.writeTo(join(tempDir(), 'v1.jsonl'));
    const before = readFileSync(path);
    await expect(renameSession(path, 'x')).rejects.toThrow(
      `${path}: cannot rewrite this v1/v2 session as v3 (pi-sessions does before a change): line 2 is ${SIZE}: too large to read whole`,
    );
    await expect(forkSession(path, undefined, { journal: false })).rejects.toThrow(`line 2 is ${SIZE}: too large`);
    expect(readFileSync(path).equals(before)).toBe(true);
    // Reading it is fine: the v1 entry gets its id like any other.
    expect(read(path).entries).toHaveLength(2);
  });
});
