/**
 * The stats screen's state (pure): the report once read, the timeline period, the scroll offset
 * of the chart lines, and whether the screen is being left. Keys resolve through its bindings;
 * the component reads the report and acts on `leaving`.
 */
import { type KeyBinding, resolveCommand } from '../keymap/keymap.js';
import type { Keypress } from '../keymap/tokenize.js';
import { pageStep } from '../state/viewport.js';
import type { StatsReport } from '../store/index.js';
import type { ChartLine } from './chart.js';
import { STATS_BINDINGS, type StatsCommand, type StatsKeyMode } from './keymap.js';
import { PERIODS, type Period, reportLines } from './report-lines.js';

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
  bindings: readonly KeyBinding<StatsCommand>[];
  /** Set once: the screen takes no more keys. */
  leaving?: 'back' | 'quit';
}

export type StatsAction =
  | { type: 'key'; name: string | undefined }
  | { type: 'loaded'; report: StatsReport }
  | { type: 'failed'; message: string }
  | { type: 'resize'; columns: number; viewLines: number };

/** `bindings`: default STATS_BINDINGS (pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
export function initStatsState(
  size: { columns: number; viewLines: number },
  bindings: readonly KeyBinding<StatsCommand>[] = STATS_BINDINGS,
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

// The lines of the last (report, width, period): every key and every render asks for them.
let cached: { report: StatsReport; columns: number; by: Period; lines: ChartLine[] } | undefined;

/** The chart lines of the loaded report at the screen's width ([] before it is loaded). */
export function chartLinesOf(state: StatsScreenState): ChartLine[] {
  if (state.load.kind !== 'loaded') return [];
  const { report } = state.load;
  if (cached?.report !== report || cached.columns !== state.columns || cached.by !== state.by) {
    cached = {
      report,
      columns: state.columns,
      by: state.by,
      // Every period has its bar on screen: the lines scroll.
      lines: reportLines(report, { columns: state.columns, by: state.by, periods: 'all' }),
    };
  }
  return cached.lines;
}

function scrollTo(state: StatsScreenState, offset: number): StatsScreenState {
  const count = chartLinesOf(state).length;
  const next = Math.max(0, Math.min(offset, Math.max(0, count - state.viewLines)));
  return next === state.offset ? state : { ...state, offset: next };
}

function cyclePeriod(state: StatsScreenState, step: 1 | -1): StatsScreenState {
  const by = PERIODS[(PERIODS.indexOf(state.by) + step + PERIODS.length) % PERIODS.length]!;
  return scrollTo({ ...state, by }, state.offset);
}

export function statsKey(keypress: Keypress): StatsAction {
  return { type: 'key', name: keypress.name };
}

export function statsTakesKeys(state: StatsScreenState): boolean {
  return state.leaving === undefined;
}

export function statsReducer(state: StatsScreenState, action: StatsAction): StatsScreenState {
  switch (action.type) {
    case 'loaded':
      return { ...state, load: { kind: 'loaded', report: action.report }, offset: 0 };
    case 'failed':
      return { ...state, load: { kind: 'failed', message: action.message } };
    case 'resize': {
      const resized = { ...state, columns: action.columns, viewLines: Math.max(1, action.viewLines) };
      // Narrower means more lines (labels cut, not wrapped, so usually the same count): keep the offset in range.
      return scrollTo(resized, state.offset);
    }
    case 'key':
      return keyCommand(state, action.name);
  }
}

function keyCommand(state: StatsScreenState, name: string | undefined): StatsScreenState {
  if (state.leaving) return state;
  const command = resolveCommand(state.bindings, name, state.mode);
  if (command === 'quit') return { ...state, leaving: 'quit' };
  if (state.mode === 'help') return command === 'closeHelp' ? { ...state, mode: 'view' } : state;
  const page = pageStep(state.viewLines);
  switch (command) {
    case 'back':
      return { ...state, leaving: 'back' };
    case 'help':
      return { ...state, mode: 'help' };
    case 'up':
      return scrollTo(state, state.offset - 1);
    case 'down':
      return scrollTo(state, state.offset + 1);
    case 'pageUp':
      return scrollTo(state, state.offset - page);
    case 'pageDown':
      return scrollTo(state, state.offset + page);
    case 'top':
      return scrollTo(state, 0);
    case 'bottom':
      return scrollTo(state, Number.MAX_SAFE_INTEGER);
    case 'period':
      return cyclePeriod(state, 1);
    case 'periodBack':
      return cyclePeriod(state, -1);
    default:
      return state;
  }
}
