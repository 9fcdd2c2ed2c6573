/** The mouse in the check view: the reducer gets the tokenizer's keys, as the screen hands them over. */
import { describe, expect, it } from 'vitest';
import { CHECK_LIST_TOP, checkListArea } from '../../src/check/mouse.js';
import {
  type CheckAction,
  type CheckState,
  checkKey,
  checkReducer,
  initialCheckState,
} from '../../src/check/reducer.js';
import type { CheckLine, CheckView } from '../../src/check/view.js';
import type { KeyName } from '../../src/keymap/keymap.js';
import { createTokenizer, key as namedKey, textKey } from '../../src/keymap/tokenize.js';
import { DOUBLE_CLICK_MS, WHEEL_ROWS } from '../../src/state/list-mouse.js';

const NOW = 1_000_000;
const key = (name: KeyName): CheckAction => checkKey([...name].length === 1 ? textKey(name) : namedKey(name), NOW);
const sent = (bytes: string, nowMs = NOW): CheckAction[] =>
  createTokenizer()
    .push(bytes)
    .map((k) => checkKey(k, nowMs));
const click = (x: number, y: number, nowMs = NOW): CheckAction[] =>
  sent(`\u001b[<0;${x};${y}M\u001b[<0;${x};${y}m`, nowMs);
const wheel = (direction: 'up' | 'down', times = 1): CheckAction[] =>
  sent(`\u001b[<${direction === 'up' ? 64 : 65};5;5M`.repeat(times));
const run = (state: CheckState, ...actions: (CheckAction | CheckAction[])[]): CheckState =>
  actions.flat().reduce(checkReducer, state);

/**
 * The summary on line 0, then three files, each after a blank line: a.jsonl on lines 2–6,
 * b.jsonl (pi cannot read it) on 8–12, c.jsonl on 14–20; 21 lines in all.
 */
function view(): CheckView {
  const lines: CheckLine[] = [{ text: '3 problems in 2 of 3 files', tone: 'heading' }];
  const files = (
    [
      ['a', 5, true],
      ['b', 5, false],
      ['c', 7, true],
    ] as const
  ).map(([name, size, openable]) => {
    lines.push({ text: '', tone: 'plain' });
    const first = lines.length;
    for (let i = 0; i < size; i++) lines.push({ text: `${name} line ${i}`, tone: i === 0 ? 'file' : 'dim' });
    return { path: `/s/${name}.jsonl`, first, last: lines.length - 1, openable };
  });
  return { lines, files };
}

/** 80 columns, ten lines on screen (terminal lines 2–11, under the title), the audit done. */
const audited = (): CheckState => ({ ...initialCheckState(10, undefined, 80), progress: undefined, view: view() });
/** The terminal line a view line is drawn on, with the view scrolled to `offset`. */
const lineY = (line: number, offset = 0): number => CHECK_LIST_TOP + line - offset;

describe('the mouse in the check view', () => {
  it('the lines start under the title, as wide as the screen', () => {
    expect(checkListArea(audited())).toEqual({ top: CHECK_LIST_TOP, left: 1, width: 80, lines: 10 });
    expect(CHECK_LIST_TOP).toBe(2);
  });

  it('the wheel scrolls a few lines, the cursor following to the first file starting on screen, as a page does', () => {
    const start = audited();
    const down = run(start, wheel('down'));
    expect(down.offset).toBe(WHEEL_ROWS);
    // a.jsonl starts on line 2, above the screen now: b.jsonl is the first file starting on it.
    expect(down.cursor).toBe(1);
    const further = run(down, wheel('down', 2));
    expect([further.offset, further.cursor]).toEqual([3 * WHEEL_ROWS, 2]);
    const back = run(further, wheel('up', 2));
    expect([back.offset, back.cursor]).toEqual([WHEEL_ROWS, 1]);
    expect(run(back, wheel('up')).offset).toBe(0);
  });

  it('at either end a notch does nothing: the cursor stays where the keys put it', () => {
    const top = run(audited(), click(10, lineY(8)));
    expect([top.cursor, top.offset]).toEqual([1, 0]);
    expect(run(top, wheel('up'))).toBe(top);
    const bottom = run(audited(), key('end'));
    expect(bottom.cursor).toBe(2);
    expect(bottom.offset).toBe(21 - 10);
    expect(run(bottom, wheel('down'))).toBe(bottom);
  });

  it('a click on any line of a file selects it without scrolling; on the summary, a blank line or the chrome nothing', () => {
    const start = audited();
    const b = run(start, click(10, lineY(8)));
    expect([b.cursor, b.offset]).toEqual([1, 0]);
    expect(run(start, click(10, lineY(4))).cursor).toBe(0);
    expect(run(b, click(79, lineY(2))).cursor).toBe(0);
    for (const y of [lineY(0), lineY(1), lineY(7), 1, 12, 13]) expect(run(b, click(10, y)), `line ${y}`).toBe(b);
    expect(run(b, click(81, lineY(2))), 'past the right edge').toBe(b);
    // Scrolled: the lines on screen are the view's from the offset on.
    const scrolled = run(start, wheel('down', 3));
    expect(scrolled.offset).toBe(9);
    expect(run(scrolled, click(10, lineY(15, 9))).cursor).toBe(2);
  });

  it('a click on a file whose first line is above the screen brings that line to the top; a second click there is a double click', () => {
    const scrolled = run(audited(), wheel('down', 3));
    expect(scrolled.offset).toBe(9);
    // Line 11 of b.jsonl (its first is 8) is on terminal line 4.
    const y = lineY(11, 9);
    const b = run(scrolled, click(10, y, NOW));
    expect([b.cursor, b.offset]).toEqual([1, 8]);
    expect(run(scrolled, click(10, y, NOW), click(10, y, NOW + 100)).status).toBe(
      'pi cannot read this file as a session: there is no tree to open',
    );
  });

  it('a double click opens the file’s tree, as Enter does, or says why it cannot; one click, two apart, or two files never do', () => {
    const start = audited();
    const enter = run(start, click(10, lineY(3)), key('return'));
    const double = run(start, click(10, lineY(3), NOW), click(10, lineY(5), NOW + 200));
    expect(double.effects).toEqual(enter.effects);
    expect(double.effects).toMatchObject([{ kind: 'open', path: '/s/a.jsonl' }]);
    expect(double.leaving).toBe(true);
    expect(run(double, click(10, lineY(3)))).toBe(double);
    const refused = run(start, click(10, lineY(9), NOW), click(10, lineY(9), NOW + 100));
    expect(refused.status).toBe(run(start, click(10, lineY(9)), key('return')).status);
    expect(refused.effects).toEqual([]);
    expect(run(start, click(10, lineY(3))).effects).toEqual([]);
    expect(run(start, click(10, lineY(3), NOW), click(10, lineY(3), NOW + DOUBLE_CLICK_MS + 1)).effects).toEqual([]);
    const twoFiles = run(start, click(10, lineY(3), NOW), click(10, lineY(9), NOW + 100));
    expect([twoFiles.cursor, twoFiles.effects]).toEqual([1, []]);
    // Both clicks in one read (a fast double click) are a double click too; without a clock, never.
    expect(run(start, sent('\u001b[<0;3;4M\u001b[<0;3;4m\u001b[<0;3;4M\u001b[<0;3;4m')).effects).toEqual(enter.effects);
    const noClock = createTokenizer()
      .push('\u001b[<0;3;4M')
      .map((k) => checkKey(k));
    expect(run(start, noClock, noClock).effects).toEqual([]);
  });

  it('leaves the help open (any key closes it, the mouse is no key) and never types; a status clears on a click', () => {
    const help = run(audited(), key('?'));
    expect(help.mode).toBe('help');
    expect(run(help, wheel('down'), click(10, lineY(3)), sent('\u001b[<0;3;4m'))).toBe(help);
    expect(run(help, key('x')).mode).toBe('list');
    const refused = run(audited(), click(10, lineY(9)), key('return'));
    expect(refused.status).toBeDefined();
    expect(run(refused, click(10, lineY(3))).status).toBeUndefined();
  });
});
