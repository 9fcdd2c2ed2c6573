/**
 * The text input's key vocabulary, shared by every field that edits text (the picker's search
 * and rename prompt, the tree's label and summary prompts): one list of bindings and one
 * command → edit table, so the same key does the same edit everywhere.
 */
import type { KeyBinding } from '../keymap/keymap.js';
import type { SharedActions } from '../keymap/pi-keybindings.js';
import type { TextInputAction } from './text-input.js';

export type TextEditCommand =
  | 'left'
  | 'right'
  | 'wordLeft'
  | 'wordRight'
  | 'backspace'
  | 'deleteForward'
  | 'deleteWord'
  | 'deleteWordForward'
  | 'clearToStart'
  | 'clearToEnd'
  | 'textStart'
  | 'textEnd';

export const TEXT_EDITS: Readonly<Record<TextEditCommand, TextInputAction>> = {
  left: { type: 'left' },
  right: { type: 'right' },
  wordLeft: { type: 'wordLeft' },
  wordRight: { type: 'wordRight' },
  backspace: { type: 'backspace' },
  deleteForward: { type: 'deleteForward' },
  deleteWord: { type: 'deleteWordLeft' },
  deleteWordForward: { type: 'deleteWordRight' },
  clearToStart: { type: 'clearToStart' },
  clearToEnd: { type: 'clearToEnd' },
  textStart: { type: 'home' },
  textEnd: { type: 'end' },
};

/** The edit a command stands for, if it is a text-edit command. */
export function textEditOf(command: string | undefined): TextInputAction | undefined {
  return command !== undefined && Object.hasOwn(TEXT_EDITS, command)
    ? TEXT_EDITS[command as TextEditCommand]
    : undefined;
}

/**
 * Cursor and delete bindings, on pi's editor keys (Home/End and Ctrl+A/Ctrl+E are in
 * lineEndBindings: a list that uses Home/End for its first and last row leaves them out). pi's
 * Ctrl+D forward delete is not here: pi's /resume gives Ctrl+D to deleting the session, and so do we.
 */
export function textEditBindings<M extends string>(when: M | readonly M[]): KeyBinding<TextEditCommand, M>[] {
  return [
    { command: 'left', keys: ['left', 'ctrl+b'], description: 'Move the text cursor left', when },
    { command: 'right', keys: ['right', 'ctrl+f'], description: 'Move the text cursor right', when },
    {
      command: 'wordLeft',
      keys: ['meta+left', 'ctrl+left', 'meta+b'],
      description: 'Move the text cursor one word left',
      when,
    },
    {
      command: 'wordRight',
      keys: ['meta+right', 'ctrl+right', 'meta+f'],
      description: 'Move the text cursor one word right',
      when,
    },
    { command: 'backspace', keys: ['backspace'], description: 'Delete the character before the text cursor', when },
    { command: 'deleteForward', keys: ['delete'], description: 'Delete the character under the text cursor', when },
    {
      command: 'deleteWord',
      keys: ['ctrl+w', 'meta+backspace'],
      description: 'Delete the word before the text cursor',
      when,
    },
    { command: 'deleteWordForward', keys: ['meta+d'], description: 'Delete the word after the text cursor', when },
    { command: 'clearToStart', keys: ['ctrl+u'], description: 'Delete to the start of the text', when },
    { command: 'clearToEnd', keys: ['ctrl+k'], description: 'Delete to the end of the text', when },
  ];
}

/** The text cursor to the start and the end of the line, on pi's keys. */
export function lineEndBindings<M extends string>(when: M | readonly M[]): KeyBinding<TextEditCommand, M>[] {
  return [
    { command: 'textStart', keys: ['home', 'ctrl+a'], description: 'Text cursor to the start', when },
    { command: 'textEnd', keys: ['end', 'ctrl+e'], description: 'Text cursor to the end', when },
  ];
}

/** pi's editor actions (tui.editor.*) that its text inputs share with ours (see pi-keybindings.ts). */
export const TEXT_EDIT_PI_ACTIONS: SharedActions<TextEditCommand> = {
  'tui.editor.cursorLeft': { commands: ['left'], piDefaults: ['left', 'ctrl+b'] },
  'tui.editor.cursorRight': { commands: ['right'], piDefaults: ['right', 'ctrl+f'] },
  'tui.editor.cursorWordLeft': { commands: ['wordLeft'], piDefaults: ['alt+left', 'ctrl+left', 'alt+b'] },
  'tui.editor.cursorWordRight': { commands: ['wordRight'], piDefaults: ['alt+right', 'ctrl+right', 'alt+f'] },
  'tui.editor.cursorLineStart': { commands: ['textStart'], piDefaults: ['home', 'ctrl+a'] },
  'tui.editor.cursorLineEnd': { commands: ['textEnd'], piDefaults: ['end', 'ctrl+e'] },
  'tui.editor.deleteCharBackward': { commands: ['backspace'], piDefaults: ['backspace'] },
  'tui.editor.deleteCharForward': { commands: ['deleteForward'], piDefaults: ['delete', 'ctrl+d'] },
  'tui.editor.deleteWordBackward': { commands: ['deleteWord'], piDefaults: ['ctrl+w', 'alt+backspace'] },
  'tui.editor.deleteWordForward': { commands: ['deleteWordForward'], piDefaults: ['alt+d', 'alt+delete'] },
  'tui.editor.deleteToLineStart': { commands: ['clearToStart'], piDefaults: ['ctrl+u'] },
  'tui.editor.deleteToLineEnd': { commands: ['clearToEnd'], piDefaults: ['ctrl+k'] },
};
