/**
 * The stats screen's key bindings as data (footer hints, `?` help and the README table come from
 * them). Nothing is typed on this screen, so letters can be keys: j/k and Space as in a pager, q
 * and Esc back to the session list. Up/Down also step through the session and branch rows on
 * screen, and Enter opens the selected one's tree. The wheel and a click do the same
 * (src/stats/mouse.ts).
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { SELECT_MOVE_PI_ACTIONS, type SharedActions } from '../keymap/pi-keybindings.js';
import { WHEEL_ROWS } from '../state/list-mouse.js';

export type StatsCommand =
  | 'up'
  | 'down'
  | 'pageUp'
  | 'pageDown'
  | 'top'
  | 'bottom'
  | 'period'
  | 'periodBack'
  | 'open'
  | 'help'
  | 'back'
  | 'closeHelp'
  | 'quit'
  // The mouse (src/stats/mouse.ts).
  | 'wheelUp'
  | 'wheelDown'
  | 'click';

/** `view` (the charts) or `help`. */
export type StatsKeyMode = 'view' | 'help';

export const STATS_BINDINGS: readonly KeyBinding<StatsCommand, StatsKeyMode>[] = [
  {
    command: 'up',
    keys: ['up', 'k'],
    description: 'Previous session or branch row on screen, else scroll up',
    hint: 'scroll',
    hintWith: 'down',
    when: 'view',
  },
  {
    command: 'down',
    keys: ['down', 'j'],
    description: 'Next session or branch row on screen, else scroll down',
    when: 'view',
  },
  {
    command: 'open',
    keys: ['return'],
    description: 'Open the selected session’s tree, at the selected branch',
    hint: 'open tree',
    when: 'view',
  },
  {
    command: 'period',
    keys: ['tab'],
    description: 'Timeline per day → week → month',
    hint: 'day/week/month',
    when: 'view',
  },
  { command: 'periodBack', keys: ['shift+tab'], description: 'Timeline period, backwards', when: 'view' },
  { command: 'pageUp', keys: ['pageup'], description: 'Page up', when: 'view' },
  { command: 'pageDown', keys: ['pagedown', 'space'], description: 'Page down', hint: 'page', when: 'view' },
  { command: 'top', keys: ['home', 'g'], description: 'Top', when: 'view' },
  { command: 'bottom', keys: ['end', 'G'], description: 'Bottom', when: 'view' },
  { command: 'help', keys: ['?'], description: 'Show all keys', hint: 'help', when: 'view' },
  {
    command: 'back',
    keys: ['escape', 'q'],
    description: 'Back to the session list, as it was',
    hint: 'back',
    when: 'view',
  },
  // The mouse, as the terminal allows (on unless --no-mouse; Shift+drag still selects text in most terminals);
  // last, so that a short terminal's help, which does not scroll, shows the keys first.
  {
    command: 'wheelUp',
    keys: ['wheelup'],
    description: `As Up ${WHEEL_ROWS} times (the rows on screen, else scroll)`,
    when: 'view',
  },
  {
    command: 'wheelDown',
    keys: ['wheeldown'],
    description: `As Down ${WHEEL_ROWS} times (the rows on screen, else scroll)`,
    when: 'view',
  },
  {
    command: 'click',
    keys: ['click'],
    description: 'Select the row clicked; a double click opens its tree, as Enter does',
    when: 'view',
  },
  {
    command: 'closeHelp',
    keys: ['escape', '?', 'q', 'return'],
    description: 'Close the help',
    hint: 'close',
    when: 'help',
  },
  { command: 'quit', keys: ['ctrl+c'], description: 'Quit pi-sessions' },
];

export const STATS_MODE_TITLES: Readonly<Record<StatsKeyMode, string>> = {
  view: 'usage stats',
  help: 'help',
};

/**
 * pi's select-list actions (see pi-keybindings.ts) that scroll this screen, open a row and leave;
 * a remap replaces the binding's keys, j/k and q included, as pi's rule replaces an action's defaults.
 */
export const STATS_PI_ACTIONS: SharedActions<StatsCommand> = {
  ...SELECT_MOVE_PI_ACTIONS,
  'tui.select.confirm': { commands: ['open'], piDefaults: ['enter'] },
  'tui.select.cancel': { commands: ['back'], piDefaults: ['escape', 'ctrl+c'] },
};
