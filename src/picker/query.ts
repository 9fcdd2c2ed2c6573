/**
 * The picker's search language (pure): parsing a query line into terms, and matching sessions.
 *
 * Syntax (tokens are separated by whitespace and ANDed):
 *   word            fuzzy on name and cwd (fuse.js, for typos), case-insensitive substring of name,
 *                   cwd, id and the full message text (every user/assistant message on every
 *                   branch), else an abbreviation (in-order subsequence) of the name or cwd like pi
 *   "some phrase"   case-insensitive substring, whitespace runs count as one space
 *   re:<regex>      case-insensitive JavaScript regex over name, then message text, cwd and id.
 *                   Like pi, `re:` takes the REST of the line (spaces included), so
 *                   `is:named re:foo bar` is is:named AND /foo bar/i.
 *   cwd:x name:x model:x label:x     substring of that field (any model / any label); quotes allowed
 *   after:<date|age> before:<date|age>   `modified` at/after or before: 2026-01-05, 2w, 30d, 12h
 *   size:>10mb size:<500kb (also >=, <=; no operator means >=)
 *   is:named is:empty is:fork is:live
 *
 * Unknown `foo:bar` tokens are plain words (paths and URLs contain colons). A predicate with no
 * value yet (`cwd:` while typing) matches everything instead of flashing an error.
 *
 * Ranking (lower score is better, summed over terms): a name hit (tier 0) beats a fuzzy name hit
 * (tier 1), which beats a message-text/cwd/id substring hit (tier 2), which beats a fuzzy cwd hit
 * (tier 3), which beats pi's abbreviation tier: the word as a subsequence of the name (tier 4),
 * then of the cwd (tier 5), as in pi's `/resume` (`sqlite idx`, `rfctr cfg`). Ties are left to
 * the caller's recency order (`sort.ts`).
 *
 * Speed: matching a keystroke over thousands of sessions with ~100 KB of text each must stay well
 * under 50 ms, so (1) the lower-cased, whitespace-collapsed message text is computed once per
 * session object (WeakMap; `prepareTexts` lets the screen do it in idle time), (2) fuse only ever
 * sees names and the few distinct cwds, never the text, and (3) substring results are cached per
 * pattern: a pattern that contains a cached one ("auth" after "aut") only scans the sessions the
 * shorter one matched, which is what typing produces.
 */
import Fuse from 'fuse.js';
import { parseDateOrAge, parseSize } from '../format.js';
import type { SessionInfo } from '../store/types.js';
import { isOwnLastWrite } from './own-write.js';
import { subsequenceScore } from './subsequence.js';

/** A session modified within this window may be open in a running pi. */
export const LIVE_WINDOW_MS = 5 * 60 * 1000;

export type FieldName = 'cwd' | 'name' | 'model' | 'label';
export type IsFlag = 'named' | 'empty' | 'fork' | 'live';

export type QueryTerm =
  /** Lower-cased word (no whitespace). */
  | { kind: 'word'; text: string }
  /** Lower-cased phrase with whitespace runs collapsed to one space. */
  | { kind: 'phrase'; text: string }
  | { kind: 'regex'; source: string; re: RegExp }
  /** Lower-cased substring of a field. */
  | { kind: 'field'; field: FieldName; text: string }
  | { kind: 'after'; ms: number }
  | { kind: 'before'; ms: number }
  | { kind: 'size'; op: '>' | '<' | '>=' | '<='; bytes: number }
  /** `sinceMs` is only used by `live`: parse time minus LIVE_WINDOW_MS. */
  | { kind: 'is'; flag: IsFlag; sinceMs: number };

export type ParsedQuery = { ok: true; terms: QueryTerm[] } | { ok: false; error: string };

const FIELD_NAMES: readonly FieldName[] = ['cwd', 'name', 'model', 'label'];
const IS_FLAGS: readonly IsFlag[] = ['named', 'empty', 'fork', 'live'];

interface RawToken {
  text: string;
  /** Whether any part of the token was inside double quotes. */
  quoted: boolean;
  /** Whether the token was entirely one quoted section (a phrase). */
  wholeQuoted: boolean;
}

type Tokenized = { ok: true; tokens: RawToken[]; regex?: string } | { ok: false; error: string };

/** Splits on whitespace outside double quotes; stops at an unquoted `re:` (it takes the rest). */
function tokenize(input: string): Tokenized {
  const tokens: RawToken[] = [];
  let i = 0;
  const n = input.length;
  while (i < n) {
    while (i < n && /\s/.test(input[i] ?? '')) i++;
    if (i >= n) break;
    if (input.startsWith('re:', i)) return { ok: true, tokens, regex: input.slice(i + 3).trim() };
    let text = '';
    let quoted = false;
    let inQuote = false;
    let quoteStart = -1;
    let sections = 0;
    let unquotedChars = 0;
    while (i < n) {
      const ch = input[i] ?? '';
      if (ch === '"') {
        inQuote = !inQuote;
        if (inQuote) {
          quoteStart = i;
          sections++;
        }
        quoted = true;
        i++;
        continue;
      }
      if (!inQuote && /\s/.test(ch)) break;
      if (!inQuote) unquotedChars++;
      text += ch;
      i++;
    }
    if (inQuote) return { ok: false, error: `unclosed quote at column ${quoteStart + 1}: add a closing "` };
    tokens.push({ text, quoted, wholeQuoted: quoted && sections === 1 && unquotedChars === 0 });
  }
  return { ok: true, tokens };
}

const collapseSpaces = (s: string): string => s.replace(/\s+/g, ' ').trim();

function parseSizeTerm(value: string): QueryTerm | string {
  const match = /^(>=|<=|>|<)?(.*)$/.exec(value);
  const op = (match?.[1] ?? '>=') as '>' | '<' | '>=' | '<=';
  const size = parseSize(match?.[2] ?? '');
  if (!size.ok) return `size: ${size.error}`;
  return { kind: 'size', op, bytes: size.value };
}

/**
 * Parses a query line. `nowMs` anchors relative dates (`after:2w`) and `is:live`.
 * Errors are values: an unclosed quote, an invalid regex, a bad date/size or an unknown `is:`.
 */
export function parseQuery(input: string, nowMs: number): ParsedQuery {
  const tokenized = tokenize(input);
  if (!tokenized.ok) return tokenized;
  const terms: QueryTerm[] = [];
  for (const token of tokenized.tokens) {
    if (token.wholeQuoted) {
      const text = collapseSpaces(token.text).toLowerCase();
      if (text !== '') terms.push(text.includes(' ') ? { kind: 'phrase', text } : { kind: 'word', text });
      continue;
    }
    const colon = token.text.indexOf(':');
    const prefix = colon > 0 ? token.text.slice(0, colon).toLowerCase() : '';
    const value = colon > 0 ? token.text.slice(colon + 1) : '';
    const known = (FIELD_NAMES as readonly string[]).includes(prefix) || ['after', 'before', 'size', 'is'].includes(prefix);
    if (!known) {
      // Quotes inside a word (`foo"bar"`) just group; the word may now hold spaces.
      const text = collapseSpaces(token.text).toLowerCase();
      if (text !== '') terms.push(text.includes(' ') ? { kind: 'phrase', text } : { kind: 'word', text });
      continue;
    }
    // Predicate without a value yet: the user is still typing it.
    if (value.trim() === '') continue;
    if ((FIELD_NAMES as readonly string[]).includes(prefix)) {
      terms.push({ kind: 'field', field: prefix as FieldName, text: collapseSpaces(value).toLowerCase() });
    } else if (prefix === 'after' || prefix === 'before') {
      const when = parseDateOrAge(value, nowMs);
      if (!when.ok) return { ok: false, error: `${prefix}: ${when.error}` };
      terms.push({ kind: prefix, ms: when.value });
    } else if (prefix === 'size') {
      const term = parseSizeTerm(value);
      if (typeof term === 'string') return { ok: false, error: term };
      terms.push(term);
    } else {
      const flag = value.toLowerCase();
      if (!(IS_FLAGS as readonly string[]).includes(flag)) {
        return { ok: false, error: `unknown is:${value} (use ${IS_FLAGS.map((f) => `is:${f}`).join(', ')})` };
      }
      terms.push({ kind: 'is', flag: flag as IsFlag, sinceMs: nowMs - LIVE_WINDOW_MS });
    }
  }
  if (tokenized.regex !== undefined && tokenized.regex !== '') {
    try {
      terms.push({ kind: 'regex', source: tokenized.regex, re: new RegExp(tokenized.regex, 'i') });
    } catch (error) {
      return { ok: false, error: `invalid regex: ${(error as Error).message}` };
    }
  }
  return { ok: true, terms };
}

/** Whether a parsed query ranks results (has word/phrase/regex terms), as opposed to only filtering. */
export function hasRankingTerms(query: ParsedQuery): boolean {
  return query.ok && query.terms.some((t) => t.kind === 'word' || t.kind === 'phrase' || t.kind === 'regex');
}

// ---------------------------------------------------------------------------------------------
// Prepared text

const preparedText = new WeakMap<SessionInfo, string>();
let flattenSink = 0;

/** Lower-case, every whitespace run collapsed to one space (the form all text matching uses). */
export function normalizeText(s: string): string {
  const lower = s.toLowerCase();
  // Cheap pre-check: most text needs no replace (the regex replace dominates preparation time).
  return /[\t\n\r\f\v\u00a0\u2028\u2029]|\s\s/.test(lower) ? lower.replace(/\s+/g, ' ') : lower;
}

function textOf(info: SessionInfo): string {
  let text = preparedText.get(info);
  if (text === undefined) {
    text = normalizeText(info.allMessagesText);
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
export function prepareTexts(sessions: readonly SessionInfo[], budgetMs: number, clock: () => number = performance.now.bind(performance)): number {
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

// ---------------------------------------------------------------------------------------------
// Index and matching

interface PatternHits {
  /** Prepared-text index of the first occurrence, per matching session. */
  hits: Map<SessionInfo, number>;
}

const FUSE_THRESHOLD = 0.3;
/** Fuzzy matching of one- and two-letter words only produces noise. */
const FUZZY_MIN_LENGTH = 3;
const PATTERN_CACHE_SIZE = 48;

export interface SearchIndex {
  readonly sessions: readonly SessionInfo[];
  readonly names: readonly string[];
  readonly cwds: readonly string[];
  readonly ids: readonly string[];
  readonly nameFuse: Fuse<{ i: number; name: string }>;
  readonly cwdFuse: Fuse<string>;
  /** Fuzzy results per word: session position → fuse score (0 = perfect). */
  readonly fuzzyNameCache: Map<string, Map<number, number>>;
  readonly fuzzyCwdCache: Map<string, Map<string, number>>;
  /** Complete substring scans of the prepared text, per pattern (insertion order = age). */
  readonly patternCache: Map<string, PatternHits>;
}

/** Builds the per-list index (fuse over names and distinct cwds). Build it once per session list. */
export function createSearchIndex(sessions: readonly SessionInfo[]): SearchIndex {
  const names = sessions.map((s) => (s.name ?? '').toLowerCase());
  const cwds = sessions.map((s) => s.cwd.toLowerCase());
  const named = sessions.flatMap((s, i) => (s.name && s.name.trim() !== '' ? [{ i, name: s.name }] : []));
  const options = { ignoreLocation: true, includeScore: true, threshold: FUSE_THRESHOLD, isCaseSensitive: false };
  return {
    sessions,
    names,
    cwds,
    ids: sessions.map((s) => s.id.toLowerCase()),
    nameFuse: new Fuse(named, { ...options, keys: ['name'] }),
    cwdFuse: new Fuse([...new Set(sessions.map((s) => s.cwd))], options),
    fuzzyNameCache: new Map(),
    fuzzyCwdCache: new Map(),
    patternCache: new Map(),
  };
}

function fuzzyNames(index: SearchIndex, word: string): Map<number, number> {
  let found = index.fuzzyNameCache.get(word);
  if (!found) {
    found = new Map();
    if (word.length >= FUZZY_MIN_LENGTH) {
      for (const r of index.nameFuse.search(word)) found.set(r.item.i, r.score ?? 0);
    }
    index.fuzzyNameCache.set(word, found);
  }
  return found;
}

function fuzzyCwds(index: SearchIndex, word: string): Map<string, number> {
  let found = index.fuzzyCwdCache.get(word);
  if (!found) {
    found = new Map();
    if (word.length >= FUZZY_MIN_LENGTH) {
      for (const r of index.cwdFuse.search(word)) found.set(r.item, r.score ?? 0);
    }
    index.fuzzyCwdCache.set(word, found);
  }
  return found;
}

/**
 * pi's last tier: the word as an abbreviation (a subsequence) of the name, else of the cwd. A
 * name abbreviation ranks before a cwd one; within each, pi's score (clamped into the tier).
 */
function abbreviationScore(word: string, name: string, cwd: string): number | undefined {
  if (word.length < FUZZY_MIN_LENGTH) return undefined;
  const inName = name === '' ? undefined : subsequenceScore(word, name);
  if (inName !== undefined) return 4 * TIER + clampInTier(inName);
  const inCwd = subsequenceScore(word, cwd);
  return inCwd === undefined ? undefined : 5 * TIER + clampInTier(inCwd);
}

/** pi's scores run from about -150 (bonuses) upwards; keep them inside one tier's range. */
function clampInTier(score: number): number {
  return Math.min(TIER - 1, Math.max(0, score + 200));
}

export interface TextHit {
  /** Offset and length of the first match in the prepared (normalised) text. */
  start: number;
  length: number;
}

export interface SessionMatch {
  info: SessionInfo;
  /** Lower is better (see the module comment); 0 for filter-only queries. */
  score: number;
  /** The first message-text hit, for the snippet. */
  textHit?: TextHit;
}

export interface SearchOutcome {
  /** Matches in the order of `index.sessions`. */
  matches: SessionMatch[];
  /**
   * Sessions whose text was not searched because it is not prepared yet (only with
   * `preparedOnly`); the screen says "searching n of N".
   */
  unindexed: number;
}

export interface SearchOptions {
  /** Skip the message text of sessions not yet prepared instead of preparing it now. */
  preparedOnly?: boolean;
}

function passesFilter(info: SessionInfo, term: QueryTerm): boolean {
  switch (term.kind) {
    case 'field': {
      if (term.field === 'cwd') return info.cwd.toLowerCase().includes(term.text);
      if (term.field === 'name') return (info.name ?? '').toLowerCase().includes(term.text);
      const list = term.field === 'model' ? info.models : info.labels;
      return list.some((v) => v.toLowerCase().includes(term.text));
    }
    case 'after':
      return info.modified.getTime() >= term.ms;
    case 'before':
      return info.modified.getTime() < term.ms;
    case 'size':
      switch (term.op) {
        case '>':
          return info.size > term.bytes;
        case '<':
          return info.size < term.bytes;
        case '>=':
          return info.size >= term.bytes;
        case '<=':
          return info.size <= term.bytes;
      }
      return false;
    case 'is':
      switch (term.flag) {
        case 'named':
          return info.name !== undefined && info.name.trim() !== '';
        // "No assistant reply": the store lists every model that answered, so none means the
        // session never got a reply (an aborted first prompt, or a file with no messages).
        case 'empty':
          return info.assistantMessageCount === 0;
        case 'fork':
          return info.parentSessionPath !== undefined;
        case 'live':
          return !isOwnLastWrite(info) && (info.modified.getTime() >= term.sinceMs || info.mtimeMs >= term.sinceMs);
      }
      return false;
    default:
      return true;
  }
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
    if (preparedOnly && !preparedText.has(info)) {
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

/** Runs a successfully parsed query over the index. */
export function searchSessions(index: SearchIndex, query: ParsedQuery, options: SearchOptions = {}): SearchOutcome {
  if (!query.ok) return { matches: [], unindexed: 0 };
  const preparedOnly = options.preparedOnly ?? false;
  const filters = query.terms.filter((t) => t.kind !== 'word' && t.kind !== 'phrase' && t.kind !== 'regex');
  const ranked = query.terms.filter((t) => t.kind === 'word' || t.kind === 'phrase' || t.kind === 'regex');

  const positions = new Map<SessionInfo, number>();
  index.sessions.forEach((info, i) => positions.set(info, i));
  let candidates: SessionInfo[] =
    filters.length === 0 ? [...index.sessions] : index.sessions.filter((info) => filters.every((t) => passesFilter(info, t)));
  const whole = filters.length === 0;
  const scores = new Map<SessionInfo, number>();
  const textHits = new Map<SessionInfo, TextHit>();
  const skipped = new Set<SessionInfo>();

  for (const term of ranked) {
    const next: SessionInfo[] = [];
    if (term.kind === 'regex') {
      for (const info of candidates) {
        const i = positions.get(info) ?? 0;
        let tier: number | undefined;
        if (term.re.test(info.name ?? '')) tier = 0;
        else {
          let hit: RegExpExecArray | null = null;
          if (!(preparedOnly && !preparedText.has(info))) hit = term.re.exec(textOf(info));
          else skipped.add(info);
          if (hit) {
            tier = 2;
            if (!textHits.has(info)) textHits.set(info, { start: hit.index, length: hit[0].length });
          } else if (term.re.test(index.cwds[i] ?? '') || term.re.test(index.ids[i] ?? '')) tier = 2;
        }
        if (tier === undefined) continue;
        scores.set(info, (scores.get(info) ?? 0) + tier * TIER);
        next.push(info);
      }
    } else {
      const pattern = term.text;
      const inText = scanText(index, pattern, candidates, whole, preparedOnly, skipped);
      const fuzzyName = term.kind === 'word' ? fuzzyNames(index, pattern) : undefined;
      const fuzzyCwd = term.kind === 'word' ? fuzzyCwds(index, pattern) : undefined;
      for (const info of candidates) {
        const i = positions.get(info) ?? 0;
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
        if (score === undefined) continue;
        scores.set(info, (scores.get(info) ?? 0) + score);
        next.push(info);
      }
    }
    candidates = next;
  }

  const matches = candidates.map((info): SessionMatch => {
    const hit = textHits.get(info);
    return hit ? { info, score: scores.get(info) ?? 0, textHit: hit } : { info, score: scores.get(info) ?? 0 };
  });
  return { matches, unindexed: skipped.size };
}

// ---------------------------------------------------------------------------------------------
// Snippets

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
  const prepared = textOf(info);
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
