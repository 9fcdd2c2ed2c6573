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
  | 'deleteWord'
  | 'clearToStart'
  | 'textStart'
  | 'textEnd';

export const TEXT_EDITS: Readonly<Record<TextEditCommand, TextInputAction>> = {
  left: { type: 'left' },
  right: { type: 'right' },
  wordLeft: { type: 'wordLeft' },
  wordRight: { type: 'wordRight' },
  backspace: { type: 'backspace' },
  deleteWord: { type: 'deleteWordLeft' },
  clearToStart: { type: 'clearToStart' },
  textStart: { type: 'home' },
  textEnd: { type: 'end' },
};

/** The edit a command stands for, if it is a text-edit command. */
export function textEditOf(command: string | undefined): TextInputAction | undefined {
  return command !== undefined && Object.hasOwn(TEXT_EDITS, command)
    ? TEXT_EDITS[command as TextEditCommand]
    : undefined;
}

/** Cursor and delete bindings (Home/End are left to the screen: lists use them too). */
export function textEditBindings<M extends string>(when: M | readonly M[]): KeyBinding<TextEditCommand, M>[] {
  return [
    { command: 'left', keys: ['left'], description: 'Move the text cursor left', when },
    { command: 'right', keys: ['right'], description: 'Move the text cursor right', when },
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
    {
      command: 'deleteWord',
      keys: ['ctrl+w', 'meta+backspace'],
      description: 'Delete the word before the text cursor',
      when,
    },
    { command: 'clearToStart', keys: ['ctrl+u'], description: 'Delete to the start of the text', when },
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
  'tui.editor.deleteWordBackward': { commands: ['deleteWord'], piDefaults: ['ctrl+w', 'alt+backspace'] },
  'tui.editor.deleteToLineStart': { commands: ['clearToStart'], piDefaults: ['ctrl+u'] },
};
