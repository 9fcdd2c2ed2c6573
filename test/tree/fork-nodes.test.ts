/** Fork rows in the tree, the parent link and trees opened on an entry: the pure side. */
import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { buildIndex, displayOf, rowAt, search, type TreeIndex } from '../../src/tree/flatten.js';
import { entriesAfter, type ForkLink, forkPoint } from '../../src/tree/fork-nodes.js';
import { entryFocus } from '../../src/tree/hit-focus.js';
import { initTreeState, selectedRow, type TreeState, treeReducer } from '../../src/tree/reducer.js';
import { assistant, label, piSample, treeOf, user } from './helpers.js';

const FORK_AT_AB: ForkLink = { path: '/s/fork-b.jsonl', title: 'Trying B again', entryId: 'aB', added: 3 };
// `tA` is a pure tool-call turn: the default filter hides it, so its fork hangs on `uA` above.
const FORK_AT_TA: ForkLink = { path: '/s/fork-ta.jsonl', title: 'From the tool call', entryId: 'tA', added: 1 };

function indexWith(forks: readonly ForkLink[]): TreeIndex {
  return buildIndex(treeOf(piSample()), { forks });
}

function state(forks: readonly ForkLink[], extra: { filter?: 'default' | 'all'; focusId?: string } = {}): TreeState {
  const index = indexWith(forks);
  const filter = extra.filter ?? 'default';
  const focus = extra.focusId === undefined ? undefined : entryFocus(index, extra.focusId, filter);
  return initTreeState({
    index,
    listHeight: 40,
    width: 100,
    filter,
    ...(focus ? { focus } : {}),
  });
}

function rows(s: TreeState): { id: string; text: string; fork: string | undefined }[] {
  const out = [];
  for (let i = 0; i < s.layout.count; i++) {
    const row = rowAt(s.layout, i)!;
    const d = displayOf(s.index, row.num);
    out.push({ id: row.id, text: d.prefix + d.text, fork: row.fork?.path });
  }
  return out;
}

const key = (name: KeyName, text = ''): { type: 'key'; name: KeyName; text: string; paste: boolean } => ({
  type: 'key',
  name,
  text,
  paste: false,
});

function cursorTo(s: TreeState, id: string): TreeState {
  const at = rows(s).findIndex((r) => r.id === id);
  expect(at).toBeGreaterThanOrEqual(0);
  let next = treeReducer(s, key('home'));
  for (let i = 0; i < at; i++) next = treeReducer(next, key('down'));
  return next;
}

describe('forkPoint', () => {
  it("is the fork's last entry (file order) whose id the original has: later turns and re-made labels have new ids", () => {
    const copy = [
      user('u1', null, 'hi'),
      assistant('a1', 'u1', 'hello'),
      label('l9', 'a1', 'u1', 'x'),
      user('n1', 'l9', 'new turn'),
    ];
    expect(forkPoint(copy, new Set(['u1', 'a1', 'zz']))).toBe('a1');
    expect(forkPoint(copy, new Set(['other']))).toBeNull();
    // The fork's own entries after the fork point: the re-made label is not one.
    expect(entriesAfter(copy, 'a1')).toBe(1);
  });
});

describe('fork rows', () => {
  it('a fork is a marked row right under the entry it was forked from, before that entry’s children', () => {
    const listed = rows(state([FORK_AT_AB]));
    const at = listed.findIndex((r) => r.id === 'aB');
    expect(listed[at + 1]).toEqual({
      id: 'fork:/s/fork-b.jsonl',
      text: '⑂ fork: Trying B again · 3 entries since',
      fork: '/s/fork-b.jsonl',
    });
    // Without forks the same tree has one row less and no fork row.
    expect(rows(state([])).length).toBe(listed.length - 1);
  });

  it('a fork point the filter hides: the row hangs on the nearest shown entry above; the all filter shows it at the fork point', () => {
    const shown = rows(state([FORK_AT_TA]));
    expect(shown.some((r) => r.id === 'tA')).toBe(false);
    const at = shown.findIndex((r) => r.fork === FORK_AT_TA.path);
    expect(shown[at - 1]!.id).toBe('uA');
    const all = rows(state([FORK_AT_TA], { filter: 'all' }));
    expect(all[all.findIndex((r) => r.fork === FORK_AT_TA.path) - 1]!.id).toBe('tA');
  });

  it('a fork’s title is session data: one line, no terminal sequences', () => {
    const listed = rows(state([{ ...FORK_AT_AB, title: 'evil\u001b[2J\nname', added: 1 }]));
    const text = listed.find((r) => r.fork !== undefined)!.text;
    expect(text).not.toMatch(/[\u0000-\u001f]/);
    expect(text).toMatch(/^⑂ fork: evil.*name · 1 entry since$/);
  });

  it('a fork whose fork point is not in this session is left out', () => {
    expect(indexWith([{ path: '/s/x.jsonl', title: 'x', entryId: 'nope', added: 0 }]).forks).toEqual([]);
  });

  it('the search never matches a fork row (another session’s text) and keeps it under its shown entry', () => {
    const index = indexWith([FORK_AT_AB]);
    const result = search(index, 'trying')!;
    expect(result.matches.length).toBe(0);
    const s = treeReducer(state([FORK_AT_AB]), key('F', 'F'));
    expect(s.query).toBe('F');
  });

  it('Enter on a fork row opens that session (leaving the screen); L on it refuses, saying why', () => {
    const s = cursorTo(state([FORK_AT_AB]), 'fork:/s/fork-b.jsonl');
    expect(selectedRow(s)?.fork?.path).toBe(FORK_AT_AB.path);
    const opened = treeReducer(s, key('return'));
    expect(opened.effects.map((e) => e.kind)).toEqual(['openSession']);
    expect(opened.effects[0]).toMatchObject({ kind: 'openSession', path: FORK_AT_AB.path });
    expect(opened.leaving).toBe(true);
    const labelled = treeReducer(s, key('L', 'L'));
    expect(labelled.mode.kind).toBe('browse');
    expect(labelled.status?.text).toMatch(/fork row is another session/);
  });

  it('Enter on an entry row still opens the action menu', () => {
    const s = treeReducer(cursorTo(state([FORK_AT_AB]), 'aB'), key('return'));
    expect(s.mode.kind).toBe('menu');
  });
});

describe('parent link', () => {
  it('P opens the parent on the fork point; without a parent it says so and stays', () => {
    const s = state([]);
    const none = treeReducer(s, key('P', 'P'));
    expect(none.effects).toEqual([]);
    expect(none.status?.text).toMatch(/not a fork/);
    const withParent = treeReducer(s, {
      type: 'parent',
      parent: { path: '/s/parent.jsonl', title: 'Parent', entryId: 'p7' },
    });
    const opened = treeReducer(withParent, key('P', 'P'));
    expect(opened.effects[0]).toMatchObject({ kind: 'openSession', path: '/s/parent.jsonl', focusId: 'p7' });
    expect(opened.leaving).toBe(true);
  });
});

describe('opening on an entry (focusId)', () => {
  it('puts the cursor on it and keeps the filter when the filter shows it', () => {
    const s = state([], { focusId: 'uB1' });
    expect(selectedRow(s)?.id).toBe('uB1');
    expect(s.filter).toBe('default');
    expect(s.anchorId).toBe('uB1');
    expect(s.status).toBeNull();
  });

  it('shows an entry the filter hides (the all filter) and says so', () => {
    const s = state([], { focusId: 'tA' });
    expect(selectedRow(s)?.id).toBe('tA');
    expect(s.filter).toBe('all');
    expect(s.status?.text).toBe('Filter all: the default filter hides this entry');
  });

  it('an id not in the session: the leaf as usual', () => {
    const s = state([], { focusId: 'gone' });
    expect(s.status).toBeNull();
    expect(selectedRow(s)?.id).toBe(selectedRow(state([]))?.id);
    expect(selectedRow(s)?.id).toBe('x1');
  });
});
