/**
 * The picker's `?` help: it scrolls (↑↓, PgUp/PgDn, Home/End) through the same window the overlay
 * draws (src/keymap/help-view.ts), Esc / ? / q / Enter close it, and any other key leaves it open
 * (its last lines say how to scroll and how to close, so nothing happens silently).
 */
import { type HelpLine, type HelpScroll, helpLines, scrollHelp } from '../keymap/help-view.js';
import { PICKER_MODE_TITLES, type PickerCommand } from './keymap.js';
import { computeLayout } from './layout.js';
import type { PickerMode } from './mode.js';
import { SEARCH_HELP } from './query-syntax.js';
import type { PickerState } from './state.js';

/** The overlay's content (the keys in effect, then the search syntax); the screen draws the same lines. */
export function pickerHelpLines(state: Pick<PickerState, 'bindings' | 'size'>): HelpLine[] {
  return helpLines(state.bindings, PICKER_MODE_TITLES, SEARCH_HELP, state.size.columns);
}

const SCROLLS: Partial<Record<PickerCommand, HelpScroll>> = {
  up: 'up',
  down: 'down',
  pageUp: 'pageUp',
  pageDown: 'pageDown',
  first: 'first',
  last: 'last',
};

export function helpCommand(
  state: PickerState,
  mode: Extract<PickerMode, { kind: 'help' }>,
  command: PickerCommand | undefined,
): PickerState {
  if (command === 'closeHelp') return { ...state, mode: { kind: 'browse' } };
  const scroll = command === undefined ? undefined : SCROLLS[command];
  if (scroll === undefined) return state;
  // The overlay fills the screen's root box and has a footer line.
  const height = computeLayout(state.size, false).height;
  const offset = scrollHelp(mode.offset, scroll, pickerHelpLines(state).length, height, true);
  return offset === mode.offset ? state : { ...state, mode: { kind: 'help', offset } };
}
