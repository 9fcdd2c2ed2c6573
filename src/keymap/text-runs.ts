/**
 * Text runs in screens where some printable keys are commands (`?`, `L`, type-to-search): the
 * tokenizer delivers a read's text as one key, and these helpers make it mean exactly what the
 * same characters typed one by one mean.
 */
import { textKey, type Keypress } from './tokenize.js';

/**
 * Applies a key where some printable keys may be commands (`?`, `L`, type-to-search): a run of
 * text is inserted whole while `typesText(state)` says every printable key types, and is fed
 * one character at a time otherwise, so a burst means exactly what the same keys typed one by
 * one mean. Named keys go to `single` as they are.
 */
export function reduceText<S>(
  state: S,
  keypress: Keypress,
  typesText: (state: S) => boolean,
  insert: (state: S, text: string) => S,
  single: (state: S, keypress: Keypress) => S,
): S {
  if (keypress.name !== undefined) return single(state, keypress);
  let current = state;
  let rest = keypress.text;
  while (rest !== '') {
    if (typesText(current)) return insert(current, rest);
    const ch = String.fromCodePoint(rest.codePointAt(0)!);
    current = single(current, textKey(ch));
    rest = rest.slice(ch.length);
  }
  return current;
}
