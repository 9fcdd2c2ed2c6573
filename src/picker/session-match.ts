/**
 * What a search finds in one session (its rank and first text hit): the type the search, the
 * sort and the snippet share, in a module of its own so none of them imports another for it.
 */
import type { SessionInfo } from '../store/index.js';

export interface TextHit {
  /** Offset and length of the first match in the prepared (normalised) text. */
  start: number;
  length: number;
}

export interface SessionMatch {
  info: SessionInfo;
  /** Lower is better (query-engine.ts's module comment: tiers); 0 for filter-only queries. */
  score: number;
  /** The first message-text hit, for the snippet. */
  textHit?: TextHit;
}

/**
 * What one term matched among a search's candidates (query-engine.ts): their positions in the
 * list, ascending, and each one's score, by index.
 */
export interface TermScores {
  positions: number[];
  scores: number[];
}

/** A search's first text hit of each session, by position (unset: none yet). */
export type TextHitsByPosition = (TextHit | undefined)[];
