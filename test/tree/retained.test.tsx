/**
 * A compaction's retained messages in the navigator: dim rows under the compaction,
 * marked as retained, not entries (no ids; no branch, label, fork or open), rendered as messages
 * in the detail view, and found by the tree search. Runs on the hand-made retained-tail fixtures.
 */
import { describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { rowSegments } from '../../components/tree/TreeRow.js';
import { type TreeExit, TreeScreen, type TreeStore } from '../../components/tree/TreeScreen.js';
import { key as namedKey, textKey } from '../../src/keymap/tokenize.js';
import { type LoadedSession, readSessionSync } from '../../src/store/index.js';
import { buildTree, subtreeUsage } from '../../src/store/tree.js';
import { type DetailFormat, nodeDetailLines } from '../../src/tree/entry-detail.js';
import {
  buildForest,
  buildIndex,
  displayOf,
  flattenTree,
  type Layout,
  layoutForest,
  rowAt,
  search,
  type TreeIndex,
} from '../../src/tree/flatten.js';
import {
  initTreeState,
  RETAINED_ROW_NOTE,
  selectedRow,
  type TreeState,
  treeKey,
  treeReducer,
} from '../../src/tree/reducer.js';
import { detailOf, menuOf } from '../../src/tree/state.js';
import { KEYS, renderInk } from '../helpers/ink.js';
import { retainedPath } from '../helpers/retained.js';
import { entry, resetClock, treeOf, user } from './helpers.js';

function load(file: string): LoadedSession {
  const result = readSessionSync(retainedPath(file));
  if (!result.ok) throw new Error(result.message);
  return result;
}

function indexOf(file: string): TreeIndex {
  return buildIndex(buildTree(load(file)));
}

/** Rows as drawn (no cursor column), wide enough that nothing is cut. */
function draw(layout: Layout): string[] {
  const out: string[] = [];
  for (let i = 0; i < layout.count; i++) {
    const row = rowAt(layout, i)!;
    const segments = rowSegments({
      row,
      display: displayOf(layout.forest.index, row.num),
      selected: false,
      width: 200,
      tokens: [],
    });
    out.push(
      segments
        .map((s) => s.text)
        .join('')
        .slice(2),
    );
  }
  return out;
}

const FMT: DetailFormat = { tokens: (n) => String(n), cost: (usd) => `$${usd.toFixed(4)}`, date: (iso) => iso };

describe('retained rows in the tree', () => {
  test('no-first-kept: the two retained messages sit dim under the compaction, before the next entry', () => {
    expect(draw(flattenTree(buildTree(load('no-first-kept.jsonl'))))).toEqual([
      '• user: first request',
      '• assistant: first reply',
      '• user: latest request',
      '• assistant: latest reply',
      '• [compaction: 50k tokens]',
      '┆ retained user: latest request',
      '┆ retained assistant: latest reply',
      '◆ user: after compaction',
    ]);
  });

  test('nested: each checkpoint shows its own tail; a retained tool result names its retained call', () => {
    expect(draw(flattenTree(buildTree(load('nested.jsonl'))))).toEqual([
      '• user: first request',
      '• assistant: first reply',
      '• [compaction: 50k tokens]',
      '┆ retained user: first request',
      '┆ retained assistant: first reply',
      '• user: second request',
      '• [read: /home/dev/retained/notes.md]',
      '• [compaction: 80k tokens]',
      '┆ retained user: second request',
      '┆ retained [read: /home/dev/retained/notes.md]',
      '◆ user: third request',
    ]);
    // The "all" filter also shows the retained pure tool-call turn, like the entry it copies.
    expect(draw(flattenTree(buildTree(load('nested.jsonl')), { filter: 'all' }))).toContain(
      '┆ retained assistant: (tool calls: read)',
    );
  });

  test('an empty tail adds no rows; a compaction without one has none', () => {
    expect(draw(flattenTree(buildTree(load('empty-tail.jsonl'))))).toEqual([
      '• user: first request',
      '• assistant: first reply',
      '• [compaction: 10k tokens]',
      '◆ user: after compaction',
    ]);
    const rows = draw(flattenTree(buildTree(load('nested-kept-range.jsonl'))));
    expect(rows.filter((r) => r.startsWith('┆'))).toEqual(['┆ retained user: old retained request']);
  });

  test('retained rows are not entries: no entry id, the compaction named, never on the active path', () => {
    const layout = flattenTree(buildTree(load('with-first-kept.jsonl')));
    const tree = layout.forest.index.tree;
    const retained = [...Array(layout.count).keys()]
      .map((i) => rowAt(layout, i)!)
      .filter((r) => r.retainedBy !== undefined);
    expect(retained).toHaveLength(2);
    for (const row of retained) {
      expect(tree.byId.has(row.id)).toBe(false);
      expect(row.retainedBy).toBe('b0000005');
      expect(row.onActivePath || row.isLeaf || row.foldable).toBe(false);
    }
  });

  test('under a branching compaction the retained rows carry the gutter down to its siblings', () => {
    resetClock();
    const tail = [{ role: 'user', content: 'kept words', timestamp: 1 }];
    const entries = [
      user('r', null, 'root'),
      entry('c', 'r', 'compaction', { summary: 's', tokensBefore: 3000, retainedTail: tail }),
      user('b', 'r', 'other branch'),
      user('x', 'c', 'after'),
    ];
    expect(draw(flattenTree(treeOf(entries)))).toEqual([
      '• user: root',
      '├⊟ • [compaction: 3k tokens]',
      '│  ┆ retained user: kept words',
      '│     ◆ user: after',
      '└─ user: other branch',
    ]);
  });
});

test('a hostile tail: only its messages get rows; the detail view names what is not a message', () => {
  resetClock();
  const tree = treeOf([
    user('r', null, 'root'),
    entry('c', 'r', 'compaction', {
      summary: 's',
      tokensBefore: 1000,
      retainedTail: ['junk', null, { role: 'user', content: null }, { role: 'assistant', content: 'x\u001b[31mred' }],
    }),
  ]);
  expect(draw(flattenTree(tree))).toEqual([
    '• user: root',
    '◆ [compaction: 1k tokens]',
    '┆ retained user: ',
    '┆ retained assistant: x␛[31mred',
  ]);
  const lines = nodeDetailLines(buildIndex(tree), 'c', FMT, subtreeUsage).map((l) => l.text);
  expect(lines).toEqual(
    expect.arrayContaining([
      'retained messages (4): in context right after the summary',
      '1. not a message',
      '"junk"',
      '2. not a message',
      'null',
      '3. user',
      '4. assistant',
    ]),
  );
  expect(lines.join('\n')).not.toContain('\u001b');
});

describe('tree search finds retained text', () => {
  test('a phrase only in a retained message matches its row; the compaction is shown as context', () => {
    const index = indexOf('with-first-kept.jsonl');
    const result = search(index, 'trimmed')!;
    const layout = layoutForest(buildForest(index, 'default', result), new Set());
    const rows = layout.matchRows.map((r) => rowAt(layout, r)!);
    expect(rows.map((r) => [r.retainedBy, displayOf(index, r.num).text])).toEqual([
      ['b0000005', 'kept reply, trimmed'],
    ]);
    const compaction = rowAt(layout, layout.rowOf[index.numOf.get('b0000005')!]!)!;
    expect(compaction.isContext).toBe(true);
  });

  test('text in both an entry and its retained copy matches both rows', () => {
    const index = indexOf('no-first-kept.jsonl');
    const layout = layoutForest(buildForest(index, 'default', search(index, 'latest request')), new Set());
    expect(draw(layout).filter((_, i) => layout.matchRows.includes(i))).toEqual([
      '• user: latest request',
      '┆ retained user: latest request',
    ]);
  });

  test('a retained tool result is found by its output', () => {
    const index = indexOf('nested.jsonl');
    const layout = layoutForest(buildForest(index, 'default', search(index, 'retained tool output')), new Set());
    expect(layout.matchRows.map((r) => rowAt(layout, r)!.retainedBy ?? 'entry')).toEqual(['entry', 'c0000007']);
  });

  test('a filter that hides the compaction hides its retained rows', () => {
    const rows = draw(flattenTree(buildTree(load('no-first-kept.jsonl')), { filter: 'user-only' }));
    expect(rows.some((r) => r.includes('retained'))).toBe(false);
  });
});

function stateOn(file: string, rowText: string): TreeState {
  const index = indexOf(file);
  let state = initTreeState({
    index,
    listHeight: 20,
    width: 100,
  });
  for (let guard = 0; guard < 50 && draw(state.layout)[state.cursor] !== rowText; guard++)
    state = treeReducer(state, treeKey(namedKey('up')));
  expect(draw(state.layout)[state.cursor]).toBe(rowText);
  return state;
}

describe('actions on a retained row', () => {
  test('the menu offers View, Copy and Cancel; resume, summary, fork, label and open in pi are refused with the reason; nothing is written', () => {
    const base = treeReducer(
      stateOn('no-first-kept.jsonl', '┆ retained user: latest request'),
      treeKey(namedKey('return')),
    );
    expect(base.mode.kind).toBe('menu');
    // The menu offers only what can be done to a copy, View first.
    expect(menuOf(base)!.items.map((item) => item.value)).toEqual(['view', 'copy', 'cancel']);
    expect(treeReducer(base, treeKey(namedKey('return'))).mode.kind).toBe('detail');
    // A choice sent some other way is still refused with the reason.
    for (const action of ['resume', 'resumeSummary', 'fork', 'label', 'open'] as const) {
      const next = treeReducer(base, { type: 'menu', action });
      expect(next.effects, action).toEqual([]);
      expect(next.mode.kind, action).toBe('browse');
      expect(next.status, action).toEqual({ text: RETAINED_ROW_NOTE, tone: 'error' });
    }
    const label = treeReducer(stateOn('no-first-kept.jsonl', '┆ retained user: latest request'), treeKey(textKey('L')));
    expect(label.mode.kind).toBe('browse');
    expect(label.status?.text).toBe(RETAINED_ROW_NOTE);
  });

  test('View renders the message (not JSON) and says what it is; Copy copies its text', () => {
    const state = stateOn('no-first-kept.jsonl', '┆ retained assistant: latest reply');
    const menu = treeReducer(state, treeKey(namedKey('return')));
    const view = treeReducer(menu, { type: 'menu', action: 'view' });
    const lines = detailOf(view)!.source.map((l) => l.text);
    expect(lines[0]).toBe('retained assistant: latest reply');
    expect(lines).toContain('message 2 of 2 retained by compaction a0000005');
    expect(lines.some((l) => l.includes('not an entry'))).toBe(true);
    expect(lines).toContain('model: anthropic/claude-sonnet-4-5 · stop: stop');
    expect(lines).toContain(
      'usage: 1.5k tokens (in 1.2k, out 300, cache read 0, cache write 0) · cost $0.008 — spent by the entry it copies, not counted again',
    );
    expect(lines).toContain('latest reply');
    const copy = treeReducer(state, treeKey(namedKey('ctrl+x')));
    expect(copy.effects).toEqual([{ kind: 'copy', entryId: selectedRow(state)!.id, id: 1 }]);
  });

  test('the compaction’s own detail view renders its retained messages as messages, not raw JSON under "fields"', () => {
    const index = indexOf('nested.jsonl');
    const lines = nodeDetailLines(index, 'c0000007', FMT, subtreeUsage).map((l) => l.text);
    const at = lines.indexOf('retained messages (3): in context right after the summary');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at)).toEqual(
      expect.arrayContaining([
        '1. user',
        'second request',
        '2. assistant',
        '→ tool call read (toolu_01)',
        '3. toolResult',
        'retained tool output',
      ]),
    );
    // No raw JSON of the tail: the fields block keeps only the other fields.
    const fields = lines.slice(lines.indexOf('fields'));
    expect(fields.join('\n')).not.toMatch(/"role"|"retainedTail"/);
    expect(fields).toContain('  "tokensBefore": 80000');
  });
});

describe('TreeScreen with a retained tail', () => {
  function mount() {
    const session = load('no-first-kept.jsonl');
    const calls: string[] = [];
    const store: TreeStore = {
      readSession: async () => session,
      setLabel: async (_path, id) => calls.push(`label ${id}`),
      branchInPlace: async (_path, id) => {
        calls.push(`branch ${id}`);
        return { leafId: id };
      },
      forkSession: async (_path, id) => {
        calls.push(`fork ${id}`);
        return { path: '/tmp/fork.jsonl' };
      },
      undoStep: async () => ({ kind: 'nothing' }),
      redoStep: async () => ({ kind: 'nothing' }),
    };
    const exits: TreeExit[] = [];
    // env: no clipboard tool, tmux or screen, whatever terminal runs the tests: plain OSC 52.
    const app = renderInk(
      <InputRouter>
        <TreeScreen
          path={session.path}
          store={store}
          live={false}
          env={{}}
          onBack={() => {}}
          onExit={(r) => exits.push(r)}
        />
      </InputRouter>,
      { columns: 100, rows: 24 },
    );
    return { app, calls };
  }

  test('Ctrl+X on a retained row copies the retained message’s text', async () => {
    const { app } = mount();
    await app.waitFor('┆ retained user: latest request');
    await app.settle();
    await app.press(KEYS.up);
    await app.waitFor('› ┆ retained assistant: latest reply');
    await app.press('\u0018');
    await app.waitFor("Sent 12 characters to the terminal's clipboard (OSC 52)");
    expect(app.stdout.output()).toContain(`\u001b]52;c;${Buffer.from('latest reply').toString('base64')}\u0007`);
  });

  test('draws the retained rows; the menu on one offers only View, Copy and Cancel and says why', async () => {
    const { app, calls } = mount();
    const frame = await app.waitFor('┆ retained user: latest request');
    expect(frame).toContain('  ┆ retained assistant: latest reply');
    // Only the two real assistant entries count: 3.0k tokens in the header, not 4.5k.
    expect(frame).toMatch(/3(\.0)?k tokens/);
    await app.settle();
    await app.press(KEYS.up, KEYS.up);
    await app.waitFor('› ┆ retained user: latest request');
    await app.press(KEYS.enter);
    const menu = await app.waitFor('Copy');
    expect(menu).toContain('Retained: user: latest request');
    expect(menu).toContain('not an entry');
    expect(menu).toContain('View');
    expect(menu).not.toContain('Resume from here');
    expect(menu).not.toContain('Fork to a new session');
    expect(menu).not.toContain('Label…');
    await app.settle();
    await app.press(KEYS.enter);
    // Enter on the preselected View opens the message.
    await app.waitFor('message 1 of 2 retained by compaction');
    await app.settle();
    expect(calls).toEqual([]);
  });
});
