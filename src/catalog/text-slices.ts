/**
 * A session's texts in the catalogue's data section (format.ts): how the message text, tool
 * targets and summaries are packed into one slice behind the session's tag, with the tool output
 * after them (pure).
 */
import type { SessionInfo } from '../store/index.js';

/** A session's texts kept beside its record. */
export type SearchTexts = Pick<SessionInfo, 'allMessagesText' | 'toolTargets' | 'summaryText' | 'toolOutputText'>;
/** The part every full-text search reads; the tool output is read apart, for `out:` only. */
export type MainTexts = Pick<SessionInfo, 'allMessagesText' | 'toolTargets' | 'summaryText'>;

/**
 * The pieces of a session's text in the text section, in order: the packed message text, targets
 * and summaries (`<tag> <messages length> <targets length> <summaries length>\n` then the three
 * texts, lengths in UTF-16 units, so any text round-trips), then the tool output as it is. Kept as
 * pieces so a writer never builds one more copy of all the text just to write it. `tag` is the
 * session's `sliceTag`. The summaries are packed with the message text because every full-text
 * search reads both.
 */
export function searchTextPieces(
  texts: SearchTexts,
  tag: string,
): [header: string, messages: string, targets: string, summaries: string, output: string] {
  return [
    `${tag} ${texts.allMessagesText.length} ${texts.toolTargets.length} ${texts.summaryText.length}\n`,
    texts.allMessagesText,
    texts.toolTargets,
    texts.summaryText,
    texts.toolOutputText,
  ];
}

/** How many of searchTextPieces' pieces are the packed main texts (the tool output follows them). */
export const MAIN_TEXT_PIECES = 4;

/** The bytes a text slice's first line can take (tag, three lengths, newline). */
export const TEXT_HEADER_MAX = 64;

/** Whether a slice's first bytes are a text header carrying `tag` (for reading the tool output alone). */
export function textHeaderHolds(head: string, tag: string): boolean {
  const newline = head.indexOf('\n');
  return newline !== -1 && /^[0-9a-f]{8} \d+ \d+ \d+$/.test(head.slice(0, newline)) && head.startsWith(`${tag} `);
}

/**
 * The inverse of the first three pieces of searchTextPieces; throws on a string it did not make,
 * or made for another session (its tag is not `tag`).
 */
export function unpackMainTexts(packed: string, tag: string): MainTexts {
  const newline = packed.indexOf('\n');
  const match = /^([0-9a-f]{8}) (\d+) (\d+) (\d+)$/.exec(packed.slice(0, Math.max(0, newline)));
  if (!match) throw new Error('malformed catalogue text');
  if (match[1] !== tag) throw new Error('catalogue text of another session');
  const messages = Number(match[2]);
  const targets = Number(match[3]);
  const summaries = Number(match[4]);
  const from = newline + 1;
  if (from + messages + targets + summaries !== packed.length) throw new Error('malformed catalogue text');
  return {
    allMessagesText: packed.slice(from, from + messages),
    toolTargets: packed.slice(from + messages, from + messages + targets),
    summaryText: packed.slice(from + messages + targets),
  };
}
