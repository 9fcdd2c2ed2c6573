/**
 * The text around a message-text hit, for the row's snippet (pure).
 */
import type { SessionInfo } from '../store/types.js';
import { preparedTextOf } from './query-text.js';
import type { TextHit } from './query-engine.js';

export interface Snippet {
  /** Raw (unsanitised) text before the match, the match, and after it. */
  before: string;
  match: string;
  after: string;
}

/**
 * Maps an offset in the prepared text back to the original text. Preparation lower-cases (which
 * can change length for a few characters such as U+0130) and collapses whitespace runs, so walk
 * the original with the same rules.
 */
function originalOffset(original: string, preparedOffset: number): number {
  let prepared = 0;
  let i = 0;
  while (i < original.length && prepared < preparedOffset) {
    const code = original.charCodeAt(i);
    if (code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(original[i] ?? ''))) {
      while (i < original.length && /\s/.test(original[i] ?? '')) i++;
      prepared += 1;
      continue;
    }
    const cp = original.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    prepared += code < 128 ? 1 : ch.toLowerCase().length;
    i += ch.length;
  }
  return i;
}

/**
 * The text around a message-text hit: `context` characters before it and `after` characters
 * after it, taken from the original (not lower-cased) text. The caller sanitises and fits it.
 */
export function snippetFor(info: SessionInfo, hit: TextHit, context = 60, afterChars = 200): Snippet {
  const original = info.allMessagesText;
  const prepared = preparedTextOf(info);
  // Fast path: nothing was collapsed or changed length, so offsets are the same.
  const same = prepared.length === original.length;
  const start = same ? hit.start : originalOffset(original, hit.start);
  const end = same ? hit.start + hit.length : originalOffset(original, hit.start + hit.length);
  let from = Math.max(0, start - context);
  // Don't start in the middle of a surrogate pair.
  if (from > 0 && /[\udc00-\udfff]/.test(original[from] ?? '')) from++;
  return {
    before: original.slice(from, start),
    match: original.slice(start, end),
    after: original.slice(end, end + afterChars),
  };
}
