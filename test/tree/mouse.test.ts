/** The mouse in the tree: the reducer gets the tokenizer's keys, as the screen hands them over. */
import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { createTokenizer, key as namedKey, textKey } from '../../src/keymap/tokenize.js';
import { DOUBLE_CLICK_MS, WHEEL_ROWS } from '../../src/state/list-mouse.js';
import { buildIndex } from '../../src/tree/flatten.js';
import type { ForkLink } from '../../src/tree/fork-nodes.js';
import { TREE_LIST_TOP, treeListArea } from '../../src/tree/mouse.js';
import {
  initTreeState,
  selectedId,
  selectedRow,
  type TreeAction,
  type TreeState,
  treeKey,
  treeReducer,
} from '../../src/tree/reducer.js';
import { assistant, piSample, treeOf, user } from './helpers.js';

const NOW = 1_000_000;
const key = (name: KeyName): TreeAction => treeKey([...name].length === 1 ? textKey(name) : namedKey(name), NOW);
const sent = (bytes: string, nowMs = NOW): TreeAction[] =>
  createTokenizer()
    .push(bytes)
    .map((k) => treeKey(k, nowMs));
const click = (x: number, y: number, nowMs = NOW): TreeAction[] =>
  sent(`\u001b[<0;${x};${y}M\u001b[<0;${x};${y}m`, nowMs);
const wheel = (direction: 'up' | 'down', times = 1): TreeAction[] =>
  sent(`\u001b[<${direction === 'up' ? 64 : 65};5;5M`.repeat(times));
const run = (state: TreeState, ...actions: (TreeAction | TreeAction[])[]): TreeState =>
  actions.flat().reduce(treeReducer, state);

/** 40 prompts and replies in a line: 80 rows, 10 on screen. */
function chain(): TreeState {
  const entries = [];
  let parent: string | null = null;
  for (let i = 0; i < 40; i++) {
    entries.push(user(`u${i}`, parent, `question ${i}`), assistant(`a${i}`, `u${i}`, `answer ${i}`));
    parent = `a${i}`;
  }
  return initTreeState({ index: buildIndex(treeOf(entries)), listHeight: 10, width: 80 });
}

describe('the mouse in the tree', () => {
  it('the rows start under the title, the facts and the query line', () => {
    expect(treeListArea(chain())).toEqual({ top: TREE_LIST_TOP, left: 1, width: 80, lines: 10 });
    expect(TREE_LIST_TOP).toBe(4);
  });

  it('the wheel moves the cursor a few rows, clamped at the ends (only Up and Down wrap)', () => {
    const top = run(chain(), key('home'));
    const down = run(top, wheel('down'));
    expect(down.cursor).toBe(WHEEL_ROWS);
    expect(run(down, wheel('up')).cursor).toBe(0);
    expect(run(top, wheel('up'))).toBe(top);
    const end = run(top, wheel('down', 40));
    expect(end.cursor).toBe(end.layout.count - 1);
    expect(end.offset).toBe(end.layout.count - 10);
  });

  it('a click selects the row under it, counting the scroll; off the rows it does nothing', () => {
    const top = run(chain(), key('home'));
    expect(selectedId(run(top, click(20, TREE_LIST_TOP + 3)))).toBe('a1');
    const scrolled = run(top, wheel('down', 10));
    const picked = run(scrolled, click(1, TREE_LIST_TOP));
    expect(picked.cursor).toBe(scrolled.offset);
    for (const y of [1, 2, 3, TREE_LIST_TOP + 10, TREE_LIST_TOP + 11])
      expect(run(top, click(5, y)), `line ${y}`).toBe(top);
    expect(run(top, click(81, TREE_LIST_TOP))).toBe(top);
  });

  it('a double click does what Enter does (the actions menu); two clicks apart or on two rows do not', () => {
    const top = run(chain(), key('home'));
    const double = run(top, click(3, TREE_LIST_TOP + 2, NOW), click(3, TREE_LIST_TOP + 2, NOW + 300));
    expect(double.mode).toMatchObject({ kind: 'menu', targetId: 'u1' });
    expect(run(top, click(3, TREE_LIST_TOP + 2), key('return')).mode).toEqual(double.mode);
    const slow = run(top, click(3, TREE_LIST_TOP + 2, NOW), click(3, TREE_LIST_TOP + 2, NOW + DOUBLE_CLICK_MS + 1));
    expect(slow.mode.kind).toBe('browse');
    const twoRows = run(top, click(3, TREE_LIST_TOP + 2, NOW), click(3, TREE_LIST_TOP + 3, NOW + 100));
    expect(twoRows.mode.kind).toBe('browse');
    // A key without a clock is never half of a double click.
    const clockless = run(
      top,
      ...createTokenizer()
        .push('\u001b[<0;3;6M\u001b[<0;3;6M')
        .map((k) => treeKey(k)),
    );
    expect(clockless.mode.kind).toBe('browse');
  });

  it("a double click on a ⑂ fork row opens that session's tree, as Enter does", () => {
    const fork: ForkLink = { path: '/s/fork-b.jsonl', title: 'Trying B again', entryId: 'aB', added: 3 };
    const s = initTreeState({ index: buildIndex(treeOf(piSample()), { forks: [fork] }), listHeight: 40, width: 100 });
    let at = -1;
    for (let row = 0; row < s.layout.count && at === -1; row++) {
      const moved = { ...s, cursor: row };
      if (selectedRow(moved)?.fork) at = row;
    }
    expect(at).toBeGreaterThanOrEqual(0);
    const y = TREE_LIST_TOP + at - s.offset;
    const opened = run(s, click(4, y, NOW), click(4, y, NOW + 100));
    expect(opened.effects.at(-1)).toMatchObject({ kind: 'openSession', path: '/s/fork-b.jsonl' });
    expect(opened.leaving).toBe(true);
  });

  it('never types into the search while searching', () => {
    const searching = run(chain(), ...[...'answer 3'].map((ch) => treeKey(textKey(ch), NOW)));
    expect(searching.query).toBe('answer 3');
    const after = run(searching, wheel('down'), click(3, TREE_LIST_TOP), sent('\u001b[M #$\u001b[<0;2;2m'));
    expect(after.query).toBe('answer 3');
  });

  it('in a menu the wheel moves the choice and the rows behind stay; a click does nothing there', () => {
    const menu = run(chain(), key('return'));
    expect(menu.mode).toMatchObject({ kind: 'menu', menu: { index: 0 } });
    const moved = run(menu, wheel('down'));
    expect(moved.mode).toMatchObject({ kind: 'menu', menu: { index: 1 } });
    expect(moved.cursor).toBe(menu.cursor);
    expect(run(moved, wheel('up')).mode).toMatchObject({ menu: { index: 0 } });
    expect(run(menu, click(3, TREE_LIST_TOP + 1))).toBe(menu);
  });

  it('prompts ignore it', () => {
    const prompt = run(chain(), key('L'));
    expect(prompt.mode.kind).toBe('labelInput');
    expect(run(prompt, wheel('down'), click(3, TREE_LIST_TOP), click(3, TREE_LIST_TOP))).toBe(prompt);
  });

  it('scrolls the detail view and the help a few lines', () => {
    const help = run(chain(), key('?'));
    expect(help.mode).toEqual({ kind: 'help', offset: 0 });
    expect(run(help, wheel('down')).mode).toEqual({ kind: 'help', offset: WHEEL_ROWS });
    expect(run(help, click(2, TREE_LIST_TOP))).toBe(help);
    // View is the fifth choice of the entry menu; a long answer scrolls.
    const long = initTreeState({
      index: buildIndex(
        treeOf([
          user('u', null, 'q'),
          assistant('a', 'u', Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n')),
        ]),
      ),
      listHeight: 10,
      width: 80,
    });
    const detail = run(long, key('return'), key('down'), key('down'), key('down'), key('down'), key('return'));
    expect(detail.mode.kind).toBe('detail');
    const scrolled = run(detail, wheel('down'));
    expect(scrolled.mode).toMatchObject({ kind: 'detail', detail: { scroll: WHEEL_ROWS } });
    expect(run(scrolled, wheel('up')).mode).toMatchObject({ detail: { scroll: 0 } });
  });
});
