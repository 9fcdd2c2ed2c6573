/**
 * The search texts of a session, prepared once per session object (pure): lower-cased with
 * whitespace runs collapsed, the form all text matching in query-engine.ts uses. The message
 * text is prepared in idle time (`prepareTexts`); the tool texts on first use by `file:`/`out:`.
 *
 * The full-text search reads the message text followed by the branch and compaction summaries
 * (`searchedText`): one text, so every search (words, phrases, `re:`), its snippet and its hit
 * places treat a summary like one more message. They are joined with a space, as pi joins the
 * messages, so the summaries start one character after the message text ends.
 */
import type { SessionInfo } from '../store/index.js';

const preparedText = new WeakMap<SessionInfo, string>();
const joinedTexts = new WeakMap<SessionInfo, string>();
// biome-ignore lint/correctness/noUnusedVariables: written and never read on purpose: the write keeps the optimiser from dropping the flattening indexOf in textOf
let flattenSink = 0;

/** Lower-case, every whitespace run collapsed to one space (the form all text matching uses). */
export function normalizeText(s: string): string {
  const lower = s.toLowerCase();
  // Cheap pre-check: most text needs no replace (the regex replace dominates preparation time).
  return /[\t\n\r\f\v\u00a0\u2028\u2029]|\s\s/.test(lower) ? lower.replace(/\s+/g, ' ') : lower;
}

/** The message text, then the summaries: what the full-text search searches, before preparing. */
export function searchedText(info: SessionInfo): string {
  const summaries = info.summaryText;
  if (summaries === '') return info.allMessagesText;
  let text = joinedTexts.get(info);
  if (text === undefined) {
    // Kept: snippets slice it for every drawn row, and a fresh concatenation is flattened each time.
    text = `${info.allMessagesText} ${summaries}`;
    joinedTexts.set(info, text);
  }
  return text;
}

export function textOf(info: SessionInfo): string {
  let text = preparedText.get(info);
  if (text === undefined) {
    text = normalizeText(searchedText(info));
    // Flatten now (indexOf flattens its subject): V8 may hand back a rope, and the first search
    // would otherwise flatten every prepared text at once (measured over 2,000 sessions: a first
    // keystroke of 0.6–1.4 s; preparing is also cheaper when ropes do not pile up). The result
    // goes to a sink so the optimiser cannot drop the call.
    flattenSink ^= text.indexOf('\u0000');
    preparedText.set(info, text);
  }
  return text;
}

export function isTextPrepared(info: SessionInfo): boolean {
  return preparedText.has(info);
}

/**
 * Prepares the search text of not-yet-prepared sessions until `budgetMs` has passed.
 * Returns how many are still unprepared (0 = done). Meant to be called from idle callbacks.
 */
export function prepareTexts(
  sessions: readonly SessionInfo[],
  budgetMs: number,
  clock: () => number = performance.now.bind(performance),
): number {
  const start = clock();
  let remaining = 0;
  for (const info of sessions) {
    if (preparedText.has(info)) continue;
    if (clock() - start >= budgetMs) {
      remaining++;
      continue;
    }
    textOf(info);
  }
  return remaining;
}

/** The prepared (lower-cased, whitespace-collapsed) searched text, for snippets. */
export function preparedTextOf(info: SessionInfo): string {
  return textOf(info);
}

const preparedTargets = new WeakMap<SessionInfo, string>();

/** The lower-cased touched paths and commands (`file:`), made on first use. */
export function touchedOf(info: SessionInfo): string {
  let text = preparedTargets.get(info);
  if (text === undefined) {
    text = info.toolTargets.toLowerCase();
    preparedTargets.set(info, text);
  }
  return text;
}

const preparedOutput = new WeakMap<SessionInfo, string>();

/** The prepared tool output text (`out:`), made on first use: only that predicate reads it. */
export function outputOf(info: SessionInfo): string {
  let text = preparedOutput.get(info);
  if (text === undefined) {
    text = normalizeText(info.toolOutputText);
    preparedOutput.set(info, text);
  }
  return text;
}
