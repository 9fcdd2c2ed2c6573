/**
 * The labels view's key bindings as data (the reducer resolves keys through them; the footer
 * hints, the `?` help and the README table are generated from them). Typing filters the list,
 * so every command is a control key, an arrow or Enter/Esc; `?` opens the help only while the
 * filter is empty (the reducer decides, as in the picker).
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { SELECT_MOVE_PI_ACTIONS, type SharedActions } from '../keymap/pi-keybindings.js';
import { TEXT_EDIT_PI_ACTIONS, type TextEditCommand, textEditBindings } from '../state/text-input-keys.js';
import type { ListMove } from '../state/viewport.js';

export type LabelsCommand =
  // Moving in the list (src/state/viewport.ts's listMoveTarget).
  | ListMove
  | 'open'
  | 'escape'
  | 'help'
  | 'closeHelp'
  | 'quit'
  // The text field's edits (src/state/text-input-keys.ts).
  | TextEditCommand;

/** `browse`: the list and its filter; `help`: the key overlay. */
export type LabelsKeyMode = 'browse' | 'help';

export const LABELS_BINDINGS: readonly KeyBinding<LabelsCommand, LabelsKeyMode>[] = [
  {
    command: 'open',
    keys: ['return'],
    description: "Open the session's tree on the labelled entry",
    hint: 'open in tree',
    when: 'browse',
  },
  { command: 'up', keys: ['up'], description: 'Move up', hint: 'move', hintWith: 'down', when: 'browse' },
  { command: 'down', keys: ['down'], description: 'Move down', when: 'browse' },
  { command: 'pageUp', keys: ['pageup'], description: 'Page up', when: 'browse' },
  { command: 'pageDown', keys: ['pagedown'], description: 'Page down', when: 'browse' },
  { command: 'first', keys: ['home'], description: 'First label', when: 'browse' },
  { command: 'last', keys: ['end'], description: 'Last label', when: 'browse' },
  {
    command: 'help',
    keys: ['?'],
    description: 'Key help (when the filter is empty; otherwise ? is typed)',
    hint: 'help',
    when: 'browse',
  },
  {
    command: 'escape',
    keys: ['escape'],
    description: 'Clear the filter; with an empty filter, back to the picker',
    hint: 'back',
    when: 'browse',
  },
  ...textEditBindings('browse'),
  {
    command: 'closeHelp',
    keys: ['escape', '?', 'q', 'return'],
    description: 'Close the help',
    hint: 'close',
    when: 'help',
  },
  { command: 'quit', keys: ['ctrl+c'], description: 'Quit pi-sessions' },
];

export const LABELS_MODE_TITLES: Readonly<Record<LabelsKeyMode, string>> = {
  browse: 'list and filter',
  help: 'help',
};

// Home/End move in the list here (first/last label), so the filter has no line-start/end keys to remap.
const {
  'tui.editor.cursorLineStart': _lineStart,
  'tui.editor.cursorLineEnd': _lineEnd,
  ...FILTER_EDIT_PI_ACTIONS
} = TEXT_EDIT_PI_ACTIONS;

/** pi's select-list actions and its editor's keys for the filter field (see pi-keybindings.ts). */
export const LABELS_PI_ACTIONS: SharedActions<LabelsCommand> = {
  ...FILTER_EDIT_PI_ACTIONS,
  ...SELECT_MOVE_PI_ACTIONS,
  'tui.select.confirm': { commands: ['open'], piDefaults: ['enter'] },
  'tui.select.cancel': { commands: ['escape'], piDefaults: ['escape', 'ctrl+c'] },
};
