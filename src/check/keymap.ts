/**
 * The check view's keys as data (footer hints, the `?` help and the README table are generated
 * from them). The view is read-only: it moves, filters (secrets) and opens a tree; the wheel
 * scrolls and a click selects (src/check/mouse.ts).
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { SELECT_MOVE_PI_ACTIONS, type SharedActions } from '../keymap/pi-keybindings.js';
import { WHEEL_ROWS } from '../state/list-mouse.js';

export type CheckCommand =
  | 'up'
  | 'down'
  | 'pageUp'
  | 'pageDown'
  | 'first'
  | 'last'
  | 'open'
  | 'secrets'
  | 'help'
  | 'closeHelp'
  | 'back'
  | 'quit'
  // The mouse (src/check/mouse.ts).
  | 'wheelUp'
  | 'wheelDown'
  | 'click';

/** `list`: the audit (or its secrets filter); `help`: the key overlay. */
export type CheckKeyMode = 'list' | 'help';

export const CHECK_BINDINGS: readonly KeyBinding<CheckCommand, CheckKeyMode>[] = [
  { command: 'up', keys: ['up'], description: 'Previous file', hint: 'file', hintWith: 'down', when: 'list' },
  { command: 'down', keys: ['down'], description: 'Next file', when: 'list' },
  {
    command: 'pageUp',
    keys: ['pageup'],
    description: 'Scroll up a page',
    hint: 'scroll',
    hintWith: 'pageDown',
    when: 'list',
  },
  { command: 'pageDown', keys: ['pagedown', 'space'], description: 'Scroll down a page', when: 'list' },
  {
    command: 'open',
    keys: ['return'],
    description: 'Open the file’s tree (when pi can read it)',
    hint: 'open tree',
    when: 'list',
  },
  {
    command: 'secrets',
    keys: ['s'],
    description:
      'Secrets: only the sessions the secret scan finds credentials in, each finding’s line, entry and kind, masked (again: every file)',
    hint: 'secrets',
    when: 'list',
  },
  { command: 'help', keys: ['?'], description: 'Key help', hint: 'help', when: 'list' },
  {
    command: 'back',
    keys: ['escape', 'q'],
    description: 'Back to the session list, as it was',
    hint: 'back',
    when: 'list',
  },
  { command: 'first', keys: ['home'], description: 'First file', when: 'list' },
  { command: 'last', keys: ['end'], description: 'Last file', when: 'list' },
  // The mouse, as the terminal allows (on unless --no-mouse; Shift+drag still selects text in most terminals);
  // last, so that a short terminal's help, which does not scroll, shows the keys first.
  {
    command: 'wheelUp',
    keys: ['wheelup'],
    description: `Scroll up ${WHEEL_ROWS} lines (the first file on screen selected)`,
    when: 'list',
  },
  {
    command: 'wheelDown',
    keys: ['wheeldown'],
    description: `Scroll down ${WHEEL_ROWS} lines (the first file on screen selected)`,
    when: 'list',
  },
  {
    command: 'click',
    keys: ['click'],
    description: 'Select the file clicked; a double click opens its tree, as Enter does',
    when: 'list',
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

export const CHECK_MODE_TITLES: Readonly<Record<CheckKeyMode, string>> = { list: 'check view', help: 'help' };

/** pi's select-list actions (see pi-keybindings.ts) that move, open and leave in this list. */
export const CHECK_PI_ACTIONS: SharedActions<CheckCommand> = {
  ...SELECT_MOVE_PI_ACTIONS,
  'tui.select.confirm': { commands: ['open'], piDefaults: ['enter'] },
  'tui.select.cancel': { commands: ['back'], piDefaults: ['escape', 'ctrl+c'] },
};

/** The view's own commands pi has no action for, remappable in pi's keybindings.json like the picker's. */
export const CHECK_OWN_ACTIONS: SharedActions<CheckCommand> = {
  'pi-sessions.checkSecrets': { commands: ['secrets'], piDefaults: ['s'] },
};
