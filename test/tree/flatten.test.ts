import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readSessionSync } from '../../src/store/read/read.js';
import { buildTree } from '../../src/store/tree.js';
import type { SessionEntry } from '../../src/store/types.js';
import {
  buildForest,
  buildIndex,
  displayOf,
  flattenTree,
  type Layout,
  layoutForest,
  rowAt,
  rowPrefix,
  search,
  segmentDown,
  segmentStartAbove,
} from '../../src/tree/flatten.js';
import { sessionsRoot } from '../helpers/corpus.js';
import { assistant, entry, piSample, resetClock, treeOf, user } from './helpers.js';

/** Rows as pi draws them (no cursor column): prefix, markers, label, text. */
function draw(layout: Layout): string[] {
  const out: string[] = [];
  for (let i = 0; i < layout.count; i++) {
    const row = rowAt(layout, i)!;
    const d = displayOf(layout.forest.index, row.num);
    out.push(
      rowPrefix(row) +
        (row.folded && row.connector === 0 ? '⊞ ' : '') +
        (row.onActivePath ? '• ' : '') +
        (row.label ? `[${row.label}] ` : '') +
        d.prefix +
        d.text,
    );
  }
  return out;
}

describe('layout (pi §2.3)', () => {
  test('pi’s sample renders exactly like pi 1.6 (active branch first, gutters, bodies one level deeper)', () => {
    expect(draw(flattenTree(treeOf(piSample())))).toEqual([
      '• user: Hello, can you help me',
      '• assistant: Of course!',
      '├⊟ • [checkpoint] user: approach A please',
      '│     • [read: /home/me/src/a.ts:10-29]',
      '│     • [bash: npm test -- --watch=false && echo done and then so...]',
      '│     • assistant: For approach A, done.',
      '│     • [compaction: 12k tokens]',
      '│     • user: That worked',
      '│     • assistant: Great',
      '│     • [ext]: hello from ext',
      '└⊟ user: Actually approach B',
      '      assistant: For approach B',
      '      ├⊟ user: B.1',
      '      │     assistant: B.1 answer',
      '      ├⊟ user: B.2',
      '      │     assistant: B.2 answer',
      '      └─ [branch summary]: Tried approach A; it worked.',
    ]);
  });

  test('the branch holding the leaf is listed first even when newer; others oldest first', () => {
    resetClock();
    const entries = [
      user('r', null, 'root'),
      user('a', 'r', 'old'),
      user('b', 'r', 'mid'),
      user('c', 'r', 'new'),
      assistant('c1', 'c', 'leaf here'),
    ];
    expect(draw(flattenTree(treeOf(entries)))).toEqual([
      '• user: root',
      '├⊟ • user: new',
      '│     • assistant: leaf here',
      '├─ user: old',
      '└─ user: mid',
    ]);
  });

  test('several roots are drawn bare at column 0, their children one level in', () => {
    resetClock();
    const entries = [
      user('r1', null, 'first root'),
      assistant('a1', 'r1', 'one'),
      user('r2', null, 'second root'),
      assistant('a2', 'r2', 'two'),
    ];
    expect(draw(flattenTree(treeOf(entries)))).toEqual([
      '• user: second root',
      '   • assistant: two',
      'user: first root',
      '   assistant: one',
    ]);
  });

  test('an orphan (missing parent) becomes an extra root', () => {
    resetClock();
    const entries = [user('r1', null, 'root'), assistant('x', 'gone', 'orphan reply')];
    const layout = flattenTree(treeOf(entries));
    expect(layout.multipleRoots).toBe(true);
    expect(draw(layout)).toEqual(['• assistant: orphan reply', 'user: root']);
  });

  test('filters re-lay out on the visible nodes: user-only makes siblings of replies to one hidden assistant', () => {
    const layout = flattenTree(treeOf(piSample()), { filter: 'user-only' });
    expect(draw(layout)).toEqual([
      '• user: Hello, can you help me',
      '├⊟ • [checkpoint] user: approach A please',
      '│     • user: That worked',
      '└⊟ user: Actually approach B',
      '   ├─ user: B.1',
      '   └─ user: B.2',
    ]);
  });

  test('"all" really shows every entry, usage and pure tool-call turns included; default hides them', () => {
    const entries = [
      ...piSample(),
      entry('u9', 'x1', 'usage', { kind: 'cache_warm', model: 'm', usage: { input: 1, output: 2, totalTokens: 3 } }),
    ];
    const tree = treeOf(entries);
    expect(flattenTree(tree, { filter: 'all' }).count).toBe(tree.order.length);
    const shown = draw(flattenTree(tree));
    expect(shown.some((l) => l.includes('[label:'))).toBe(false);
    expect(shown.some((l) => l.includes('tool calls'))).toBe(false);
    const all = draw(flattenTree(tree, { filter: 'all' }));
    expect(all.some((l) => l.includes('assistant: (tool calls: read, bash)'))).toBe(true);
    expect(all.some((l) => l.includes('[usage: cache_warm m, 3 tokens]'))).toBe(true);
  });

  test('labeled-only shows the labelled entries; the hidden leaf is marked on its nearest visible ancestor', () => {
    const layout = flattenTree(treeOf(piSample()), { filter: 'labeled-only' });
    expect(draw(layout)).toEqual(['• [checkpoint] user: approach A please']);
    expect(rowAt(layout, 0)!.leafBelow).toBe(true);
  });

  test('a label entry as the leaf: hidden, its parent carries the leaf marker', () => {
    const entries = [...piSample(), entry('l2', 'x1', 'label', { targetId: 'x1', label: 'here' })];
    const layout = flattenTree(treeOf(entries));
    const leafRow = rowAt(
      layout,
      layout.forest.index.numOf.get('x1') === undefined ? -1 : layout.rowOf[layout.forest.index.numOf.get('x1')!]!,
    )!;
    expect(leafRow.leafBelow).toBe(true);
    expect(layout.count).toBe(17);
  });
});

describe('folds and segment jumps (pi §2.9)', () => {
  const index = buildIndex(treeOf(piSample()));
  const forest = buildForest(index, 'default');
  const n = (id: string): number => index.numOf.get(id)!;

  test('folding a branch head hides every descendant and shows ⊞ in its connector', () => {
    const layout = layoutForest(forest, new Set(['uA']));
    const lines = draw(layout);
    expect(lines).toContain('├⊞ • [checkpoint] user: approach A please');
    expect(lines.some((l) => l.includes('[read:'))).toBe(false);
    expect(layout.count).toBe(17 - 7);
  });

  test('a folded root shows ⊞ before its text; mid-chain nodes are not foldable', () => {
    const layout = layoutForest(forest, new Set(['u1', 'a1']));
    expect(draw(layout)).toEqual(['⊞ • user: Hello, can you help me']);
    expect(rowAt(layoutForest(forest, new Set()), 1)!.foldable).toBe(false);
  });

  test('segment up goes to the nearest segment start above, or the root; down stops at the next branch', () => {
    expect(segmentStartAbove(forest, n('aA2'))).toBe(n('uA'));
    expect(segmentStartAbove(forest, n('uA'))).toBe(n('u1'));
    const layout = layoutForest(forest, new Set());
    expect(segmentDown(layout, n('u1'))).toBe(n('uA'));
    expect(segmentDown(layout, n('uB'))).toBe(n('uB1'));
    expect(segmentDown(layout, n('uA'))).toBe(n('x1'));
  });
});

describe('search', () => {
  const index = buildIndex(treeOf(piSample()));
  test('tokens are ANDed and case-insensitive over the whole text and the row text', () => {
    const ids = (q: string): string[] => [...(search(index, q)?.matches ?? [])].map((m) => index.entries[m]!.id);
    expect(ids('FOR approach b')).toEqual(['aB']);
    expect(ids('approach')).toEqual(['uA', 'aA', 'uB', 'aB', 'sB']);
    // The row shows the read call's path: searchable (pi searched only the output).
    expect(ids('src/a.ts')).toEqual(['r1']);
    expect(ids('file contents')).toEqual(['r1']);
    // Labels are searched, role words are not.
    expect(ids('checkpoint')).toEqual(['uA', 'l1']); // the label entry's own row text matches too
    expect(ids('user')).toEqual([]);
    expect(search(index, '   ')).toBeUndefined();
  });

  test('text after the first 200 characters is found', () => {
    resetClock();
    const tree = treeOf([user('u', null, `${'x'.repeat(5000)} needle`)]);
    expect(search(buildIndex(tree), 'needle')?.matches.length).toBe(1);
  });

  test('a query extending the previous one only narrows its matches', () => {
    const first = search(index, 'b')!;
    const narrowed = search(index, 'b.1', first)!;
    const fresh = search(index, 'b.1')!;
    expect([...narrowed.matches]).toEqual([...fresh.matches]);
  });

  test('results stay a tree: matches plus their root and branch-point ancestors (marked as context)', () => {
    const layout = flattenTree(treeOf(piSample()), { query: 'answer' });
    expect(draw(layout)).toEqual([
      '• user: Hello, can you help me',
      '• assistant: Of course!',
      'assistant: For approach B',
      '├─ assistant: B.1 answer',
      '└─ assistant: B.2 answer',
    ]);
    const rows = Array.from({ length: layout.count }, (_, i) => rowAt(layout, i)!);
    expect(rows.filter((r) => r.isMatch).map((r) => r.id)).toEqual(['aB1', 'aB2']);
    expect(rows.filter((r) => r.isContext).map((r) => r.id)).toEqual(['u1', 'a1', 'aB']);
    expect(layout.matchRows).toEqual([3, 4]);
  });
});

describe('scale', () => {
  test('a 1,000,000-entry chain flattens without overflowing the stack, flat at indent 0', () => {
    const entries: SessionEntry[] = new Array(1_000_000);
    const ts = '2026-02-05T10:00:00.000Z';
    for (let i = 0; i < entries.length; i++)
      entries[i] = {
        type: 'message',
        id: `e${i}`,
        parentId: i === 0 ? null : `e${i - 1}`,
        timestamp: ts,
        message: { role: 'user', content: 'x' },
      };
    const tree = treeOf(entries);
    const layout = flattenTree(tree);
    expect(layout.count).toBe(1_000_000);
    expect(rowAt(layout, 999_999)!.indent).toBe(0);
    expect(rowAt(layout, 999_999)!.isLeaf).toBe(true);
  }, 60_000);
});

describe('corpus sessions (pi-written)', () => {
  const root = sessionsRoot('pi-written');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
  test.each(files)('%s: every unique entry is laid out once under "all"; the leaf is drawn or hosted', (file) => {
    const read = readSessionSync(join(root, file));
    if (!read.ok) return;
    const tree = buildTree(read);
    const all = flattenTree(tree, { filter: 'all' });
    expect(all.count).toBe(tree.order.length);
    const seen = new Set<string>();
    for (let i = 0; i < all.count; i++) seen.add(rowAt(all, i)!.id);
    expect(seen.size).toBe(tree.order.length);
    const def = flattenTree(tree);
    if (tree.leafId !== null && def.count > 0) expect(def.forest.leafHost).not.toBe(-1);
    // Roots are drawn bare, so a multiple-root session has several column-0 rows without connectors.
    const bare = Array.from({ length: all.count }, (_, i) => rowAt(all, i)!).filter(
      (r) => r.displayIndent === 0,
    ).length;
    if (tree.roots.length > 1) expect(bare).toBeGreaterThanOrEqual(tree.roots.length);
  });
});
