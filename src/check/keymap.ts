/**
 * The check view's keys as data (footer hints, `?`-less: the view is read-only and has few keys;
 * the README table is generated from them too).
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { SELECT_MOVE_PI_ACTIONS, type SharedActions } from '../keymap/pi-keybindings.js';

export type CheckCommand = 'up' | 'down' | 'pageUp' | 'pageDown' | 'first' | 'last' | 'open' | 'back' | 'quit';

export type CheckKeyMode = 'list';

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
    command: 'back',
    keys: ['escape', 'q'],
    description: 'Back to the session list, as it was',
    hint: 'back',
    when: 'list',
  },
  { command: 'first', keys: ['home'], description: 'First file', when: 'list' },
  { command: 'last', keys: ['end'], description: 'Last file', when: 'list' },
  { command: 'quit', keys: ['ctrl+c'], description: 'Quit pi-sessions' },
];

export const CHECK_MODE_TITLES: Readonly<Record<CheckKeyMode, string>> = { list: 'check view' };

/** pi's select-list actions (see pi-keybindings.ts) that move, open and leave in this list. */
export const CHECK_PI_ACTIONS: SharedActions<CheckCommand> = {
  ...SELECT_MOVE_PI_ACTIONS,
  'tui.select.confirm': { commands: ['open'], piDefaults: ['enter'] },
  'tui.select.cancel': { commands: ['back'], piDefaults: ['escape', 'ctrl+c'] },
};
