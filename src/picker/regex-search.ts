/**
 * The `re:` term over the picker's sessions, in slices. RE2 (src/text/linear-regex.ts) makes each
 * session's match linear in its text, but a regex over thousands of long texts still takes far
 * longer than a keystroke may: so each search pass gives the regex a time budget, and the sessions
 * it did not reach are left pending (the screen runs the pass again on the next turn of the event
 * loop, with a fresh budget, until none is). What a session's match was is cached per pattern and
 * session object, so every pass only does new work, and a key (Ctrl+C among them) is read between
 * two passes, never behind the whole search.
 */
import type { SessionInfo } from '../store/index.js';
import type { LinearRegex } from '../text/linear-regex.js';
import { isTextPrepared, textOf } from './query-text.js';
import type { TermScores, TextHitsByPosition } from './session-match.js';

/** What the regex found in one session: its score (undefined: no match) and its first text hit. */
export interface RegexResult {
  score: number | undefined;
  hit?: { start: number; length: number };
}

/**
 * A session's first text hit, found when first asked for. Whether the text matches is RE2's DFA
 * test, many times cheaper than finding where (its NFA): the search needs only the first for
 * every session, and only the rows drawn ask where (their snippets, and mostly through
 * text-hit-places.ts, which finds every hit anyway).
 */
class FirstHit {
  private found: { start: number; length: number } | undefined;

  constructor(
    private readonly re: LinearRegex,
    private readonly text: string,
  ) {}

  private get hit(): { start: number; length: number } {
    this.found ??= this.re.first(this.text) ?? { start: 0, length: 0 };
    return this.found;
  }

  get start(): number {
    return this.hit.start;
  }

  get length(): number {
    return this.hit.length;
  }
}

/** Per pattern source: each session's result (a new session object is searched again). */
export type RegexCache = Map<string, WeakMap<SessionInfo, RegexResult>>;

const REGEX_CACHE_SIZE = 16;

export interface RegexPass {
  /** Lower-cased name, cwd and id of each session, by position (the search index's). */
  names: readonly string[];
  cwds: readonly string[];
  ids: readonly string[];
  /** The list the positions are into. */
  sessions: readonly SessionInfo[];
  cache: RegexCache;
  preparedOnly: boolean;
  /** Sessions whose text is not prepared yet (`preparedOnly`): not searched, counted as unindexed. */
  skipped: Set<SessionInfo>;
  /** Sessions the budget did not reach: searched by a later pass. */
  pending: Set<SessionInfo>;
  /** `performance.now()` past which no new session is searched in this pass (after the first: a pass always moves on). */
  deadline: number;
  /** Sessions searched in this pass so far. */
  searched: number;
  /** The score tier of a text, cwd or id hit (a name hit scores 0). */
  textTier: number;
}

function resultsFor(cache: RegexCache, source: string): WeakMap<SessionInfo, RegexResult> {
  let results = cache.get(source);
  if (results) {
    // Most recently used last: the oldest pattern is the one dropped.
    cache.delete(source);
  } else {
    results = new WeakMap();
    if (cache.size >= REGEX_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(source, results);
  return results;
}

/** The candidates (positions, ascending) the regex matches, with their score; text hits go to `textHits`. */
export function regexScores(
  pass: RegexPass,
  re: LinearRegex,
  candidates: readonly number[],
  textHits: TextHitsByPosition,
): TermScores {
  const results = resultsFor(pass.cache, re.source);
  const out: TermScores = { positions: [], scores: [] };
  for (const i of candidates) {
    const info = pass.sessions[i]!;
    let result = results.get(info);
    if (!result) {
      if (pass.searched > 0 && performance.now() > pass.deadline) {
        pass.pending.add(info);
        continue;
      }
      pass.searched++;
      if (re.test(pass.names[i] ?? '')) result = { score: 0 };
      else if (pass.preparedOnly && !isTextPrepared(info)) {
        // Not cached: the text is searched once it is prepared.
        pass.skipped.add(info);
        if (re.test(pass.cwds[i] ?? '') || re.test(pass.ids[i] ?? '')) {
          out.positions.push(i);
          out.scores.push(pass.textTier);
        }
        continue;
      } else {
        const text = textOf(info);
        if (re.test(text)) result = { score: pass.textTier, hit: new FirstHit(re, text) };
        else result = { score: re.test(pass.cwds[i] ?? '') || re.test(pass.ids[i] ?? '') ? pass.textTier : undefined };
      }
      results.set(info, result);
    }
    if (result.score === undefined) continue;
    out.positions.push(i);
    out.scores.push(result.score);
    if (result.hit && textHits[i] === undefined) textHits[i] = result.hit;
  }
  return out;
}
