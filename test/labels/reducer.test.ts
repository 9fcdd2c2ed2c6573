/** The labels view's reducer: filtering, the cursor, opening, and the way back. */
import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { createTokenizer, textKey } from '../../src/keymap/tokenize.js';
import {
  initLabelsState,
  type LabelsAction,
  type LabelsState,
  labelsReducer,
  resumeLabelsState,
  selectedLabel,
} from '../../src/labels/reducer.js';
import type { LabelRow } from '../../src/labels/rows.js';

function row(n: number, label: string, text: string, title = `session ${n}`, cwd = '/home/u/proj'): LabelRow {
  return {
    label,
    time: `2026-02-0${n}T10:00:00.000Z`,
    entryId: `e${n}`,
    entryType: 'message',
    copiedFrom: null,
    text,
    session: { id: `s${n}`, name: null, title, path: `/s/${n}.jsonl`, cwd },
  };
}

const ROWS = [
  row(1, 'checkpoint', 'the parser works'),
  row(2, 'bug', 'crash in the lexer'),
  row(3, 'idea', 'cache the tokens', 'Tokenizer work', '/home/u/other'),
  row(4, 'bug', 'off by one in the parser'),
];

const key = (name: KeyName): LabelsAction => ({ type: 'key', name, text: '', paste: false });
const typed = (text: string): LabelsAction => ({ type: 'key', ...textKey(text) });

function loaded(listLines = 10): LabelsState {
  return labelsReducer(initLabelsState({ listLines }), { type: 'loaded', rows: ROWS, problems: [] });
}

function run(state: LabelsState, ...actions: LabelsAction[]): LabelsState {
  return actions.reduce(labelsReducer, state);
}

const shownLabels = (s: LabelsState): string[] => s.shown.map((i) => `${s.rows[i]!.label}:${s.rows[i]!.entryId}`);

describe('labels view reducer', () => {
  it('shows every row once loaded, cursor on the first', () => {
    const s = loaded();
    expect(s.loading).toBe(false);
    expect(shownLabels(s)).toEqual(['checkpoint:e1', 'bug:e2', 'idea:e3', 'bug:e4']);
    expect(selectedLabel(s)?.entryId).toBe('e1');
  });

  it('typing filters on every token: label, entry text, session title and cwd, case-insensitively', () => {
    expect(shownLabels(run(loaded(), typed('BUG')))).toEqual(['bug:e2', 'bug:e4']);
    expect(shownLabels(run(loaded(), typed('bug parser')))).toEqual(['bug:e4']);
    expect(shownLabels(run(loaded(), typed('tokenizer')))).toEqual(['idea:e3']);
    expect(shownLabels(run(loaded(), typed('other')))).toEqual(['idea:e3']);
    // Keys typed one by one mean the same as the burst.
    expect(shownLabels(run(loaded(), ...'bug parser'.split('').map(typed)))).toEqual(['bug:e4']);
    expect(shownLabels(run(loaded(), typed('nothing like it')))).toEqual([]);
  });

  it('the cursor stays on its row while the filter still shows it, else goes to the first', () => {
    const onFourth = run(loaded(), key('down'), key('down'), key('down'));
    expect(selectedLabel(onFourth)?.entryId).toBe('e4');
    expect(selectedLabel(run(onFourth, typed('bug')))?.entryId).toBe('e4');
    expect(selectedLabel(run(onFourth, typed('lexer')))?.entryId).toBe('e2');
  });

  it('↑↓, PgUp/PgDn, Home/End move within the shown rows and scroll the window', () => {
    const many = labelsReducer(initLabelsState({ listLines: 3 }), {
      type: 'loaded',
      rows: Array.from({ length: 20 }, (_, i) => row((i % 9) + 1, `l${i}`, `t${i}`)),
      problems: [],
    });
    const paged = run(many, key('pagedown'));
    expect(paged.cursor).toBe(2);
    const end = run(many, key('end'));
    expect(end.cursor).toBe(19);
    expect(end.offset).toBe(17);
    expect(run(end, key('home')).cursor).toBe(0);
    expect(run(many, key('up')).cursor).toBe(0);
    expect(run(end, key('down')).cursor).toBe(19);
  });

  it('Enter queues opening the selected label and stops taking keys', () => {
    const s = run(loaded(), key('down'), key('return'));
    expect(s.effects).toEqual([{ id: 1, kind: 'open', row: ROWS[1] }]);
    expect(s.leaving).toBe(true);
    // Back from the tree: the same filter and cursor, taking keys again.
    const back = resumeLabelsState(s);
    expect(back.leaving).toBe(false);
    expect(back.effects).toEqual([]);
    expect(selectedLabel(back)?.entryId).toBe('e2');
  });

  it('Esc clears the filter first, then goes back; Ctrl+C quits', () => {
    const filtered = run(loaded(), typed('bug'));
    const cleared = run(filtered, key('escape'));
    expect(cleared.filter.value).toBe('');
    expect(cleared.effects).toEqual([]);
    expect(shownLabels(cleared).length).toBe(4);
    expect(run(cleared, key('escape')).effects.map((e) => e.kind)).toEqual(['back']);
    expect(run(filtered, key('ctrl+c')).effects.map((e) => e.kind)).toEqual(['quit']);
  });

  it('? opens the help on an empty filter and is typed otherwise; any key closes the help', () => {
    const help = run(loaded(), typed('?'));
    expect(help.mode).toBe('help');
    expect(run(help, typed('x')).mode).toBe('browse');
    expect(run(loaded(), typed('b'), typed('?')).filter.value).toBe('b?');
  });

  it('a paste only types, Enter and all', () => {
    const s = run(loaded(), { type: 'key', name: undefined, text: 'bug\rparser', paste: true });
    expect(s.filter.value).toBe('bug parser');
    expect(s.effects).toEqual([]);
  });

  it('Enter with nothing shown does nothing', () => {
    const s = run(loaded(), typed('zzz'), key('return'));
    expect(s.effects).toEqual([]);
    expect(s.leaving).toBe(false);
  });

  it('Enter on a session gone since the list was drawn: its labels leave the list, the message stays until a key', () => {
    const entered = run(loaded(), key('down'), key('return'));
    expect(entered.leaving).toBe(true);
    const s = run(entered, { type: 'sessionGone', path: '/s/2.jsonl', message: '/s/2.jsonl was deleted or moved' });
    expect(s.leaving).toBe(false);
    expect(s.gone).toBe('/s/2.jsonl was deleted or moved');
    expect(shownLabels(s)).toEqual(['checkpoint:e1', 'idea:e3', 'bug:e4']);
    // The cursor on the row that took its place.
    expect(selectedLabel(s)?.entryId).toBe('e3');
    const keyed = run(s, key('down'));
    expect(keyed.gone).toBeUndefined();
    expect(selectedLabel(keyed)?.entryId).toBe('e4');
    // The filter still applies to what is left.
    expect(shownLabels(run(loaded(), typed('bug'), { type: 'sessionGone', path: '/s/2.jsonl', message: 'x' }))).toEqual(
      ['bug:e4'],
    );
  });
});

describe("the mouse (not this screen's: the picker, the tree, the stats and the check view take it)", () => {
  it('a click, a wheel notch or a release changes nothing, and never types into the filter', () => {
    const filtered = run(loaded(), typed('bug'));
    const reports = createTokenizer().push('\u001b[<0;3;5M\u001b[<0;3;5m\u001b[<65;3;5M\u001b[M #$');
    expect(reports.length).toBeGreaterThan(0);
    expect(run(filtered, ...reports.map((k): LabelsAction => ({ type: 'key', ...k })))).toBe(filtered);
  });
});
