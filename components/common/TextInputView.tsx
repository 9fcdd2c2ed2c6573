/**
 * Presentational single-line input: renders a `TextInputState` with the cursor as an inverse
 * cell, scrolled horizontally so the cursor stays visible. Keys reach it only through the screen's
 * reducer (src/state/text-input.ts, src/state/text-input-keys.ts); it handles none itself.
 */
import { Text } from 'ink';
import { memo } from 'react';
import type { TextInputState } from '../../src/state/text-input.js';
import { nextBoundary } from '../../src/state/text-input.js';
import { displayWidth, sanitizeInline, sliceByWidth, truncateToWidth } from '../../src/text/terminal-text.js';

export interface TextInputViewProps {
  state: TextInputState;
  /** Columns available for prompt + text + cursor. */
  width: number;
  /** Shown before the text, e.g. "/ " or "Search: ". */
  prompt?: string;
  /** Dim text shown when the value is empty. */
  placeholder?: string;
  /** Hide the cursor when the input is not the active one. */
  showCursor?: boolean;
}

export interface TextInputLayout {
  before: string;
  /** The character under the cursor, or ' ' at the end; '' when the cursor is hidden. */
  cursor: string;
  after: string;
}

/**
 * Splits the visible window of `value` around the cursor (pure, exported for tests).
 * The window starts at 0 while everything fits; otherwise it scrolls so the cursor cell is the
 * last visible cell, which keeps typing at the end natural.
 */
export function layoutTextInput(state: TextInputState, width: number): TextInputLayout {
  if (width <= 0) return { before: '', cursor: '', after: '' };
  const { value, cursor } = state;
  const before = value.slice(0, cursor);
  const cursorChar = cursor < value.length ? value.slice(cursor, nextBoundary(value, cursor)) : ' ';
  const after = value.slice(cursor + (cursor < value.length ? cursorChar.length : 0));
  const beforeWidth = displayWidth(before);
  const cursorWidth = Math.max(1, displayWidth(cursorChar));
  if (cursorWidth > width) return { before: '', cursor: ' ', after: '' };
  const start = Math.max(0, beforeWidth + cursorWidth - width);
  const visibleBefore = sliceByWidth(before, start, beforeWidth - start);
  const remaining = width - (beforeWidth - start) - cursorWidth;
  return { before: visibleBefore, cursor: cursorChar, after: sliceByWidth(after, 0, remaining) };
}

function TextInputLine({ state, width, prompt = '', placeholder = '', showCursor = true }: TextInputViewProps) {
  // The prompt is a developer constant (not session data), so only its width needs care.
  const promptText = truncateToWidth(prompt, width, '');
  const textWidth = Math.max(0, width - displayWidth(promptText));

  if (state.value === '' && placeholder !== '') {
    const hint = truncateToWidth(sanitizeInline(placeholder), Math.max(0, textWidth - (showCursor ? 1 : 0)));
    return (
      <Text wrap="truncate-end">
        {promptText}
        {showCursor && textWidth > 0 ? <Text inverse> </Text> : null}
        <Text dimColor>{hint}</Text>
      </Text>
    );
  }

  if (!showCursor) {
    return (
      <Text wrap="truncate-end">
        {promptText}
        {truncateToWidth(state.value, textWidth)}
      </Text>
    );
  }

  const { before, cursor, after } = layoutTextInput(state, textWidth);
  return (
    <Text wrap="truncate-end">
      {promptText}
      {before}
      {cursor === '' ? null : <Text inverse>{cursor}</Text>}
      {after}
    </Text>
  );
}

/** Not drawn again while its input state (an immutable value) and options are the same. */
export const TextInputView = memo(TextInputLine);
