/**
 * The stats screen's state (pure): the report once read, the timeline period, the scroll offset
 * of the chart lines, the selected session or branch row, and whether the screen is being left
 * (back, quit, or to open the selected row's tree); and the moves its keys and the mouse share.
 * Keys resolve through its bindings in ./reducer.ts; the component reads the report and acts on
 * `leaving`.
 */

import type { KeyName } from '../keymap/key-name.js';
import type { KeyBinding } from '../keymap/keymap.js';
import type { Keypress, MouseEvent } from '../keymap/tokenize.js';
import type { LastClick } from '../state/list-mouse.js';
import type { StatsReport } from '../store/index.js';
import type { ChartLine } from './chart.js';
import { STATS_BINDINGS, type StatsCommand, type StatsKeyMode } from './keymap.js';
import { PERIODS, type Period, type ReportView, type RowTarget, reportView } from './report-lines.js';

export type StatsLoad =
  | { kind: 'loading' }
  | { kind: 'loaded'; report: StatsReport }
  | { kind: 'failed'; message: string };

export interface StatsScreenState {
  load: StatsLoad;
  by: Period;
  mode: StatsKeyMode;
  /** First chart line on screen. */
  offset: number;
  columns: number;
  /** Chart lines that fit on the screen. */
  viewLines: number;
  /** The keymap keys resolve through: STATS_BINDINGS with pi's keybindings.json applied. */
  bindings: readonly KeyBinding<StatsCommand, StatsKeyMode>[];
  /**
   * The session or branch row Up/Down moved to (always on screen), by what it names rather than
   * its line, so a new period or width keeps it.
   */
  selected?: RowTarget;
  /** The latest click on a row (src/stats/mouse.ts): a second one on the same row soon after is a double click. */
  lastClick?: LastClick;
  /** Set once: the screen takes no more keys. */
  leaving?: StatsLeave;
}

/** Why the screen is being left: `openTree` opens the selected row's session, at its branch's leaf. */
export type StatsLeave = { kind: 'back' } | { kind: 'quit' } | { kind: 'openTree'; target: RowTarget };

export type StatsAction =
  /**
   * A key from the tokenizer, a mouse event among them (`mouse`: where). Only a click needs the
   * time (is it a double click?); a key without one is never a double click.
   */
  | { type: 'key'; name: KeyName | undefined; mouse?: MouseEvent; nowMs?: number }
  | { type: 'loaded'; report: StatsReport }
  | { type: 'failed'; message: string }
  | { type: 'resize'; columns: number; viewLines: number };

/** `bindings`: default STATS_BINDINGS (pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
export function initStatsState(
  size: { columns: number; viewLines: number },
  bindings: readonly KeyBinding<StatsCommand, StatsKeyMode>[] = STATS_BINDINGS,
): StatsScreenState {
  return {
    load: { kind: 'loading' },
    by: 'day',
    mode: 'view',
    offset: 0,
    columns: size.columns,
    viewLines: Math.max(1, size.viewLines),
    bindings,
  };
}

/**
 * Columns left of every chart line for the cursor mark (`› ` on the selected row): reverse video
 * alone would not show under NO_COLOR.
 */
export const CURSOR_GUTTER = 2;

// The view of the last (report, width, period): every key and every render asks for it.
let cached: { report: StatsReport; columns: number; by: Period; view: ReportView } | undefined;
const NOTHING: ReportView = { lines: [], targets: [] };

/** The chart lines of the loaded report at the screen's width, with the row each names (empty before it is loaded). */
export function chartViewOf(state: StatsScreenState): ReportView {
  if (state.load.kind !== 'loaded') return NOTHING;
  const { report } = state.load;
  if (cached?.report !== report || cached.columns !== state.columns || cached.by !== state.by) {
    cached = {
      report,
      columns: state.columns,
      by: state.by,
      // Every period has its bar on screen: the lines scroll.
      view: reportView(report, { columns: state.columns - CURSOR_GUTTER, by: state.by, periods: 'all' }),
    };
  }
  return cached.view;
}

/** The chart lines of the loaded report at the screen's width ([] before it is loaded). */
export const chartLinesOf = (state: StatsScreenState): ChartLine[] => chartViewOf(state).lines;

const sameTarget = (a: RowTarget | undefined, b: RowTarget | undefined): boolean =>
  a !== undefined && b !== undefined && a.path === b.path && a.leafId === b.leafId;

/** The line the selected row is on, when it is on screen. */
export function selectedLine(state: StatsScreenState): number | undefined {
  if (state.selected === undefined) return undefined;
  const at = chartViewOf(state).targets.findIndex((t) => sameTarget(t, state.selected));
  return at >= state.offset && at < state.offset + state.viewLines ? at : undefined;
}

/** The state with a selection only while its row is on screen: Enter never opens a row out of sight. */
export function keepSelectionInView(state: StatsScreenState): StatsScreenState {
  if (state.selected === undefined || selectedLine(state) !== undefined) return state;
  const { selected: _dropped, ...rest } = state;
  return rest;
}

export function scrollTo(state: StatsScreenState, offset: number): StatsScreenState {
  const count = chartLinesOf(state).length;
  const next = Math.max(0, Math.min(offset, Math.max(0, count - state.viewLines)));
  return keepSelectionInView(next === state.offset ? state : { ...state, offset: next });
}

/**
 * Down (`step` 1) or Up (-1): to the next openable row on screen past the selected one (from the
 * top or bottom edge when none is selected), else a line's scroll, as in a page with links.
 */
export function moveOrScroll(state: StatsScreenState, step: 1 | -1): StatsScreenState {
  const { targets } = chartViewOf(state);
  const first = state.offset;
  const last = Math.min(targets.length, state.offset + state.viewLines) - 1;
  const from = selectedLine(state) ?? (step === 1 ? first - 1 : last + 1);
  for (let i = from + step; i >= first && i <= last; i += step) {
    const target = targets[i];
    if (target) return { ...state, selected: target };
  }
  return scrollTo(state, state.offset + step);
}

export function cyclePeriod(state: StatsScreenState, step: 1 | -1): StatsScreenState {
  const by = PERIODS[(PERIODS.indexOf(state.by) + step + PERIODS.length) % PERIODS.length]!;
  return scrollTo({ ...state, by }, state.offset);
}

/** Enter: leave to open the selected row's tree, when a row is selected (and so on screen). */
export function openSelected(state: StatsScreenState): StatsScreenState {
  if (state.selected === undefined || selectedLine(state) === undefined) return state;
  return { ...state, leaving: { kind: 'openTree', target: state.selected } };
}

/** The state handed back by `openTree`, to resume where it was (the report is not read again). */
export function resumeStatsState(state: StatsScreenState): StatsScreenState {
  const { leaving: _left, ...rest } = state;
  return rest;
}

/** The reducer's action for a key from the tokenizer, read at `nowMs`. */
export function statsKey(keypress: Keypress, nowMs?: number): StatsAction {
  const { name, mouse } = keypress;
  return { type: 'key', name, ...(mouse ? { mouse } : {}), ...(nowMs === undefined ? {} : { nowMs }) };
}

export function statsTakesKeys(state: StatsScreenState): boolean {
  return state.leaving === undefined;
}
