import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { createTokenizer, type Keypress } from '../../src/keymap/tokenize.js';
import { pickerListArea } from '../../src/picker/mouse.js';
import {
  initialPickerState,
  keyAction,
  type PickerAction,
  type PickerState,
  pickerReducer,
  selectedRow,
} from '../../src/picker/reducer.js';
import { DOUBLE_CLICK_MS, WHEEL_ROWS } from '../../src/state/list-mouse.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const key = (name: KeyName, text = [...name].length === 1 ? name : ''): PickerAction => ({
  type: 'key',
  name,
  text,
  paste: false,
  nowMs: NOW,
});
/** What the terminal sends, through the real tokenizer, as the screen hands it to the reducer. */
const sent = (bytes: string, nowMs = NOW): PickerAction[] =>
  createTokenizer()
    .push(bytes)
    .map((k: Keypress) => keyAction(k, nowMs));
const click = (x: number, y: number, nowMs = NOW): PickerAction[] =>
  sent(`\u001b[<0;${x};${y}M\u001b[<0;${x};${y}m`, nowMs);
const wheel = (direction: 'up' | 'down', times = 1): PickerAction[] =>
  sent(`\u001b[<${direction === 'up' ? 64 : 65};5;5M`.repeat(times));
const run = (state: PickerState, ...actions: (PickerAction | PickerAction[])[]): PickerState =>
  actions.flat().reduce(pickerReducer, state);

const sessions = Array.from({ length: 30 }, (_, i) =>
  makeInfo({ path: `/s/${String(i).padStart(2, '0')}.jsonl`, ageMs: (i + 1) * DAY }),
);

/** 100×13: the header's two lines, nine list lines (terminal lines 3–11), the footer. */
function loaded(over: { columns?: number; printMode?: boolean } = {}): PickerState {
  const s = initialPickerState({ printMode: over.printMode ?? false, columns: over.columns ?? 100, rows: 13 });
  return run(s, { type: 'loadDone', scope: 'cwd', searched: '/sessions/x', skipped: 0, sessions });
}

describe('the mouse in the picker', () => {
  it('the list starts under the header: line 3, as wide as the list column', () => {
    expect(pickerListArea(loaded())).toEqual({ top: 3, left: 1, width: 100, lines: 9 });
  });

  it('the wheel moves the cursor a few rows, the viewport following, clamped at the ends', () => {
    let s = run(loaded(), wheel('down'));
    expect(s.cursor).toBe(WHEEL_ROWS);
    s = run(s, wheel('down', 3));
    expect([s.cursor, s.offset]).toEqual([12, 4]);
    s = run(s, wheel('up'));
    expect(s.cursor).toBe(9);
    s = run(s, wheel('down', 20));
    expect(s.cursor).toBe(29);
    expect(run(s, wheel('down'))).toBe(s);
    expect(run(s, wheel('up', 20)).cursor).toBe(0);
  });

  it('a click selects the row under it, counting the scroll', () => {
    const s = run(loaded(), click(10, 3 + 4));
    expect(selectedRow(s)?.info.path).toBe('/s/04.jsonl');
    expect(s.effects.filter((e) => e.kind === 'checkResume')).toEqual([]);
    const scrolled = run(loaded(), key('pagedown'), key('pagedown'));
    expect(scrolled.offset).toBeGreaterThan(0);
    const picked = run(scrolled, click(1, 3));
    expect(picked.cursor).toBe(scrolled.offset);
  });

  it('a click on the header, the footer or the preview pane does nothing', () => {
    const s = loaded();
    for (const y of [1, 2, 12, 13]) expect(run(s, click(5, y)), `line ${y}`).toBe(s);
    const withPreview = run(loaded({ columns: 140 }), key('ctrl+o'));
    const area = pickerListArea(withPreview);
    expect(area.width).toBeLessThan(140);
    expect(run(withPreview, click(area.width + 3, 5))).toBe(withPreview);
    expect(run(withPreview, click(area.width, 5)).cursor).toBe(2);
  });

  it('a double click resumes the session, as Enter does; one click, or two apart, never does', () => {
    const enter = run(loaded(), click(3, 6), key('return'));
    const double = run(loaded(), click(3, 6, NOW), click(3, 6, NOW + 200));
    expect(double.effects).toEqual(enter.effects);
    expect(double.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/03.jsonl' });
    expect(double.leaving).toBe(true);
    const slow = run(loaded(), click(3, 6, NOW), click(3, 6, NOW + DOUBLE_CLICK_MS + 1));
    expect(slow.effects.some((e) => e.kind === 'checkResume')).toBe(false);
    const twoRows = run(loaded(), click(3, 6, NOW), click(3, 7, NOW + 100));
    expect(twoRows.effects.some((e) => e.kind === 'checkResume')).toBe(false);
    expect(selectedRow(twoRows)?.info.path).toBe('/s/04.jsonl');
    // Both clicks in one read (a fast double click) are a double click too.
    const joined = run(loaded(), sent('\u001b[<0;3;6M\u001b[<0;3;6m\u001b[<0;3;6M\u001b[<0;3;6m'));
    expect(joined.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/03.jsonl' });
  });

  it('with --print and marked sessions a double click prints them all, as Enter does', () => {
    const marked = run(loaded({ printMode: true }), key('insert'), key('insert'));
    const double = run(marked, click(3, 8, NOW), click(3, 8, NOW + 100));
    expect(double.effects.at(-1)).toMatchObject({ kind: 'exit', exit: { kind: 'printMarked' } });
  });

  it('never types into the search: a query stays as it was', () => {
    const typed = run(loaded(), key('t'), key('e'), key('x'), key('t'));
    const after = run(typed, click(3, 4), wheel('down'), sent('\u001b[<0;3;4m\u001b[M #$'));
    expect(after.query).toEqual(typed.query);
  });

  it('is ignored in prompts, and never acts on the list behind them', () => {
    const prompt = run(loaded(), key('ctrl+d'));
    expect(prompt.mode.kind).toBe('confirm');
    expect(run(prompt, wheel('down'), click(3, 6), click(3, 6))).toBe(prompt);
    const rename = run(loaded(), key('ctrl+r'));
    expect(run(rename, wheel('down'), click(3, 6))).toBe(rename);
  });

  it('moves the choice in a menu (the export formats), one per notch, and clicks do nothing there', () => {
    const menu = run(loaded(), key('meta+e'));
    expect(menu.mode).toMatchObject({ kind: 'export', step: { kind: 'format', menu: { index: 0 } } });
    const moved = run(menu, wheel('down'));
    expect(moved.mode).toMatchObject({ step: { menu: { index: 1 } } });
    expect(moved.cursor).toBe(menu.cursor);
    expect(run(moved, wheel('up')).mode).toMatchObject({ step: { menu: { index: 0 } } });
    expect(run(menu, click(3, 6))).toBe(menu);
  });

  it('scrolls the help a few lines, and the list behind it stays', () => {
    const help = run(loaded(), key('?'));
    expect(help.mode).toEqual({ kind: 'help', offset: 0 });
    const down = run(help, wheel('down'));
    expect(down.mode).toEqual({ kind: 'help', offset: WHEEL_ROWS });
    expect(down.cursor).toBe(help.cursor);
    expect(run(down, wheel('up')).mode).toEqual({ kind: 'help', offset: 0 });
    expect(run(help, click(3, 6))).toBe(help);
  });
});
