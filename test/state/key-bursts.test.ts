/**
 * Both screens' reducers take every key from the tokenizer: a run of typed text means exactly what
 * the same characters typed one by one mean (wherever some printable keys are commands), a paste
 * only ever types, menus and prompts are driven by keys through the keymap, and a screen that is
 * being left takes no more keys.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Keypress, key, textKey } from '../../src/keymap/tokenize.js';
import {
  initialPickerState,
  keyAction,
  type PickerState,
  pickerReducer,
  takesKeys as pickerTakesKeys,
} from '../../src/picker/reducer.js';
import { buildIndex } from '../../src/tree/flatten.js';
import {
  initTreeState,
  selectedId,
  type TreeState,
  treeKey,
  treeReducer,
  takesKeys as treeTakesKeys,
} from '../../src/tree/reducer.js';
import { inputOf, menuOf } from '../../src/tree/state.js';
import { DAY, makeInfo, NOW } from '../picker/make-info.js';
import { piSample, treeOf } from '../tree/helpers.js';

const paste = (text: string): Keypress => ({ name: undefined, text, paste: true });

function picker(): PickerState {
  const sessions = Array.from({ length: 6 }, (_, i) =>
    makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY, allMessagesText: `text ${i} about ?` }),
  );
  const s = initialPickerState({ printMode: false, columns: 100, rows: 20, scope: 'cwd' });
  return pickerReducer(s, { type: 'loadDone', scope: 'cwd', searched: '/s', skipped: 0, sessions });
}
const pickerKeys = (state: PickerState, keys: Keypress[]): PickerState =>
  keys.reduce((s, k) => pickerReducer(s, keyAction(k, NOW)), state);

function tree(): TreeState {
  return initTreeState({
    index: buildIndex(treeOf(piSample())),
    listHeight: 10,
    width: 80,
  });
}
const treeKeys = (state: TreeState, keys: Keypress[]): TreeState =>
  keys.reduce((s, k) => treeReducer(s, treeKey(k)), state);

/** Keys where consecutive single characters are merged into runs, as the tokenizer delivers one read. */
function merged(keys: Keypress[]): Keypress[] {
  const out: Keypress[] = [];
  for (const k of keys) {
    const last = out.at(-1);
    if (!k.paste && k.text !== '' && last && !last.paste && last.text !== '')
      out[out.length - 1] = textKey(last.text + k.text);
    else out.push(k);
  }
  return out;
}

const ALPHABET: Keypress[] = [
  textKey('a'),
  textKey('x'),
  textKey('L'),
  textKey('T'),
  textKey('?'),
  textKey('q'),
  textKey('j'),
  textKey(' '),
  key('return'),
  key('escape'),
  key('down'),
  key('up'),
  key('backspace'),
  key('ctrl+w'),
  key('ctrl+t'),
  key('ctrl+r'),
];

describe('picker: keys through the reducer', () => {
  it('a run starting with ? on an empty search opens the help, and the rest is handled there', () => {
    const s = pickerKeys(picker(), [textKey('?qx')]);
    expect(s.mode.kind).toBe('browse');
    expect(s.query.value).toBe('x');
    expect(pickerKeys(picker(), [textKey('?x')]).mode.kind).toBe('help');
  });

  it('? inside a run after other text is typed', () => {
    expect(pickerKeys(picker(), [textKey('a?b')]).query.value).toBe('a?b');
  });

  it('a paste types, cleaned, and never opens, quits or confirms', () => {
    const s = pickerKeys(picker(), [paste('text 1\r\u0003\u001b')]);
    expect(s.query.value).toBe('text 1 ');
    expect(s.effects.filter((e) => e.kind !== 'load')).toEqual([]);
    expect(pickerTakesKeys(s)).toBe(true);
    const confirming = pickerKeys(picker(), [key('ctrl+d')]);
    expect(confirming.mode.kind).toBe('confirm');
    expect(pickerKeys(confirming, [paste('y\r')]).mode.kind).toBe('confirm');
  });

  it('Enter and Ctrl+C leave the screen: no more keys are taken', () => {
    expect(pickerTakesKeys(pickerKeys(picker(), [key('return')]))).toBe(false);
    expect(pickerTakesKeys(pickerKeys(picker(), [key('ctrl+c')]))).toBe(false);
    expect(pickerTakesKeys(pickerKeys(picker(), [key('down'), textKey('abc')]))).toBe(true);
  });

  it('property: any key sequence means the same with text merged into runs', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 14 }), (keys) => {
        const one = pickerKeys(picker(), keys);
        const runs = pickerKeys(picker(), merged(keys));
        expect(runs.mode).toEqual(one.mode);
        expect(runs.query).toEqual(one.query);
        expect(runs.cursor).toBe(one.cursor);
        expect(runs.effects).toEqual(one.effects);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('tree: keys through the reducer, menus and prompts included', () => {
  it('the menu highlight moves with the keys and Enter does the highlighted action', () => {
    const open = treeKeys(tree(), [key('return')]);
    expect(open.mode.kind).toBe('menu');
    expect(menuOf(open)?.index).toBe(0);
    const moved = treeKeys(open, [key('down'), textKey('j'), key('down')]);
    expect(menuOf(moved)?.index).toBe(3);
    expect(menuOf(moved)?.items[3]?.label).toBe('Label…');
    expect(treeKeys(moved, [key('return')]).mode.kind).toBe('labelInput');
    // Wraps at the ends; k moves up; Esc closes.
    expect(menuOf(treeKeys(open, [key('up')]))?.index).toBe(menuOf(open)!.items.length - 1);
    expect(menuOf(treeKeys(open, [textKey('k'), textKey('k')]))?.index).toBe(menuOf(open)!.items.length - 2);
    const closed = treeKeys(open, [key('escape')]);
    expect(closed.mode.kind).toBe('browse');
    expect(menuOf(closed)).toBeNull();
  });

  it('the label prompt edits through the keymap: runs, 40 Backspaces, word delete, Home', () => {
    const s = treeKeys(tree(), [key('home'), key('down'), key('down'), textKey('L')]);
    expect(s.mode.kind).toBe('labelInput');
    expect(inputOf(s)?.value).toBe('checkpoint');
    const emptied = treeKeys(
      s,
      Array.from({ length: 40 }, () => key('backspace')),
    );
    expect(inputOf(emptied)).toEqual({ value: '', cursor: 0 });
    const typed = treeKeys(emptied, [textKey('new label'), key('ctrl+w'), textKey('name'), key('home'), textKey('>')]);
    expect(inputOf(typed)?.value).toBe('>new name');
    const saved = treeKeys(typed, [key('return')]);
    expect(saved.mode.kind).toBe('browse');
    expect(saved.effects.map((e) => e.kind)).toEqual(['label']);
    expect(treeKeys(typed, [key('escape')]).effects).toEqual([]);
  });

  it('a paste into the prompt is text (cleaned) and never submits', () => {
    const s = treeKeys(tree(), [key('home'), textKey('L'), key('ctrl+u')]);
    const pasted = treeKeys(s, [paste('one\rtwo\u001b[A')]);
    expect(pasted.mode.kind).toBe('labelInput');
    expect(inputOf(pasted)?.value).toBe('one two[A');
    expect(pasted.effects).toEqual([]);
  });

  it('in the list a run starting with L labels, and the rest types into the label', () => {
    const s = treeKeys(tree(), [key('home'), textKey('Lab')]);
    expect(s.mode.kind).toBe('labelInput');
    expect(inputOf(s)?.value).toBe('ab');
    const searched = treeKeys(tree(), [textKey('xL')]);
    expect(searched.query).toBe('xL');
    expect(searched.mode.kind).toBe('browse');
  });

  it('a paste in the list searches (cleaned); in the help and the detail view it is ignored', () => {
    expect(treeKeys(tree(), [paste('Great\r')]).query).toBe('Great ');
    const help = treeKeys(tree(), [textKey('?')]);
    expect(help.mode.kind).toBe('help');
    expect(treeKeys(help, [paste('q')]).mode.kind).toBe('help');
  });

  const helpOffsetOf = (state: TreeState): number | undefined =>
    state.mode.kind === 'help' ? state.mode.offset : undefined;
  it('the tree help scrolls with the detail keys, other keys leave it open, q and ? close it', () => {
    const help = treeKeys(tree(), [textKey('?')]);
    expect(help.mode).toEqual({ kind: 'help', offset: 0 });
    const scrolled = treeKeys(help, [key('down'), key('down'), key('pagedown')]);
    expect(helpOffsetOf(scrolled)).toBeGreaterThan(2);
    expect(treeKeys(scrolled, [textKey('x'), key('tab')])).toBe(scrolled);
    const end = treeKeys(help, [key('end')]);
    expect(treeKeys(end, [key('down')])).toBe(end);
    expect(helpOffsetOf(treeKeys(end, [key('home')]))).toBe(0);
    expect(treeKeys(scrolled, [textKey('q')]).mode.kind).toBe('browse');
    expect(treeKeys(scrolled, [textKey('?')]).mode.kind).toBe('browse');
    // Opened again, it starts at the top.
    expect(helpOffsetOf(treeKeys(treeKeys(scrolled, [textKey('q')]), [textKey('?')]))).toBe(0);
  });

  it('Esc with no search leaves the screen; a failed open in pi takes keys again', () => {
    const back = treeKeys(tree(), [key('escape')]);
    expect(treeTakesKeys(back)).toBe(false);
    const opening = treeKeys(tree(), [
      key('home'),
      key('return'),
      ...Array.from({ length: 6 }, () => key('down')),
      key('return'),
    ]);
    // Open in pi checks first (no write yet) and holds the keys that follow in the same read.
    expect(opening.effects.map((e) => e.kind)).toEqual(['checkOpen']);
    expect(treeTakesKeys(opening)).toBe(false);
    const refused = treeReducer(opening, {
      type: 'openChecked',
      target: { kind: 'entry', id: 'x' },
      piFound: false,
      cwdExists: true,
      path: '/s.jsonl',
      sessionCwd: '/p',
      here: '/h',
    });
    expect(treeTakesKeys(refused)).toBe(true);
    expect(refused.effects.map((e) => e.kind)).toEqual(['checkOpen']);
    const confirmed = treeReducer(opening, {
      type: 'openChecked',
      target: { kind: 'entry', id: 'x' },
      piFound: true,
      cwdExists: true,
      path: '/s.jsonl',
      sessionCwd: '/p',
      here: '/h',
    });
    expect(confirmed.effects.map((e) => e.kind)).toEqual(['checkOpen', 'openInPi']);
    expect(treeTakesKeys(confirmed)).toBe(false);
    expect(treeTakesKeys(treeReducer(confirmed, { type: 'failed', message: 'no' }))).toBe(true);
  });

  it('property: any key sequence means the same with text merged into runs', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 14 }), (keys) => {
        const one = treeKeys(tree(), keys);
        const runs = treeKeys(tree(), merged(keys));
        expect(runs.mode).toEqual(one.mode);
        expect(runs.query).toBe(one.query);
        expect(inputOf(runs)).toEqual(inputOf(one));
        expect(menuOf(runs)?.index).toBe(menuOf(one)?.index);
        expect(selectedId(runs)).toBe(selectedId(one));
        expect(runs.effects).toEqual(one.effects);
        expect(runs.filter).toBe(one.filter);
        expect(runs.labelTimes).toBe(one.labelTimes);
      }),
      { numRuns: 1000 },
    );
  });
});
