import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/factory.js';
import { parseAppended, watchSession, type LiveEvent } from '../../src/tree/live.js';

const line = (id: string, parentId: string | null): string => JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-02-05T10:00:00.000Z', message: { role: 'user', content: id } }) + '\n';

test('parseAppended keeps entries, counts junk, splits glued lines', () => {
  const glued = line('a', null).trim() + line('b', 'a').trim();
  const { entries, skipped } = parseAppended([glued, 'not json', '{"no":"id"}', '']);
  expect(entries.map((e) => e.id)).toEqual(['a', 'b']);
  expect(skipped).toBe(2);
});

test('reads only appended complete lines; a torn fragment waits for its newline; shrinking asks for a reload', async () => {
  const dir = tempDir('tree-live-');
  const path = join(dir, 's.jsonl');
  const head = '{"type":"session","id":"s","version":3}\n' + line('a', null);
  writeFileSync(path, head);
  const events: LiveEvent[] = [];
  const watcher = watchSession(path, { size: Buffer.byteLength(head), endsWithNewline: true, pollMs: 10_000, onEvent: (e) => events.push(e) });
  try {
    const next = line('b', 'a');
    appendFileSync(path, next.slice(0, 20));
    await watcher.poll();
    expect(events).toEqual([]);
    appendFileSync(path, next.slice(20) + line('c', 'b'));
    await watcher.poll();
    expect(events).toHaveLength(1);
    const first = events[0]!;
    expect(first.kind === 'append' && first.entries.map((e) => e.id)).toEqual(['b', 'c']);
    writeFileSync(path, head);
    await watcher.poll();
    expect(events[1]).toEqual({ kind: 'reload', reason: 'the session file shrank' });
  } finally {
    watcher.close();
  }
});
