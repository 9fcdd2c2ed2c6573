/**
 * "Resume from here" on the session a running pi is in (`--print-entry`, the pi extension): the
 * tree hands the entry back for pi's own move (pi's /tree: at a user message, to its parent with
 * the text in pi's editor) and writes nothing; the summary variant is written as everywhere else.
 */
import { describe, expect, test } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { key as namedKey, textKey } from '../../src/keymap/tokenize.js';
import { buildIndex } from '../../src/tree/flatten.js';
import { TREE_BINDINGS } from '../../src/tree/keymap.js';
import {
  initTreeState,
  selectedId,
  type TreeAction,
  type TreeState,
  treeKey,
  treeReducer,
} from '../../src/tree/reducer.js';
import { openTree, type TreeScreenState, treeScreenReducer } from '../../src/tree/screen.js';
import { takesKeys } from '../../src/tree/state.js';
import { piSample, sessionOf, treeOf } from './helpers.js';

const start = (handsBackResume: boolean): TreeState =>
  initTreeState({ index: buildIndex(treeOf(piSample())), listHeight: 10, width: 80, handsBackResume });
const run = (state: TreeState, ...actions: TreeAction[]): TreeState => actions.reduce(treeReducer, state);
const key = (name: KeyName): TreeAction => treeKey([...name].length === 1 ? textKey(name) : namedKey(name));
const effectsOf = (state: TreeState): unknown[] => state.effects.map(({ id: _id, ...effect }) => effect);

describe('Resume from here inside pi', () => {
  test('Enter, Enter on a user message hands it back and leaves; nothing is written', () => {
    const onUser = run(start(true), key('home'), key('down'), key('down'));
    expect(selectedId(onUser)).toBe('uA');
    const chosen = run(onUser, key('return'), key('return'));
    expect(effectsOf(chosen)).toEqual([{ kind: 'handBack', entryId: 'uA' }]);
    expect(takesKeys(chosen)).toBe(false);
    expect(chosen.index.leaf).toBe(onUser.index.leaf);
    // Outside pi the same keys write the move (the file's leaf goes to the message's parent).
    const outside = run(start(false), key('home'), key('down'), key('down'), key('return'), key('return'));
    expect(effectsOf(outside)).toEqual([{ kind: 'branch', entryId: 'uA' }]);
    expect(takesKeys(outside)).toBe(true);
  });

  test("on the file's leaf too: pi's leaf may be elsewhere (its /tree moves it without writing), so pi decides", () => {
    const s = start(true);
    expect(selectedId(s)).toBe('x1');
    expect(effectsOf(run(s, key('return'), key('return')))).toEqual([{ kind: 'handBack', entryId: 'x1' }]);
    expect(run(start(false), key('return'), key('return')).status?.text).toMatch(/Already at this point/);
  });

  test('a write still running refuses it, as it refuses another write', () => {
    const busy = { ...run(start(true), key('home')), busy: true };
    const refused = run(busy, key('return'), key('return'));
    expect(effectsOf(refused)).toEqual([]);
    expect(refused.status?.text).toBe('A write is still running');
    expect(takesKeys(refused)).toBe(true);
  });

  test('"Resume from here with a summary" is written, as outside pi', () => {
    const s = run(start(true), key('home'), key('down'), key('return'), { type: 'menu', action: 'resumeSummary' });
    expect(s.mode.kind).toBe('summaryInput');
    const submitted = run(s, { type: 'submitSummary', value: 'tried A' });
    expect(effectsOf(submitted)).toEqual([{ kind: 'branchSummary', entryId: 'a1', summary: 'tried A' }]);
  });

  test('the screen opens its tree in that mode when started in it (the app: pi\u2019s own session only)', () => {
    const opening = (handsBackResume: boolean): TreeScreenState =>
      openTree({
        path: '/s/a.jsonl',
        listHeight: 10,
        width: 80,
        filter: 'default',
        bindings: TREE_BINDINGS,
        home: '/home/me',
        here: '/home/me',
        live: false,
        findsLineage: false,
        handsBackResume,
      });
    const session = sessionOf(piSample(), '/s/a.jsonl');
    for (const mode of [true, false]) {
      const opened = treeScreenReducer(opening(mode), { type: 'loaded', session });
      expect(opened.kind === 'open' && opened.nav.handsBackResume).toBe(mode);
    }
  });
});
