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
 * shorter one matched, which is what typing produces (search-index.ts), and (4) a search keeps
 * its candidates, scores and text hits by position in the list, and asks a term's questions of a
 * cwd once per distinct folder, not once per session.
 */
import type { SessionInfo } from '../store/index.js';
import { isFieldFilter, passesFilter } from './query-filters.js';
import { fuzzyCwds, fuzzyNames } from './query-fuzzy.js';
import type { ParsedQuery, QueryTerm } from './query-language.js';
import { isTextPrepared, outputOf } from './query-text.js';
import { type RegexPass, regexScores } from './regex-search.js';
import { mayBeInIds, type SearchIndex, scanText } from './search-index.js';
import type { SessionMatch, TermScores, TextHit, TextHitsByPosition } from './session-match.js';
import { subsequenceScore } from './subsequence.js';
import { type HitPattern, hasHitIn, hitPatterns } from './text-hit-places.js';

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

const TIER = 1000;

/** pi's scores run from about -150 (bonuses) upwards; keep them inside one tier's range. */
function clampInTier(score: number): number {
  return Math.min(TIER - 1, Math.max(0, score + 200));
}

/** What one search pass shares between its terms. */
interface Pass {
  index: SearchIndex;
  /** Whether the query has no field filter (then full scans may be cached). */
  whole: boolean;
  preparedOnly: boolean;
  skipped: Set<SessionInfo>;
  /** The query's message-text patterns, whose hits `in:` places. */
  patterns: readonly HitPattern[];
  /** The `re:` term's budget, cache and pending sessions (regex-search.ts). */
  regex: RegexPass;
  secrets: ReadonlyMap<string, number> | undefined;
}

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

/**
 * What a literal term's pattern scores on each distinct cwd, in the order a session asks after
 * its name and text: a substring of the cwd (tier 2), a fuzzy cwd hit (tier 3), the word as an
 * abbreviation of the cwd (tier 5, only when the name is no abbreviation either). NaN: none.
 */
interface FolderScores {
  contains: Uint8Array;
  fuzzy: Float64Array;
  abbreviation: Float64Array;
}

function folderScores(index: SearchIndex, pattern: string, isWord: boolean): FolderScores {
  const count = index.folders.length;
  const scores: FolderScores = {
    contains: new Uint8Array(count),
    fuzzy: new Float64Array(count).fill(Number.NaN),
    abbreviation: new Float64Array(count).fill(Number.NaN),
  };
  const fuzzy = isWord ? fuzzyCwds(index.fuzzy, pattern) : undefined;
  for (let folder = 0; folder < count; folder++) {
    const text = index.folderTexts[folder]!;
    if (text.includes(pattern)) scores.contains[folder] = 1;
    const fuzzyScore = fuzzy?.get(index.folders[folder]!);
    if (fuzzyScore !== undefined) scores.fuzzy[folder] = 3 * TIER + fuzzyScore * 100;
    const abbreviation = isWord ? subsequenceScore(pattern, text) : undefined;
    if (abbreviation !== undefined) scores.abbreviation[folder] = 5 * TIER + clampInTier(abbreviation);
  }
  return scores;
}

/**
 * Name, message text, cwd or id contains `pattern` (the literal part of word, phrase and exact
 * terms); a word also matches fuzzily (name, cwd) and as pi's abbreviation (name, else cwd).
 */
function literalScore(
  pass: Pass,
  term: { kind: 'word' | 'phrase' | 'exact'; text: string },
  candidates: readonly number[],
  textHits: TextHitsByPosition,
): TermScores {
  const { index } = pass;
  const pattern = term.text;
  const isWord = term.kind === 'word';
  const inText = scanText(index, pattern, {
    candidates,
    whole: pass.whole,
    preparedOnly: pass.preparedOnly,
    skipped: pass.skipped,
  });
  const fuzzyName = isWord ? fuzzyNames(index.fuzzy, pattern) : undefined;
  const fuzzyNameOf = fuzzyName !== undefined && fuzzyName.size > 0 ? fuzzyName : undefined;
  const folders = folderScores(index, pattern, isWord);
  const { names, ids, folderOf } = index;
  const inIds = mayBeInIds(index, pattern);
  const hitPositions = inText.positions;
  const out: TermScores = { positions: [], scores: [] };
  // Candidates and text hits are both in list order: one walk through each.
  let hit = 0;
  for (const i of candidates) {
    while (hit < hitPositions.length && hitPositions[hit]! < i) hit++;
    const name = names[i]!;
    let score: number;
    const nameAt = name.indexOf(pattern);
    const fuzzyNameScore = fuzzyNameOf?.get(i);
    if (nameAt >= 0) {
      // Earlier and fuller name hits first: "fix" in "fix login" beats "prefix handling".
      score = Math.min(nameAt, 99) + (1 - pattern.length / Math.max(name.length, 1)) * 100;
    } else if (fuzzyNameScore !== undefined) {
      score = 1 * TIER + fuzzyNameScore * 100;
    } else if (hitPositions[hit] === i) {
      score = 2 * TIER;
      textHits[i] ??= inText.hits[hit]!;
    } else {
      const folder = folderOf[i]!;
      if (folders.contains[folder] === 1 || (inIds && ids[i]!.includes(pattern))) score = 2 * TIER;
      else if (!Number.isNaN(folders.fuzzy[folder]!)) score = folders.fuzzy[folder]!;
      else if (!isWord) continue;
      else {
        const inName = name === '' ? undefined : subsequenceScore(pattern, name);
        score = inName !== undefined ? 4 * TIER + clampInTier(inName) : folders.abbreviation[folder]!;
        if (Number.isNaN(score)) continue;
      }
    }
    out.positions.push(i);
    out.scores.push(score);
  }
  return out;
}

/** The candidates for which `matches` holds, each with score 0 (terms that only filter). */
function filtered(candidates: readonly number[], matches: (i: number) => boolean): TermScores {
  const positions = candidates.filter(matches);
  return { positions, scores: new Array<number>(positions.length).fill(0) };
}

/** The candidates (positions, ascending) `term` matches, with their score (0 for terms that only filter). */
function matchTerm(
  pass: Pass,
  term: QueryTerm,
  candidates: readonly number[],
  textHits: TextHitsByPosition,
): TermScores {
  const { sessions, cwds } = pass.index;
  switch (term.kind) {
    case 'word':
    case 'phrase':
    case 'exact':
      return literalScore(pass, term, candidates, textHits);
    case 'regex':
      return regexScores(pass.regex, term.re, candidates, textHits);
    case 'prefix':
    case 'suffix':
    case 'whole':
      return filtered(candidates, (i) => anchoredAt(sessions[i]!, cwds[i]!, term.text, term.kind));
    case 'out':
      return filtered(candidates, (i) => outputOf(sessions[i]!).includes(term.text));
    case 'in':
      return filtered(candidates, (i) => {
        const info = sessions[i]!;
        if (!pass.preparedOnly || isTextPrepared(info)) return hasHitIn(info, pass.patterns, term.place);
        pass.skipped.add(info);
        return false;
      });
    case 'not': {
      // The inner term's hits are not this session's hits: keep them out of the snippet.
      const inner = matchTerm(pass, term.term, candidates, []).positions;
      let k = 0;
      return filtered(candidates, (i) => {
        while (k < inner.length && inner[k]! < i) k++;
        return inner[k] !== i;
      });
    }
    case 'or': {
      const best = new Map<number, number>();
      for (const alternative of term.terms) {
        const found = matchTerm(pass, alternative, candidates, textHits);
        found.positions.forEach((i, k) => {
          best.set(i, Math.min(found.scores[k]!, best.get(i) ?? Number.POSITIVE_INFINITY));
        });
      }
      const positions = candidates.filter((i) => best.has(i));
      return { positions, scores: positions.map((i) => best.get(i)!) };
    }
    default:
      return filtered(candidates, (i) => passesFilter(sessions[i]!, term, pass.secrets, pass.index.hosts));
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
  const { sessions } = index;
  const filters = query.terms.filter(isFieldFilter);
  const rest = query.terms.filter((t) => !isFieldFilter(t));
  const others = [...rest.filter((t) => !placesHits(t)), ...rest.filter(placesHits)];
  const skipped = new Set<SessionInfo>();
  const preparedOnly = options.preparedOnly ?? false;
  const pass: Pass = {
    index,
    whole: filters.length === 0,
    preparedOnly,
    skipped,
    patterns: hitPatterns(query.terms),
    secrets: options.secrets,
    regex: {
      names: index.names,
      cwds: index.cwds,
      ids: index.ids,
      sessions,
      cache: index.regexCache,
      preparedOnly,
      skipped,
      pending: new Set(),
      deadline: performance.now() + (options.budgetMs ?? Number.POSITIVE_INFINITY),
      searched: 0,
      textTier: 2 * TIER,
    },
  };
  let candidates: readonly number[] =
    filters.length === 0
      ? index.everyPosition
      : index.everyPosition.filter((i) =>
          filters.every((t) => passesFilter(sessions[i]!, t, options.secrets, index.hosts)),
        );
  const scores = new Float64Array(sessions.length);
  const textHits: TextHitsByPosition = new Array(sessions.length);
  for (const term of others) {
    const matched = matchTerm(pass, term, candidates, textHits);
    matched.positions.forEach((i, k) => {
      scores[i]! += matched.scores[k]!;
    });
    candidates = matched.positions;
  }
  const matches = candidates.map((i): SessionMatch => {
    const hit = textHits[i];
    const info = sessions[i]!;
    return hit ? { info, score: scores[i]!, textHit: hit } : { info, score: scores[i]! };
  });
  return { matches, unindexed: pass.skipped.size, pending: pass.regex.pending.size };
}
