/**
 * The merge plan (pure): three files of one session (the original and two conflict copies), the
 * entries they share once, each file's own entries after them in file order, files oldest first
 * so the one modified last holds the leaf; and the files it refuses to carry over.
 */
import { describe, expect, it } from 'vitest';
import { type MergeInput, planMerge, readSessionFromBuffer, StoreError } from '../../src/store/index.js';
import { SessionBuilder } from '../helpers/factory.js';

const HEADER = new SessionBuilder().lines[0]!;
const entry = (id: string, parentId: string | null, text: string): string =>
  JSON.stringify({
    type: 'message',
    id,
    parentId,
    timestamp: '2026-01-05T09:00:00.000Z',
    message: { role: 'user', content: text, timestamp: 1 },
  });

function input(path: string, lines: string[], mtimeMs: number): MergeInput {
  const bytes = Buffer.from(`${[HEADER, ...lines].join('\n')}\n`);
  const session = readSessionFromBuffer(path, bytes, mtimeMs);
  if (!session.ok) throw new Error(session.message);
  return { path, bytes, session, mtimeMs };
}

const shared = [entry('s1', null, 'one'), entry('s2', 's1', 'two')];

describe('planMerge', () => {
  it('lays out the shared entries once, then each file’s own, the file modified last at the end', () => {
    const original = input('/s/o.jsonl', [...shared, entry('o1', 's2', 'laptop'), entry('o2', 'o1', 'laptop 2')], 200);
    const copyA = input('/s/a.jsonl', [...shared, entry('a1', 's2', 'server')], 300);
    const copyB = input('/s/b.jsonl', [...shared, entry('o1', 's2', 'laptop'), entry('b1', 'o1', 'desk')], 100);
    const plan = planMerge([original, copyA, copyB]);
    const ids = plan.bytes
      .toString()
      .split('\n')
      .filter(Boolean)
      .slice(1)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    // b (oldest): shared, o1, b1; then the original's o2; then a (newest): a1.
    expect(ids).toEqual(['s1', 's2', 'o1', 'b1', 'o2', 'a1']);
    expect(plan.bytes.toString().split('\n')[0]).toBe(HEADER);
    expect(plan).toMatchObject({ entries: 6, leafId: 'a1', leafFrom: '/s/a.jsonl' });
    expect(Object.fromEntries(plan.own)).toEqual({ '/s/o.jsonl': 1, '/s/a.jsonl': 1, '/s/b.jsonl': 1 });
  });

  it('a copy that adds nothing leaves the leaf to the newest file that does', () => {
    const original = input('/s/o.jsonl', [...shared, entry('o1', 's2', 'laptop')], 100);
    const stale = input('/s/c.jsonl', shared, 500);
    expect(planMerge([original, stale])).toMatchObject({ entries: 3, leafId: 'o1', leafFrom: '/s/o.jsonl' });
  });

  it('refuses an entry two files hold differently, an id one file holds twice differently, and a v2 file, naming the file', () => {
    const original = input('/s/o.jsonl', shared, 100);
    const differs = input('/s/c.jsonl', [shared[0]!, entry('s2', 's1', 'TWO')], 200);
    expect(() => planMerge([original, differs])).toThrow(
      /^cannot merge: \/s\/o\.jsonl \(line 3\) and \/s\/c\.jsonl \(line 3\) hold different entries with the same id s2; nothing was merged$/,
    );
    // One file holding an id twice, differently (a broken file): pi would keep only the last.
    const twice = input('/s/d.jsonl', [...shared, entry('s2', 's1', 'two again')], 50);
    expect(() => planMerge([twice, original])).toThrow(
      /^cannot merge: \/s\/d\.jsonl \(line 3\) and \/s\/d\.jsonl \(line 4\) hold different entries with the same id s2; nothing was merged$/,
    );
    const v2 = new SessionBuilder({ version: 2 });
    v2.user('old');
    const bytes = Buffer.from(v2.text());
    const session = readSessionFromBuffer('/s/v2.jsonl', bytes);
    if (!session.ok) throw new Error(session.message);
    expect(() => planMerge([original, { path: '/s/v2.jsonl', bytes, session, mtimeMs: 0 }])).toThrow(
      /^cannot merge \/s\/v2\.jsonl: it is format v2 \(open it in pi once to migrate it\); nothing was merged$/,
    );
    expect(() => planMerge([original])).toThrow(StoreError);
  });
});
