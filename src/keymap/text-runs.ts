/**
 * Text runs in screens where some printable keys are commands (`?`, `L`, type-to-search): the
 * tokenizer delivers a read's text as one key, and these helpers make it mean exactly what the
 * same characters typed one by one mean.
 */
import { type Keypress, textKey } from './tokenize.js';

/**
 * Applies a key where some printable keys may be commands (`?`, `L`, type-to-search): a run of
 * text is inserted whole once `typesText(state, next)` says that its next character types and so
 * does every one after it, and is fed one character at a time before that, so a burst means
 * exactly what the same keys typed one by one mean (and costs one edit, not two: a search over
 * 10,000 sessions per edit is what a burst must not pay twice). Named keys go to `single` as they are.
 */
export function reduceText<S>(
  state: S,
  keypress: Keypress,
  typesText: (state: S, next: string) => boolean,
  insert: (state: S, text: string) => S,
  single: (state: S, keypress: Keypress) => S,
): S {
  if (keypress.name !== undefined) return single(state, keypress);
  let current = state;
  let rest = keypress.text;
  while (rest !== '') {
    const ch = String.fromCodePoint(rest.codePointAt(0)!);
    if (typesText(current, ch)) return insert(current, rest);
    current = single(current, textKey(ch));
    rest = rest.slice(ch.length);
  }
  return current;
}
