/** Opening the tree on a picker hit (hit-focus.ts + initTreeState's focus): search, filter, cursor. */
import { describe, expect, it } from 'vitest';
import { hitSearchHintBindings, treeFocus } from '../../src/tree/hit-focus.js';
import { TREE_BINDINGS } from '../../src/tree/keymap.js';
import { initTreeState, selectedId, treeReducer } from '../../src/tree/reducer.js';
import { buildIndex } from '../../src/tree/tree-index.js';
import { piSample, treeOf } from './helpers.js';

const index = buildIndex(treeOf(piSample()));
const open = (focus: ReturnType<typeof treeFocus>) =>
  initTreeState({
    index,
    listHeight: 10,
    width: 80,
    ...(focus ? { focus, filter: focus.filter } : {}),
  });
const id = (n: number | undefined): string | undefined => (n === undefined ? undefined : index.entries[n]!.id);

describe('treeFocus', () => {
  it('picks the first matching entry at the hit’s place', () => {
    expect(id(treeFocus(index, { text: 'approach', place: 'abandoned' }, 'default')?.node)).toBe('uB');
    expect(id(treeFocus(index, { text: 'approach', place: 'compacted' }, 'default')?.node)).toBe('uA');
    expect(id(treeFocus(index, { text: 'approach', place: 'active' }, 'default')?.node)).toBe('aA');
    expect(treeFocus(index, { text: 'nowhere at all', place: 'active' }, 'default')).toBeUndefined();
  });

  it('searches for all the picker query’s words where one entry holds them all, else for the hit’s text', () => {
    // `approach please`: the user message "approach A please" holds both.
    const both = treeFocus(index, { text: 'approach', place: 'compacted', words: 'approach please' }, 'default');
    expect(both?.query).toBe('approach please');
    expect(id(both?.node)).toBe('uA');
    // No entry holds both "approach" and "great": the hit's word, as before.
    const apart = treeFocus(index, { text: 'approach', place: 'abandoned', words: 'approach great' }, 'default');
    expect(apart?.query).toBe('approach');
    expect(id(apart?.node)).toBe('uB');
  });

  it('a summary hit names its entry: the cursor goes there when the search finds it, else by place as before', () => {
    // uA and uB both hold "approach": the named entry wins over the first at the place.
    expect(id(treeFocus(index, { text: 'approach', place: 'compacted', entryId: 'uB' }, 'default')?.node)).toBe('uB');
    // An entry the search does not find (or no entry of this session) does not move the cursor there.
    expect(id(treeFocus(index, { text: 'approach', place: 'compacted', entryId: 'u1' }, 'default')?.node)).toBe('uA');
    expect(id(treeFocus(index, { text: 'approach', place: 'compacted', entryId: 'gone' }, 'default')?.node)).toBe('uA');
  });

  it('keeps the preferred filter when it shows the entry, else picks one that does and says so', () => {
    expect(treeFocus(index, { text: 'approach', place: 'abandoned' }, 'user-only')).toMatchObject({
      filter: 'user-only',
    });
    expect(treeFocus(index, { text: 'for approach b', place: 'abandoned' }, 'user-only')).toMatchObject({
      filter: 'default',
      note: 'Filter default: the user-only filter hides this hit',
    });
  });

  it('opens the tree with the search pre-filled and the cursor on the entry', () => {
    const state = open(treeFocus(index, { text: 'for approach b', place: 'abandoned' }, 'user-only'));
    expect(state.query).toBe('for approach b');
    expect(selectedId(state)).toBe('aB');
    expect(state.filter).toBe('default');
    expect(state.search?.isMatch[index.numOf.get('aB')!]).toBe(1);
    expect(state.status).toEqual({ text: 'Filter default: the user-only filter hides this hit', tone: 'info' });
    expect(selectedId(open(treeFocus(index, { text: 'approach', place: 'compacted' }, 'default')))).toBe('uA');
  });

  it('Esc goes straight back while the hit’s search stands; once edited, Esc clears it first', () => {
    const opened = open(treeFocus(index, { text: 'approach', place: 'abandoned' }, 'default'));
    const esc = { type: 'key', name: 'escape', text: '', paste: false } as const;
    expect(treeReducer(opened, esc).effects.map((e) => e.kind)).toEqual(['back']);
    const edited = treeReducer(opened, { type: 'key', name: 'x', text: 'x', paste: false });
    const cleared = treeReducer(edited, esc);
    expect(cleared.query).toBe('');
    expect(cleared.effects).toEqual([]);
    expect(treeReducer(cleared, esc).effects.map((e) => e.kind)).toEqual(['back']);
  });

  it('the footer says Esc goes back while the hit’s search stands, and clear once it is edited', () => {
    const escHint = (query: string) =>
      hitSearchHintBindings(TREE_BINDINGS, query, 'zebra')
        .filter((b) => b.command === 'escape' && b.when === 'search')
        .map((b) => b.hint);
    expect(escHint('zebra')).toEqual(['back']);
    expect(escHint('zebr')).toEqual(['clear']);
  });
});
