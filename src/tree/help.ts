/**
 * The tree's `?` help scrolls with the detail view's keys (↑↓, PgUp/PgDn/Space, Home/End) through
 * the window the overlay draws (src/keymap/help-view.ts); Esc, q, ? and Enter close it, and any
 * other key leaves it open.
 */
import { type HelpScroll, type HelpSection, helpLines, scrollHelp } from '../keymap/help-view.js';
import { TREE_MODE_TITLES, type TreeCommand } from './keymap.js';
import type { TreeState } from './state.js';

/** After the keys: where the filters part from pi's /tree, and what the counter's note means. */
export const TREE_FILTER_HELP: readonly HelpSection[] = [
  {
    title: "Filters and pi's /tree",
    rows: [
      {
        keys: 'default, no tools',
        description:
          "pi's rules: every message but bookkeeping entries (no tools: and no tool results); an assistant turn without text only when it is the leaf or ended in an error",
      },
      {
        keys: 'all, labeled',
        description:
          'also the usage entries and the assistant turns without text (tool calls only) that pi hides in every filter, so that every entry and every label can be reached',
      },
      {
        keys: '┆ retained, ⑂ fork',
        description:
          'rows pi does not draw: the messages a compaction keeps (pi 1.6.0 drops them) and the sessions forked from this one',
      },
      {
        keys: '· pi shows N',
        description: "in the counter, when it differs: how many rows pi's /tree draws with this filter (no search)",
      },
    ],
  },
];

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
  const lines = helpLines(state.bindings, TREE_MODE_TITLES, TREE_FILTER_HELP, state.width).length;
  if (state.mode.kind !== 'help') return undefined;
  const offset = scrollHelp(state.mode.offset, scroll, lines, treeHelpHeight(state.listHeight), false);
  return offset === state.mode.offset ? state : { ...state, mode: { kind: 'help', offset } };
}
