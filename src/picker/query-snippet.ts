/**
 * The text around a full-text hit (in a message or a summary: query-text.ts searchedText), for
 * the row's snippet (pure).
 */
import type { SessionInfo } from '../store/index.js';
import { literalRegex } from '../text/linear-regex.js';
import { preparedTextOf, searchedText } from './query-text.js';
import type { TextHit } from './session-match.js';

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
/** Where a hit on the prepared text lies in the original message text. */
function hitRange(info: SessionInfo, hit: TextHit): { start: number; end: number } {
  const original = searchedText(info);
  // Fast path: nothing was collapsed or changed length, so offsets are the same.
  const same = preparedTextOf(info).length === original.length;
  return same
    ? { start: hit.start, end: hit.start + hit.length }
    : { start: originalOffset(original, hit.start), end: originalOffset(original, hit.start + hit.length) };
}

/** `context` characters before `start..end` and `afterChars` after it, never from inside a surrogate pair. */
function around(original: string, start: number, end: number, context: number, afterChars: number, floor = 0): Snippet {
  let from = Math.max(floor, start - context);
  if (from > floor && /[\udc00-\udfff]/.test(original[from] ?? '')) from++;
  return {
    before: original.slice(from, start),
    match: original.slice(start, end),
    after: original.slice(end, end + afterChars),
  };
}

/**
 * The text around a message-text hit: `context` characters before it and `after` characters
 * after it, taken from the original (not lower-cased) text. The caller sanitises and fits it.
 */
export function snippetFor(info: SessionInfo, hit: TextHit, context = 60, afterChars = 200): Snippet {
  const { start, end } = hitRange(info, hit);
  return around(searchedText(info), start, end, context, afterChars);
}

/**
 * Where `needle` next occurs in `haystack`, ignoring case, and how long the occurrence is. Lower-
 * cased copies compared with indexOf when lower-casing keeps their lengths (nearly always), else
 * RE2 on the quoted needle: never a RegExp built from session text, which a long hit (a match of
 * `re:a+` over 100,000 `a`s) would overflow V8's regex stack with.
 */
function indexIgnoringCase(haystack: string, needle: string): { index: number; length: number } | undefined {
  const lowerHaystack = haystack.toLowerCase();
  const lowerNeedle = needle.toLowerCase();
  if (lowerHaystack.length === haystack.length && lowerNeedle.length === needle.length) {
    const index = lowerHaystack.indexOf(lowerNeedle);
    return index === -1 ? undefined : { index, length: needle.length };
  }
  const hit = literalRegex(needle).first(haystack);
  return hit && { index: hit.start, length: hit.length };
}

/**
 * The row's snippet: the text around the hit, unless the hit is inside what the row already
 * shows as its title (an unnamed session's first prompt). Then it is the next place the matched
 * words occur after the first prompt, or no snippet when there is none: repeating the title
 * says nothing.
 */
export function rowSnippet(info: SessionInfo, hit: TextHit): Snippet | undefined {
  const { start, end } = hitRange(info, hit);
  const original = searchedText(info);
  const named = info.name !== undefined && info.name.trim() !== '';
  const titleAt = named || info.firstMessage === '' ? -1 : original.indexOf(info.firstMessage);
  const titleEnd = titleAt + info.firstMessage.length;
  if (titleAt < 0 || start < titleAt || end > titleEnd) return around(original, start, end, 60, 200);
  const later = indexIgnoringCase(original.slice(titleEnd), original.slice(start, end));
  if (!later) return undefined;
  const at = titleEnd + later.index;
  return around(original, at, at + later.length, 60, 200, titleEnd);
}
