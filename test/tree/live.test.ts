import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type LiveEvent, type LiveWatcher, watchSession } from '../../src/store/read/live.js';
import { readSession } from '../../src/store/read/read.js';
import type { LoadedSession } from '../../src/store/types.js';

const line = (id: string, parentId: string | null): string =>
  `${JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-02-05T10:00:00.000Z', message: { role: 'user', content: id } })}\n`;
const HEAD = `{"type":"session","id":"s","version":3}\n${line('a', null)}`;

let dir: string;
let path: string;
let watcher: LiveWatcher | undefined;
let events: LiveEvent[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pi-sessions-live-'));
  path = join(dir, 's.jsonl');
  events = [];
});
afterEach(() => {
  watcher?.close();
  watcher = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function watch(content: string): Promise<LoadedSession> {
  writeFileSync(path, content);
  const session = await readSession(path);
  if (!session.ok) throw new Error(session.message);
  watcher = watchSession(path, { from: session, pollMs: 60_000, onEvent: (e) => events.push(e) });
  return session;
}

describe('watchSession', () => {
  test('hands over whole appended lines with their true line numbers; a torn fragment waits for its newline', async () => {
    await watch(`${HEAD}\nnot json\n`); // lines 3 and 4: a blank line and junk, already read
    const next = line('b', 'a');
    appendFileSync(path, next.slice(0, 20));
    await watcher!.poll();
    expect(events).toEqual([]);
    appendFileSync(path, `${next.slice(20)}{"broken\n${line('c', 'b')}`);
    await watcher!.poll();
    expect(events).toHaveLength(1);
    const event = events[0]!;
    if (event.kind !== 'append') throw new Error(`expected an append, got ${event.kind}`);
    expect(event.entries.map((e) => e.id)).toEqual(['b', 'c']);
    expect(event.entryLines).toEqual([5, 7]);
    expect(event.problems).toEqual([expect.objectContaining({ line: 6, kind: 'unparsable-line' })]);
    appendFileSync(path, line('d', 'c'));
    await watcher!.poll();
    expect(events[1]).toMatchObject({ kind: 'append', entryLines: [8] });
  });

  test('a file that shrank asks for a reload, and nothing is read until reset', async () => {
    await watch(HEAD + line('b', 'a'));
    writeFileSync(path, HEAD);
    await watcher!.poll();
    expect(events).toEqual([{ kind: 'reload', cause: 'shrank', reason: 'the session file shrank' }]);
    appendFileSync(path, line('x', 'a'));
    await watcher!.poll();
    // Still the same request (the caller has not reloaded), never an append at a wrong line.
    expect(events.every((e) => e.kind === 'reload')).toBe(true);
    const again = await readSession(path);
    if (!again.ok) throw new Error(again.message);
    watcher!.reset(again);
    events.length = 0;
    appendFileSync(path, line('y', 'x'));
    await watcher!.poll();
    expect(events).toEqual([expect.objectContaining({ kind: 'append', entryLines: [4] })]);
  });

  test('the same size with other bytes at the seam is a rewrite, not "nothing new"', async () => {
    const content = HEAD + line('b', 'a');
    await watch(content);
    writeFileSync(path, content.replace('"b"', '"z"')); // same length, same inode
    await watcher!.poll();
    expect(events).toEqual([expect.objectContaining({ kind: 'reload', cause: 'rewritten' })]);
  });

  test('a file rewritten in place and grown is a rewrite, not an append', async () => {
    const content = HEAD + line('b', 'a');
    await watch(content);
    writeFileSync(path, content.replace('"s"', '"t"') + line('c', 'b'));
    await watcher!.poll();
    expect(events).toEqual([expect.objectContaining({ kind: 'reload', cause: 'rewritten' })]);
  });

  test('a grown file whose last line read changed (the seam) is a rewrite, not an append', async () => {
    const content = HEAD + line('b', 'a');
    await watch(content);
    writeFileSync(path, content.replace('"content":"b"', '"content":"B"') + line('c', 'b'));
    await watcher!.poll();
    expect(events).toEqual([expect.objectContaining({ kind: 'reload', cause: 'rewritten' })]);
  });

  test('a file replaced by another (rename over it) is a replacement', async () => {
    const content = HEAD + line('b', 'a');
    await watch(content);
    writeFileSync(join(dir, 'new.jsonl'), content + line('c', 'b'));
    renameSync(join(dir, 'new.jsonl'), path);
    await watcher!.poll();
    expect(events).toEqual([expect.objectContaining({ kind: 'reload', cause: 'replaced' })]);
  });

  test('after the reload of a replaced file, appends to the new file are seen without waiting for the poll', async () => {
    const content = HEAD + line('b', 'a');
    await watch(content);
    writeFileSync(join(dir, 'new.jsonl'), content + line('c', 'b'));
    renameSync(join(dir, 'new.jsonl'), path);
    await watcher!.poll();
    const reread = await readSession(path);
    if (!reread.ok) throw new Error(reread.message);
    watcher!.reset(reread);
    // The poll runs once a minute here: only a watch on the new file can report this append.
    appendFileSync(path, line('d', 'c'));
    await vi.waitFor(() => expect(events.at(-1)).toMatchObject({ kind: 'append', entryLines: [5] }), {
      timeout: 5000,
    });
  });

  test('a torn last line that gets completed reloads the file (the read dropped it)', async () => {
    const next = line('b', 'a');
    await watch(HEAD + next.slice(0, 30));
    appendFileSync(path, next.slice(30));
    await watcher!.poll();
    expect(events).toEqual([expect.objectContaining({ kind: 'reload', cause: 'torn-line-completed' })]);
  });
});
