/** The mouse on the stats screen: the reducer gets the tokenizer's keys, as the screen hands them over. */
import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { createTokenizer, key as namedKey, textKey } from '../../src/keymap/tokenize.js';
import { DOUBLE_CLICK_MS, WHEEL_ROWS } from '../../src/state/list-mouse.js';
import { lineText } from '../../src/stats/chart.js';
import { STATS_LIST_TOP, statsListArea } from '../../src/stats/mouse.js';
import { statsReducer } from '../../src/stats/reducer.js';
import {
  chartLinesOf,
  chartViewOf,
  initStatsState,
  type StatsAction,
  type StatsScreenState,
  selectedLine,
  statsKey,
} from '../../src/stats/screen-state.js';
import { report } from './make-report.js';

const NOW = 1_000_000;
const key = (name: KeyName): StatsAction => statsKey([...name].length === 1 ? textKey(name) : namedKey(name), NOW);
const sent = (bytes: string, nowMs = NOW): StatsAction[] =>
  createTokenizer()
    .push(bytes)
    .map((k) => statsKey(k, nowMs));
const click = (x: number, y: number, nowMs = NOW): StatsAction[] =>
  sent(`\u001b[<0;${x};${y}M\u001b[<0;${x};${y}m`, nowMs);
const wheel = (direction: 'up' | 'down', times = 1): StatsAction[] =>
  sent(`\u001b[<${direction === 'up' ? 64 : 65};5;5M`.repeat(times));
const run = (state: StatsScreenState, ...actions: (StatsAction | StatsAction[])[]): StatsScreenState =>
  actions.flat().reduce(statsReducer, state);
const times = <T>(n: number, item: T): T[] => Array.from({ length: n }, () => item);

/** 80 columns, ten chart lines on screen (terminal lines 2–11, under the title). */
const loaded = (): StatsScreenState =>
  statsReducer(initStatsState({ columns: 80, viewLines: 10 }), { type: 'loaded', report: report() });

/** Scrolled so that the line starting with `heading` is the top one (terminal line 2), nothing selected. */
function scrolledTo(heading: string): StatsScreenState {
  const state = loaded();
  const at = chartLinesOf(state).findIndex((l) => lineText(l).startsWith(heading));
  expect(at).toBeGreaterThan(0);
  return { ...state, offset: at };
}

const selectedText = (state: StatsScreenState): string => lineText(chartLinesOf(state)[selectedLine(state)!]!);

describe('the mouse on the stats screen', () => {
  it('the chart lines start under the title, as wide as the screen', () => {
    expect(statsListArea(loaded())).toEqual({ top: STATS_LIST_TOP, left: 1, width: 80, lines: 10 });
    expect(STATS_LIST_TOP).toBe(2);
  });

  it('a wheel notch does what Down or Up does, a few times: scrolls the charts, then steps through the rows', () => {
    const start = loaded();
    expect(run(start, wheel('down'))).toEqual(run(start, times(WHEEL_ROWS, key('down'))));
    expect(run(start, wheel('down')).offset).toBe(WHEEL_ROWS);
    // Far enough down the session rows come on screen and the wheel selects them, as Down does.
    const far = run(start, wheel('down', 20));
    expect(far).toEqual(run(start, times(20 * WHEEL_ROWS, key('down'))));
    expect(far.selected).toBeDefined();
    const sessions = scrolledTo('Per session');
    const stepped = run(sessions, wheel('down'));
    expect(stepped.offset).toBe(sessions.offset);
    expect(stepped.selected).toEqual({ path: '/s/9.jsonl' });
    expect(run(stepped, wheel('up'))).toEqual(run(stepped, times(WHEEL_ROWS, key('up'))));
    // At the top nothing moves.
    expect(run(start, wheel('up'))).toBe(start);
  });

  it('a click selects the session row under it, counting the scroll; a branch row, its branch', () => {
    const sessions = scrolledTo('Per session');
    // The heading on line 2, the costliest session on line 3, the third on line 5.
    expect(run(sessions, click(10, 3)).selected).toEqual({ path: '/s/11.jsonl' });
    const third = run(sessions, click(70, 5));
    expect(third.selected).toEqual({ path: '/s/9.jsonl' });
    expect(selectedText(third)).toMatch(/^task 9 /);
    expect(third.offset).toBe(sessions.offset);
    const branches = scrolledTo('Abandoned branches');
    const branch = run(branches, click(10, 3)).selected;
    expect(branch).toEqual(chartViewOf(branches).targets[branches.offset + 1]);
    expect(branch?.leafId).toBeDefined();
  });

  it('a click on a line that names no row, on the title, the key line or past the edge does nothing', () => {
    const sessions = scrolledTo('Per session');
    for (const [x, y] of [
      [10, 2], // the heading
      [10, 1], // the title
      [10, 12], // the key line
      [81, 3], // past the right edge
    ] as const)
      expect(run(sessions, click(x, y)), `${x},${y}`).toBe(sessions);
    // The charts at the top name no session.
    const top = loaded();
    for (let y = 2; y <= 11; y++) expect(run(top, click(10, y)).selected, `line ${y}`).toBeUndefined();
  });

  it('a double click opens the row’s tree, as Enter does; one click, two apart, or two rows never do', () => {
    const sessions = scrolledTo('Per session');
    const enter = run(sessions, click(10, 4), key('return'));
    const double = run(sessions, click(10, 4, NOW), click(10, 4, NOW + 200));
    expect(double.leaving).toEqual(enter.leaving);
    expect(double.leaving).toEqual({ kind: 'openTree', target: { path: '/s/10.jsonl' } });
    expect(run(sessions, click(10, 4)).leaving).toBeUndefined();
    expect(run(sessions, click(10, 4, NOW), click(10, 4, NOW + DOUBLE_CLICK_MS + 1)).leaving).toBeUndefined();
    const twoRows = run(sessions, click(10, 4, NOW), click(10, 5, NOW + 100));
    expect(twoRows.leaving).toBeUndefined();
    expect(twoRows.selected).toEqual({ path: '/s/9.jsonl' });
    // Both clicks in one read (a fast double click) are a double click too.
    expect(run(sessions, sent('\u001b[<0;3;4M\u001b[<0;3;4m\u001b[<0;3;4M\u001b[<0;3;4m')).leaving).toEqual(
      enter.leaving,
    );
    // A click on a session, then on one of its branches: two rows (all the lines on a tall screen).
    const tall = statsReducer(loaded(), { type: 'resize', columns: 80, viewLines: 80 });
    const { targets } = chartViewOf(tall);
    const branchAt = targets.findIndex((t) => t?.leafId !== undefined);
    const sessionAt = targets.findIndex(
      (t) => t !== undefined && t.leafId === undefined && t.path === targets[branchAt]!.path,
    );
    expect(sessionAt).toBeGreaterThan(0);
    const y = (line: number): number => STATS_LIST_TOP + line;
    expect(run(tall, click(10, y(sessionAt), NOW), click(10, y(branchAt), NOW + 100)).leaving).toBeUndefined();
    expect(run(tall, click(10, y(branchAt), NOW), click(10, y(branchAt), NOW + 100)).leaving).toEqual({
      kind: 'openTree',
      target: targets[branchAt],
    });
  });

  it('a click without a clock is never a double click', () => {
    const sessions = scrolledTo('Per session');
    const clickNoClock = createTokenizer()
      .push('\u001b[<0;3;4M')
      .map((k) => statsKey(k));
    expect(run(sessions, clickNoClock, clickNoClock).leaving).toBeUndefined();
    expect(run(sessions, clickNoClock).selected).toEqual({ path: '/s/10.jsonl' });
  });

  it('the help, the screen reading, and a screen being left ignore the mouse', () => {
    const help = run(loaded(), key('?'));
    expect(run(help, wheel('down'), click(10, 3), click(10, 3))).toBe(help);
    const reading = initStatsState({ columns: 80, viewLines: 10 });
    expect(run(reading, wheel('down'), click(10, 3))).toBe(reading);
    const left = run(scrolledTo('Per session'), key('escape'));
    expect(run(left, click(10, 3))).toBe(left);
  });
});
