/**
 * Pure reducer for a single-line text input with a cursor (search boxes, label prompts).
 *
 * - `cursor` is a UTF-16 index into `value` that always sits on a code point boundary: moving and
 *   deleting go by whole code points, so a surrogate pair (emoji, rare CJK) is never split.
 * - Inserted text is made single-line and terminal-safe: CR/LF/TAB become spaces and control,
 *   bidi and zero-width characters are dropped (a paste arrives as one multi-character chunk).
 * - Readline-style editing, as pi's own inputs: delete the word before or after the cursor, to the
 *   start or to the end of the line, one character forward. Which keys do it is the keymap's
 *   business (./text-input-keys.ts).
 * - Every action returns the same state object when nothing changes, so React skips re-renders.
 */
import { UNSAFE_INPUT_CHAR_RE } from '../text/terminal-text.js';

export interface TextInputState {
  readonly value: string;
  /** UTF-16 offset in `value`, 0..value.length, never inside a surrogate pair. */
  readonly cursor: number;
}

export type TextInputAction =
  | { type: 'insert'; text: string }
  | { type: 'backspace' }
  | { type: 'deleteForward' }
  | { type: 'deleteWordLeft' }
  | { type: 'deleteWordRight' }
  | { type: 'clearToStart' }
  | { type: 'clearToEnd' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'wordLeft' }
  | { type: 'wordRight' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'set'; value: string; cursorAtEnd?: boolean }
  | { type: 'clear' };

const LINE_BREAK_OR_TAB_RE = /\r\n|[\r\n\t\u000b\u000c\u0085\u2028\u2029]/g;

/** Makes arbitrary text (paste chunks, initial values) valid input content. */
export function cleanInputText(text: string): string {
  return text.replace(LINE_BREAK_OR_TAB_RE, ' ').replace(UNSAFE_INPUT_CHAR_RE, '');
}

export function initialTextInput(value = '', cursorAtEnd = true): TextInputState {
  const clean = cleanInputText(value);
  return { value: clean, cursor: cursorAtEnd ? clean.length : 0 };
}

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Index of the code point boundary before `index`. */
export function previousBoundary(value: string, index: number): number {
  if (index <= 0) return 0;
  const prev = index - 1;
  return prev > 0 && isLow(value.charCodeAt(prev)) && isHigh(value.charCodeAt(prev - 1)) ? prev - 1 : prev;
}

/** Index of the code point boundary after `index`. */
export function nextBoundary(value: string, index: number): number {
  if (index >= value.length) return value.length;
  return isHigh(value.charCodeAt(index)) && isLow(value.charCodeAt(index + 1)) ? index + 2 : index + 1;
}

const isSpaceAt = (value: string, index: number): boolean => /\s/.test(value.charAt(index));

/** Start of the word before `index` (readline unix-word-rubout: skip spaces, then non-spaces). */
function wordStartBefore(value: string, index: number): number {
  let i = index;
  while (i > 0 && isSpaceAt(value, i - 1)) i--;
  while (i > 0 && !isSpaceAt(value, i - 1)) i--;
  // Low surrogates are never whitespace, so `i` cannot stop inside a pair.
  return i;
}

/** End of the word after `index` (skip spaces, then non-spaces). */
function wordEndAfter(value: string, index: number): number {
  let i = index;
  while (i < value.length && isSpaceAt(value, i)) i++;
  while (i < value.length && !isSpaceAt(value, i)) i++;
  return i;
}

function withCursor(state: TextInputState, cursor: number): TextInputState {
  return cursor === state.cursor ? state : { value: state.value, cursor };
}

function edit(state: TextInputState, from: number, to: number, insert: string): TextInputState {
  if (from === to && insert === '') return state;
  return { value: state.value.slice(0, from) + insert + state.value.slice(to), cursor: from + insert.length };
}

export function textInputReducer(state: TextInputState, action: TextInputAction): TextInputState {
  const { value, cursor } = state;
  switch (action.type) {
    case 'insert':
      return edit(state, cursor, cursor, cleanInputText(action.text));
    case 'backspace':
      return edit(state, previousBoundary(value, cursor), cursor, '');
    case 'deleteForward':
      return edit(state, cursor, nextBoundary(value, cursor), '');
    case 'deleteWordLeft':
      return edit(state, wordStartBefore(value, cursor), cursor, '');
    case 'deleteWordRight':
      return edit(state, cursor, wordEndAfter(value, cursor), '');
    case 'clearToStart':
      return edit(state, 0, cursor, '');
    case 'clearToEnd':
      return edit(state, cursor, value.length, '');
    case 'left':
      return withCursor(state, previousBoundary(value, cursor));
    case 'right':
      return withCursor(state, nextBoundary(value, cursor));
    case 'wordLeft':
      return withCursor(state, wordStartBefore(value, cursor));
    case 'wordRight':
      return withCursor(state, wordEndAfter(value, cursor));
    case 'home':
      return withCursor(state, 0);
    case 'end':
      return withCursor(state, value.length);
    case 'set': {
      const next = initialTextInput(action.value, action.cursorAtEnd ?? true);
      return next.value === value && next.cursor === cursor ? state : next;
    }
    case 'clear':
      return value === '' ? state : { value: '', cursor: 0 };
  }
}
