/**
 * Matching a parsed query (query-language.ts) over the picker's sessions (pure), on the texts query-text.ts prepares.
 *
 * Ranking (lower score is better, summed over terms): a name hit (tier 0) beats a fuzzy name hit
 * (tier 1), which beats a message-text/cwd/id substring hit (tier 2), which beats a fuzzy cwd hit
 * (tier 3), which beats pi's abbreviation tier: the word as a subsequence of the name (tier 4),
 * then of the cwd (tier 5), as in pi's `/resume` (`sqlite idx`, `rfctr cfg`). Ties are left to
 * the caller's recency order (`sort.ts`). A hit in a branch or compaction summary is a message-text
 * hit (the summaries are searched after the messages: query-text.ts searchedText): a summary is
 * pi's own account of the messages it stands for, as good a sign of what a session was about as
 * they are, so it ranks with them; a session with hits in both shows its message hit first.
 *
 * Speed: matching a keystroke over thousands of sessions with ~100 KB of text each must stay well
 * under 50 ms, so (1) the lower-cased, whitespace-collapsed message text is computed once per
 * session object (WeakMap; `prepareTexts` lets the screen do it in idle time), (2) fuse only ever
 * sees names and the few distinct cwds, never the text, and (3) substring results are cached per
 * pattern: a pattern that contains a cached one ("auth" after "aut") only scans the sessions the
 * shorter one matched, which is what typing produces.
 */
import { type PathMap, type SessionInfo, sessionHost } from '../store/index.js';
import { isFieldFilter, passesFilter } from './query-filters.js';
import { createFuzzyIndex, type FuzzyIndex, fuzzyCwds, fuzzyNames } from './query-fuzzy.js';
import type { ParsedQuery, QueryTerm } from './query-language.js';
import { isTextPrepared, outputOf, textOf } from './query-text.js';
import { type RegexCache, type RegexPass, regexScores } from './regex-search.js';
import type { SessionMatch, TextHit } from './session-match.js';
import { type Parents, parentsIn } from './sort.js';
import { subsequenceScore } from './subsequence.js';
import { type HitPattern, hasHitIn, hitPatterns } from './text-hit-places.js';

// ---------------------------------------------------------------------------------------------
// Index and matching

interface PatternHits {
  /** Prepared-text index of the first occurrence, per matching session. */
  hits: Map<SessionInfo, number>;
}

const PATTERN_CACHE_SIZE = 48;

export interface SearchIndex {
  readonly sessions: readonly SessionInfo[];
  readonly names: readonly string[];
  readonly cwds: readonly string[];
  readonly ids: readonly string[];
  /** Fuzzy matching of names and cwds (query-fuzzy.ts). */
  readonly fuzzy: FuzzyIndex;
  /** Complete substring scans of the prepared text, per pattern (insertion order = age). */
  readonly patternCache: Map<string, PatternHits>;
  /** What each `re:` pattern found in each session so far (regex-search.ts). */
  readonly regexCache: RegexCache;
  /** Each session's position in `sessions` (made once: every keystroke needs it). */
  readonly positions: ReadonlyMap<SessionInfo, number>;
  /** Each session's parent in the list, for the threaded sort (made once, like `positions`). */
  readonly parents: Parents;
  /** The lower-cased machine each session was written on, where known (`host:`). */
  readonly hosts: ReadonlyMap<SessionInfo, string>;
  /** The path map the parents and hosts were found with (a new map needs a new index). */
  readonly pathMap: PathMap;
}

/**
 * Builds the per-list index (fuse over names and distinct cwds). Build it once per session list.
 * `pathMap`: other machines' path prefixes mapped to this one (forks nest under a parent recorded
 * under a mapped path; a mapping's host is where its sessions were written).
 */
export function createSearchIndex(sessions: readonly SessionInfo[], pathMap: PathMap = []): SearchIndex {
  const hosts = new Map<SessionInfo, string>();
  for (const info of sessions) {
    const host = sessionHost(info.path, info.cwd, pathMap);
    if (host !== undefined) hosts.set(info, host.toLowerCase());
  }
  const names = sessions.map((s) => (s.name ?? '').toLowerCase());
  const cwds = sessions.map((s) => s.cwd.toLowerCase());
  return {
    sessions,
    names,
    cwds,
    ids: sessions.map((s) => s.id.toLowerCase()),
    fuzzy: createFuzzyIndex(sessions, names),
    patternCache: new Map(),
    regexCache: new Map(),
    positions: new Map(sessions.map((s, i) => [s, i])),
    parents: parentsIn(sessions, pathMap),
    hosts,
    pathMap,
  };
}

/**
 * pi's last tier: the word as an abbreviation (a subsequence) of the name, else of the cwd. A
 * name abbreviation ranks before a cwd one; within each, pi's score (clamped into the tier).
 */
function abbreviationScore(word: string, name: string, cwd: string): number | undefined {
  // Words of any length, as pi's: "lk" abbreviates "memory leak" (it ranks after every stronger hit).
  const inName = name === '' ? undefined : subsequenceScore(word, name);
  if (inName !== undefined) return 4 * TIER + clampInTier(inName);
  const inCwd = subsequenceScore(word, cwd);
  return inCwd === undefined ? undefined : 5 * TIER + clampInTier(inCwd);
}

/** pi's scores run from about -150 (bonuses) upwards; keep them inside one tier's range. */
function clampInTier(score: number): number {
  return Math.min(TIER - 1, Math.max(0, score + 200));
}

export type { SessionMatch, TextHit };

export interface SearchOutcome {
  /** Matches in the order of `index.sessions`. */
  matches: SessionMatch[];
  /**
   * Sessions whose text was not searched because it is not prepared yet (only with
   * `preparedOnly`); the screen says "searching n of N".
   */
  unindexed: number;
  /** Sessions a `re:` term has not searched yet (its budget ran out): search again to go on. */
  pending: number;
}

export interface SearchOptions {
  /** Skip the message text of sessions not yet prepared instead of preparing it now. */
  preparedOnly?: boolean;
  /**
   * How long a `re:` term may search in this pass (default: no limit); the sessions it did not
   * reach are `pending` (regex-search.ts).
   */
  budgetMs?: number;
  /**
   * Findings of the secret scan by session path (`has:secret`); a session not in it is not
   * scanned yet and does not match.
   */
  secrets?: ReadonlyMap<string, number>;
}

/**
 * Finds `pattern` in the prepared text of `candidates`. A complete scan over the whole list is
 * cached; a cached pattern contained in `pattern` narrows the scan to the sessions it matched.
 */
function scanText(
  index: SearchIndex,
  pattern: string,
  candidates: readonly SessionInfo[],
  whole: boolean,
  preparedOnly: boolean,
  skipped: Set<SessionInfo>,
): Map<SessionInfo, number> {
  const cached = index.patternCache.get(pattern);
  if (cached) return cached.hits;
  let narrowest: PatternHits | undefined;
  let narrowestKey = '';
  for (const [key, entry] of index.patternCache) {
    if (key.length > narrowestKey.length && pattern.includes(key)) {
      narrowest = entry;
      narrowestKey = key;
    }
  }
  // If `pattern` contains the cached key at offset k, its first occurrence cannot start before
  // (first occurrence of the key) - k: the scan resumes there instead of at 0, so typing one more
  // letter of a word found near the end of long texts doesn't rescan them.
  const keyOffset = narrowest ? pattern.indexOf(narrowestKey) : 0;
  const hits = new Map<SessionInfo, number>();
  let complete = whole;
  const visit = (info: SessionInfo, from: number): void => {
    if (preparedOnly && !isTextPrepared(info)) {
      skipped.add(info);
      complete = false;
      return;
    }
    const at = textOf(info).indexOf(pattern, from);
    if (at >= 0) hits.set(info, at);
  };
  if (narrowest) {
    if (whole) for (const [info, at] of narrowest.hits) visit(info, Math.max(0, at - keyOffset));
    else {
      for (const info of candidates) {
        const at = narrowest.hits.get(info);
        if (at !== undefined) visit(info, Math.max(0, at - keyOffset));
      }
    }
  } else {
    for (const info of whole ? index.sessions : candidates) visit(info, 0);
  }
  if (complete) {
    index.patternCache.set(pattern, { hits });
    if (index.patternCache.size > PATTERN_CACHE_SIZE) {
      const oldest = index.patternCache.keys().next().value;
      if (oldest !== undefined) index.patternCache.delete(oldest);
    }
  }
  return hits;
}

const TIER = 1000;

/** What one search pass shares between its terms. */
interface Pass {
  index: SearchIndex;
  positions: ReadonlyMap<SessionInfo, number>;
  /** Whether the candidates started as the whole list (then full scans may be cached). */
  whole: boolean;
  preparedOnly: boolean;
  skipped: Set<SessionInfo>;
  /** The query's message-text patterns, whose hits `in:` places. */
  patterns: readonly HitPattern[];
  /** The `re:` term's budget, cache and pending sessions (regex-search.ts). */
  regex: RegexPass;
  secrets: ReadonlyMap<string, number> | undefined;
}

/** The text an `exact`/`prefix` term compares with: the title, else the cwd and its last folder. */
/** Whether the title (name, else first prompt), the cwd or its last folder starts with, ends with or is `text`. */
function anchoredAt(info: SessionInfo, cwd: string, text: string, at: 'prefix' | 'suffix' | 'whole'): boolean {
  const folderPath = cwd.replace(/[/\\]+$/, '');
  const candidates = [
    (info.name ?? info.firstMessage).toLowerCase(),
    folderPath,
    folderPath.slice(Math.max(folderPath.lastIndexOf('/'), folderPath.lastIndexOf('\\')) + 1),
  ];
  return candidates.some((s) =>
    at === 'prefix' ? s.startsWith(text) : at === 'suffix' ? s.endsWith(text) : s === text,
  );
}

/** Name, message text, cwd or id contains `pattern` (the literal part of word, phrase and exact terms). */
function literalScore(
  pass: Pass,
  term: { kind: 'word' | 'phrase' | 'exact'; text: string },
  candidates: readonly SessionInfo[],
  textHits: Map<SessionInfo, TextHit>,
): Map<SessionInfo, number> {
  const { index } = pass;
  const pattern = term.text;
  const inText = scanText(index, pattern, candidates, pass.whole, pass.preparedOnly, pass.skipped);
  const fuzzyName = term.kind === 'word' ? fuzzyNames(index.fuzzy, pattern) : undefined;
  const fuzzyCwd = term.kind === 'word' ? fuzzyCwds(index.fuzzy, pattern) : undefined;
  const out = new Map<SessionInfo, number>();
  for (const info of candidates) {
    const i = pass.positions.get(info) ?? 0;
    const name = index.names[i] ?? '';
    let score: number | undefined;
    const nameAt = name.indexOf(pattern);
    if (nameAt >= 0) {
      // Earlier and fuller name hits first: "fix" in "fix login" beats "prefix handling".
      score = Math.min(nameAt, 99) + (1 - pattern.length / Math.max(name.length, 1)) * 100;
    } else if (fuzzyName?.has(i)) {
      score = 1 * TIER + (fuzzyName.get(i) ?? 0) * 100;
    } else {
      const at = inText.get(info);
      if (at !== undefined) {
        score = 2 * TIER;
        if (!textHits.has(info)) textHits.set(info, { start: at, length: pattern.length });
      } else if ((index.cwds[i] ?? '').includes(pattern) || (index.ids[i] ?? '').includes(pattern)) {
        score = 2 * TIER;
      } else if (fuzzyCwd?.has(info.cwd)) {
        score = 3 * TIER + (fuzzyCwd.get(info.cwd) ?? 0) * 100;
      } else if (term.kind === 'word') {
        score = abbreviationScore(pattern, name, index.cwds[i] ?? '');
      }
    }
    if (score !== undefined) out.set(info, score);
  }
  return out;
}

/** The candidates `term` matches, with their score (0 for terms that only filter). */
function matchTerm(
  pass: Pass,
  term: QueryTerm,
  candidates: readonly SessionInfo[],
  textHits: Map<SessionInfo, TextHit>,
): Map<SessionInfo, number> {
  switch (term.kind) {
    case 'word':
    case 'phrase':
    case 'exact':
      return literalScore(pass, term, candidates, textHits);
    case 'regex':
      return regexScores(pass.regex, term.re, candidates, textHits);
    case 'prefix':
    case 'suffix':
    case 'whole': {
      const out = new Map<SessionInfo, number>();
      for (const info of candidates)
        if (anchoredAt(info, pass.index.cwds[pass.positions.get(info) ?? 0] ?? '', term.text, term.kind))
          out.set(info, 0);
      return out;
    }
    case 'out': {
      const out = new Map<SessionInfo, number>();
      for (const info of candidates) if (outputOf(info).includes(term.text)) out.set(info, 0);
      return out;
    }
    case 'in': {
      const out = new Map<SessionInfo, number>();
      for (const info of candidates) {
        if (pass.preparedOnly && !isTextPrepared(info)) pass.skipped.add(info);
        else if (hasHitIn(info, pass.patterns, term.place)) out.set(info, 0);
      }
      return out;
    }
    case 'not': {
      // The inner term's hits are not this session's hits: keep them out of the snippet.
      const inner = matchTerm(pass, term.term, candidates, new Map());
      return new Map(candidates.filter((info) => !inner.has(info)).map((info) => [info, 0]));
    }
    case 'or': {
      const out = new Map<SessionInfo, number>();
      for (const alternative of term.terms) {
        for (const [info, score] of matchTerm(pass, alternative, candidates, textHits))
          out.set(info, Math.min(score, out.get(info) ?? Number.POSITIVE_INFINITY));
      }
      return out;
    }
    default:
      return new Map(
        candidates.filter((info) => passesFilter(info, term, pass.secrets, pass.index.hosts)).map((info) => [info, 0]),
      );
  }
}

/** Whether the term places text hits (`in:`, also under `!` or `|`): it runs after the text terms narrowed the list. */
function placesHits(term: QueryTerm): boolean {
  if (term.kind === 'in') return true;
  if (term.kind === 'not') return placesHits(term.term);
  return term.kind === 'or' && term.terms.some(placesHits);
}

/** Runs a successfully parsed query over the index. */
export function searchSessions(index: SearchIndex, query: ParsedQuery, options: SearchOptions = {}): SearchOutcome {
  if (!query.ok) return { matches: [], unindexed: 0, pending: 0 };
  const filters = query.terms.filter(isFieldFilter);
  const rest = query.terms.filter((t) => !isFieldFilter(t));
  const others = [...rest.filter((t) => !placesHits(t)), ...rest.filter(placesHits)];
  const skipped = new Set<SessionInfo>();
  const preparedOnly = options.preparedOnly ?? false;
  const pass: Pass = {
    index,
    positions: index.positions,
    whole: filters.length === 0,
    preparedOnly,
    skipped,
    patterns: hitPatterns(query.terms),
    secrets: options.secrets,
    regex: {
      names: index.names,
      cwds: index.cwds,
      ids: index.ids,
      positions: index.positions,
      cache: index.regexCache,
      preparedOnly,
      skipped,
      pending: new Set(),
      deadline: performance.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY),
      searched: 0,
      textTier: 2 * TIER,
    },
  };
  let candidates: SessionInfo[] =
    filters.length === 0
      ? [...index.sessions]
      : index.sessions.filter((info) => filters.every((t) => passesFilter(info, t, options.secrets, index.hosts)));
  const scores = new Map<SessionInfo, number>();
  const textHits = new Map<SessionInfo, TextHit>();
  for (const term of others) {
    const matched = matchTerm(pass, term, candidates, textHits);
    candidates = candidates.filter((info) => matched.has(info));
    for (const info of candidates) scores.set(info, (scores.get(info) ?? 0) + (matched.get(info) ?? 0));
  }
  const matches = candidates.map((info): SessionMatch => {
    const hit = textHits.get(info);
    return hit ? { info, score: scores.get(info) ?? 0, textHit: hit } : { info, score: scores.get(info) ?? 0 };
  });
  return { matches, unindexed: pass.skipped.size, pending: pass.regex.pending.size };
}
