/**
 * The tree's `?` help scrolls with the detail view's keys (↑↓, PgUp/PgDn/Space, Home/End) through
 * the window the overlay draws (src/keymap/help-view.ts); Esc, q, ? and Enter close it, and any
 * other key leaves it open.
 */
import { type HelpScroll, helpLines, scrollHelp } from '../keymap/help-view.js';
import { TREE_MODE_TITLES, type TreeCommand } from './keymap.js';
import type { TreeState } from './state.js';

/** The help overlay is the list area plus the two lines above it, with no footer of its own (the hint line is below). */
export function treeHelpHeight(listHeight: number): number {
  return listHeight + 2;
}

const HELP_SCROLLS: Partial<Record<TreeCommand, HelpScroll>> = {
  detailUp: 'up',
  detailDown: 'down',
  detailPageUp: 'pageUp',
  detailPageDown: 'pageDown',
  detailHome: 'first',
  detailEnd: 'last',
};

/** A scroll key in the help (undefined when `command` is not one). */
export function scrollTreeHelp(state: TreeState, command: TreeCommand): TreeState | undefined {
  const scroll = HELP_SCROLLS[command];
  if (scroll === undefined) return undefined;
  // The keys in effect (pi's keybindings.json applied): the overlay draws the same lines.
  const lines = helpLines(state.bindings, TREE_MODE_TITLES, [], state.width).length;
  const helpOffset = scrollHelp(state.helpOffset, scroll, lines, treeHelpHeight(state.listHeight), false);
  return helpOffset === state.helpOffset ? state : { ...state, helpOffset };
}
