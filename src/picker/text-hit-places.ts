/**
 * Branch-aware full-text hits (pure): where in its session's tree each message-text
 * hit is (active, abandoned, compacted: the listing's `textPlaces` runs, store/summary/text-places.ts),
 * for the `in:` predicates, the row's counts and the best hit its snippet shows. A hit in a branch
 * or compaction summary (after the message text: query-text.ts searchedText) takes its summary's
 * place (`summaryPlaces`), and the tree opens on that summary's entry.
 *
 * Speed: nearly every session is all active (`textPlaces` is []), and then nothing here costs
 * more than the search itself did. The counts need every occurrence, so they are only made for
 * the rows drawn (memoised per session and query); `in:` stops at the first hit in the place.
 */

import { type EntryPlace, PLACE_CODES, type SessionInfo } from '../store/index.js';
import type { LinearRegex } from '../text/linear-regex.js';
import type { ParsedQuery, QueryTerm } from './query-language.js';
import { snippetFor } from './query-snippet.js';
import { normalizeText, searchedText, textOf } from './query-text.js';
import type { TextHit } from './session-match.js';

export type { EntryPlace };

/** What finds message-text hits: a substring of the prepared text, or a regex (RE2: linear time). */
export type HitPattern = string | LinearRegex;

/** The text terms of a query whose hits are the session's hits (not those under `!`). */
export function hitPatterns(terms: readonly QueryTerm[]): HitPattern[] {
  const out: HitPattern[] = [];
  for (const term of terms) {
    if (term.kind === 'word' || term.kind === 'phrase' || term.kind === 'exact') out.push(term.text);
    else if (term.kind === 'regex') out.push(term.re);
    else if (term.kind === 'or') out.push(...hitPatterns(term.terms));
  }
  return out.filter((p) => p !== '');
}

const preparedRuns = new WeakMap<SessionInfo, Int32Array | null>();

/**
 * Runs `[end, value, …]` over the searched text, moved onto the prepared text (query-text.ts
 * lower-cases and collapses whitespace, which moves offsets). Each run is prepared alone; a
 * whitespace run across two runs' boundary is one space in the whole, counted once.
 */
function preparedRunsOf(text: string, raw: readonly number[]): Int32Array {
  // normalizeText's own test: whitespace is collapsed only when the text has some to collapse.
  const collapses = /[\t\n\r\f\v\u00a0\u2028\u2029]|\s\s/.test(text);
  const runs = new Int32Array(raw.length);
  let from = 0;
  let prepared = 0;
  let previousEndsInSpace = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const end = raw[i]!;
    const piece = text.slice(from, end);
    const normal = collapses ? normalizeText(piece) : piece.toLowerCase();
    prepared += normal.length - (collapses && previousEndsInSpace && /^\s/.test(piece) ? 1 : 0);
    if (piece !== '') previousEndsInSpace = /\s$/.test(piece);
    runs[i] = prepared;
    runs[i + 1] = raw[i + 1]!;
    from = end;
  }
  return runs;
}

/** The summaries' `[end, value]` pairs as runs over the searched text (they follow the message text and its space). */
function summaryRuns(info: SessionInfo, value: (i: number) => number): number[] {
  const base = info.allMessagesText.length + 1;
  const pairs = info.summaryPlaces;
  const out: number[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) out.push(base + pairs[i]!, value(i / 2));
  return out;
}

/**
 * `textPlaces` and `summaryPlaces` over the prepared text: `[end, code, …]`, or null when all of
 * the text is active (nearly every session: then nothing is prepared here).
 */
export function placeRuns(info: SessionInfo): Int32Array | null {
  let runs = preparedRuns.get(info);
  if (runs !== undefined) return runs;
  const messages = info.textPlaces;
  const summaries = info.summaryPlaces;
  let summariesActive = true;
  for (let i = 1; i < summaries.length; i += 2) if (summaries[i] !== 0) summariesActive = false;
  if (summariesActive && messages.length === 0) runs = null;
  else {
    const raw = messages.length === 0 ? [info.allMessagesText.length, 0] : [...messages];
    if (summaries.length > 0) raw.push(...summaryRuns(info, (i) => summaries[i * 2 + 1]!));
    runs = preparedRunsOf(searchedText(info), raw);
  }
  preparedRuns.set(info, runs);
  return runs;
}

const preparedSummaries = new WeakMap<SessionInfo, Int32Array>();

/**
 * The entry of the summary that holds the prepared-text offset `at`, or undefined when `at` is in
 * the message text (or the session has no summaries).
 */
export function summaryEntryAt(info: SessionInfo, at: number): string | undefined {
  const entries = info.summaryEntries;
  if (entries.length === 0) return undefined;
  let runs = preparedSummaries.get(info);
  if (runs === undefined) {
    // Value -1 for the message text, else the summary's index.
    runs = preparedRunsOf(searchedText(info), [info.allMessagesText.length, -1, ...summaryRuns(info, (i) => i)]);
    preparedSummaries.set(info, runs);
  }
  for (let i = 0; i + 1 < runs.length; i += 2) {
    if (runs[i]! <= at) continue;
    const summary = runs[i + 1]!;
    return summary < 0 ? undefined : entries[summary];
  }
  return undefined;
}

/** The place of the prepared-text offset `at`. */
export function placeAt(runs: Int32Array | null, at: number): EntryPlace {
  if (runs === null) return 'active';
  let lo = 0;
  let hi = runs.length / 2 - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (runs[mid * 2]! > at) hi = mid;
    else lo = mid + 1;
  }
  return PLACE_CODES[runs[lo * 2 + 1]!] ?? 'active';
}

/** Every hit of `pattern` in `text`, in order, until `visit` returns true. */
function eachHit(text: string, pattern: HitPattern, visit: (start: number, length: number) => boolean): void {
  if (typeof pattern === 'string') {
    for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + pattern.length))
      if (visit(at, pattern.length)) return;
    return;
  }
  pattern.each(text, visit);
}

/**
 * Whether the session has a hit of `patterns` in `place` (no patterns: any message text there).
 * The caller has prepared the text (or knows it may).
 */
export function hasHitIn(info: SessionInfo, patterns: readonly HitPattern[], place: EntryPlace): boolean {
  const runs = placeRuns(info);
  if (patterns.length === 0) {
    if (runs === null) return place === 'active' && searchedText(info) !== '';
    const code = PLACE_CODES.indexOf(place);
    for (let i = 1; i < runs.length; i += 2) if (runs[i] === code) return true;
    return false;
  }
  if (runs === null && place !== 'active') return false;
  const text = textOf(info);
  let found = false;
  for (const pattern of patterns) {
    if (runs !== null && typeof pattern === 'string') found = inRunsOf(text, pattern, runs, PLACE_CODES.indexOf(place));
    else eachHit(text, pattern, (start) => (found = placeAt(runs, start) === place));
    if (found) return true;
  }
  return false;
}

/**
 * Whether `pattern` starts inside a run of `code`: one indexOf per run of that place, not one per
 * occurrence (a short pattern occurs thousands of times in a long session).
 */
function inRunsOf(text: string, pattern: string, runs: Int32Array, code: number): boolean {
  let at = -1;
  for (let i = 0; i < runs.length; i += 2) {
    if (runs[i + 1] !== code) continue;
    const start = i === 0 ? 0 : runs[i - 2]!;
    const end = runs[i]!;
    if (at >= end) continue;
    if (at < start) at = text.indexOf(pattern, start);
    if (at === -1) return false;
    if (at < end) return true;
  }
  return false;
}

export interface HitTags {
  counts: Record<EntryPlace, number>;
  /** The counts stopped at REGEX_HITS_COUNTED: there are more hits than they say. */
  atLeast?: boolean;
  /** The hit the snippet shows: the first in the first place of `preference` that has one. */
  best: TextHit & { place: EntryPlace };
}

/** Active first: what the model still sees is what a person most likely looks for. */
const DEFAULT_PREFERENCE: readonly EntryPlace[] = ['active', 'compacted', 'abandoned'];

/** The places a query's positive `in:` terms ask for, best first (none: DEFAULT_PREFERENCE). */
export function placePreference(query: ParsedQuery): readonly EntryPlace[] {
  if (!query.ok) return DEFAULT_PREFERENCE;
  const asked: EntryPlace[] = [];
  const visit = (term: QueryTerm): void => {
    if (term.kind === 'in') asked.push(term.place);
    else if (term.kind === 'or') term.terms.forEach(visit);
  };
  query.terms.forEach(visit);
  return asked.length === 0 ? DEFAULT_PREFERENCE : [...new Set([...asked, ...DEFAULT_PREFERENCE])];
}

const queryPatterns = new WeakMap<ParsedQuery, HitPattern[]>();

function patternsOf(query: ParsedQuery & { ok: true }): HitPattern[] {
  let patterns = queryPatterns.get(query);
  if (!patterns) {
    patterns = hitPatterns(query.terms);
    queryPatterns.set(query, patterns);
  }
  return patterns;
}

const tagCache = new WeakMap<SessionInfo, { query: ParsedQuery; tags: HitTags | undefined }>();

/** Every message-text hit of the query in the session, counted by place, and the best one. */
export function tagHits(info: SessionInfo, query: ParsedQuery): HitTags | undefined {
  const cached = tagCache.get(info);
  if (cached?.query === query) return cached.tags;
  const tags = computeTags(info, query);
  tagCache.set(info, { query, tags });
  return tags;
}

function computeTags(info: SessionInfo, query: ParsedQuery): HitTags | undefined {
  if (!query.ok) return undefined;
  const patterns = patternsOf(query);
  if (patterns.length === 0) return undefined;
  const runs = placeRuns(info);
  const text = textOf(info);
  const counts: Record<EntryPlace, number> = { active: 0, abandoned: 0, compacted: 0 };
  const first: Partial<Record<EntryPlace, TextHit>> = {};
  let atLeast = false;
  for (const pattern of patterns) {
    let seen = 0;
    eachHit(text, pattern, (start, length) => {
      const place = placeAt(runs, start);
      counts[place]++;
      const known = first[place];
      if (known === undefined || start < known.start) first[place] = { start, length };
      if (typeof pattern !== 'string' && ++seen >= REGEX_HITS_COUNTED) atLeast = true;
      return atLeast;
    });
  }
  for (const place of placePreference(query)) {
    const hit = first[place];
    if (hit) return { counts, best: { ...hit, place }, ...(atLeast ? { atLeast } : {}) };
  }
  return undefined;
}

/**
 * A regex's hits in one session are counted up to this many: RE2 finds each in linear time, but
 * at microseconds a hit, so `re:e` over a long text would hold up the drawing of its row.
 */
export const REGEX_HITS_COUNTED = 1000;

/** `1 abandoned · 3 active`: the best hit's place first, then the others that have hits. */
export function hitCountsText(tags: HitTags): string {
  const order = [tags.best.place, ...PLACE_CODES.filter((p) => p !== tags.best.place)];
  return order
    .filter((place) => tags.counts[place] > 0)
    .map((place) => `${tags.counts[place]}${tags.atLeast ? '+' : ''} ${place}`)
    .join(' · ');
}

/** Whether the query has an `in:` term anywhere (then every row may show where its hits are). */
export function hasPlaceTerms(query: ParsedQuery): boolean {
  const visit = (term: QueryTerm): boolean =>
    term.kind === 'in' || (term.kind === 'not' && visit(term.term)) || (term.kind === 'or' && term.terms.some(visit));
  return query.ok && query.terms.some(visit);
}

/** The hit a row shows (the best by place when the text has hits, else the search's first) and its tag. */
export function shownHit(
  info: SessionInfo,
  textHit: TextHit | undefined,
  query: ParsedQuery,
): { hit: TextHit; place?: EntryPlace; tag?: { full: string; short: string } } | undefined {
  const tags = textHit || hasPlaceTerms(query) ? tagHits(info, query) : undefined;
  if (tags)
    return { hit: tags.best, place: tags.best.place, tag: { full: hitCountsText(tags), short: tags.best.place } };
  return textHit ? { hit: textHit } : undefined;
}

/** Where the tree opens for a row: the shown hit's text, as the tree searches it, and its place. */
export interface HitFocus {
  /** The hit's text, lower-cased with whitespace runs as one space (the tree's search takes it as tokens). */
  text: string;
  place: EntryPlace;
  /** The summary's entry when the hit is in a branch or compaction summary: the tree opens on it. */
  entryId?: string;
  /**
   * Every word the query searched the text for (`inventory service`), when more than the hit's:
   * the tree searches for all of them where one entry holds them all, else for the hit's text.
   */
  words?: string;
}

/** The texts a query looks for in the messages, as one search of the tree (its plain and quoted words; not negated or either-or ones). */
function queryWords(query: ParsedQuery): string {
  if (!query.ok) return '';
  const texts: string[] = [];
  for (const term of query.terms)
    if (
      term.kind === 'word' ||
      term.kind === 'phrase' ||
      term.kind === 'exact' ||
      term.kind === 'prefix' ||
      term.kind === 'suffix' ||
      term.kind === 'whole'
    )
      texts.push(term.text);
  return texts.join(' ').replace(/\s+/g, ' ').trim().toLowerCase();
}

export function hitFocus(info: SessionInfo, textHit: TextHit | undefined, query: ParsedQuery): HitFocus | undefined {
  const shown = shownHit(info, textHit, query);
  if (!shown) return undefined;
  const text = snippetFor(info, shown.hit, 0, 0).match.replace(/\s+/g, ' ').trim().toLowerCase();
  if (text === '') return undefined;
  const entryId = summaryEntryAt(info, shown.hit.start);
  const focus: HitFocus = {
    text,
    place: shown.place ?? placeAt(placeRuns(info), shown.hit.start),
    ...(entryId === undefined ? {} : { entryId }),
  };
  const words = queryWords(query);
  return words !== '' && words !== text && words.includes(' ') ? { ...focus, words } : focus;
}
