/**
 * The picker's search language (pure): a query line → terms. Matching is query-engine.ts; the
 * syntax as users read it (the `?` help and the README) is the table in query-syntax.ts.
 *
 * Tokens are separated by whitespace and ANDed:
 *   word            fuzzy on name and cwd (fuse.js, for typos), case-insensitive substring of name,
 *                   cwd, id and the full message text (every user/assistant message on every
 *                   branch), else an abbreviation (in-order subsequence) of the name or cwd like pi
 *   "some phrase"   case-insensitive substring, whitespace runs count as one space
 *   re:<regex>      case-insensitive regex over name, then message text, cwd and id, in RE2 syntax
 *                   (src/text/linear-regex.ts: time linear in the text, so no pattern can freeze
 *                   the picker). Like pi, `re:` takes the REST of the line (spaces included), so
 *                   `is:named re:foo bar` is is:named AND /foo bar/i.
 *   cwd:x name:x model:x label:x     substring of that field (any model / any label); quotes allowed
 *   tool:x          a tool whose name contains x was called
 *   file:x          a tool call touched a path containing x (read/edit/write paths, bash commands)
 *   host:x          the machine that wrote it contains x, where that is known (a conflict copy's
 *                   device, a path mapping's host: store/sync/host.ts)
 *   out:x           tool output text (bounded per call and per session, see store/summary/tool-facts.ts)
 *   after:<date|age> before:<date|age>   `modified` at/after or before: 2026-01-05, 2w, 30d, 12h
 *   size:>10mb size:<500kb (also >=, <=; no operator means >=)
 *   is:named is:empty is:fork is:live
 *   has:secret      the secret scan (check --secrets) found a credential in it; the scope is scanned
 *                   when a query first asks (its results are kept in the catalogue)
 *   in:active in:abandoned in:compacted   a message-text hit of the query's text terms is on the
 *                   path pi resumes, on a branch pi is not on, or before the latest compaction
 *                   (alone: the session has message text there); see text-hit-places.ts
 *
 * fzf's operators, on tokens that are not quoted as a whole (pi gives none of these characters a
 * meaning at the start of a word, nor `|` inside one):
 *   'word    exact: a substring of name, cwd, id or text, no fuzzy or abbreviation match
 *   ^word    prefix: the title (name, else first prompt), the cwd or its last folder starts with it
 *   word$    suffix: one of them ends with it (`^word$`: one of them is it)
 *   !token   not: sessions the token does not match (`!word` is exact, `!tool:bash`, `!is:named`)
 *   a|b      or: either token (each side any token above but re:; `'a|^b|tool:x`)
 *
 * Unknown `foo:bar` tokens are plain words (paths and URLs contain colons). A predicate with no
 * value yet (`cwd:` while typing), or an operator alone (`!`, `a|`), matches everything instead of
 * flashing an error.
 */

import { parseDateOrAge, parseSize } from '../format.js';
import type { EntryPlace } from '../store/index.js';
import { compileLinearRegex, type LinearRegex } from '../text/linear-regex.js';

/** A session modified within this window may be open in a running pi. */
export const LIVE_WINDOW_MS = 5 * 60 * 1000;

/** Substring predicates over one of the session's fields (`tool` and `file`: its tool calls). */
export type FieldName = 'cwd' | 'name' | 'model' | 'label' | 'tool' | 'file' | 'host';
export type IsFlag = 'named' | 'empty' | 'fork' | 'live';
/** What a session holds that a scan other than the listing finds (`has:`). */
export type HasWhat = 'secret';

/** A term that is one token of the line (all but `re:`, which takes the rest of it). */
export type TokenTerm =
  /** Lower-cased word (no whitespace). */
  | { kind: 'word'; text: string }
  /** Lower-cased phrase with whitespace runs collapsed to one space. */
  | { kind: 'phrase'; text: string }
  /** `'word`: lower-cased substring of name, cwd, id or text, nothing fuzzy. */
  | { kind: 'exact'; text: string }
  /** `^word`: lower-cased prefix of the title, the cwd or the cwd's last folder. */
  | { kind: 'prefix'; text: string }
  /** `word$`: lower-cased suffix of the same; `^word$` (whole): the whole of one of them. */
  | { kind: 'suffix'; text: string }
  | { kind: 'whole'; text: string }
  /** Lower-cased substring of a field. */
  | { kind: 'field'; field: FieldName; text: string }
  /** `out:x`: lower-cased, whitespace-collapsed substring of the tool output text. */
  | { kind: 'out'; text: string }
  | { kind: 'after'; ms: number }
  | { kind: 'before'; ms: number }
  | { kind: 'size'; op: '>' | '<' | '>=' | '<='; bytes: number }
  /** `sinceMs` is only used by `live`: parse time minus LIVE_WINDOW_MS. */
  | { kind: 'is'; flag: IsFlag; sinceMs: number }
  /** `has:secret`: the secret scan found something in the session. */
  | { kind: 'has'; what: HasWhat }
  /** `in:x`: a text hit (or, with no text term, any message text) at that place in the tree. */
  | { kind: 'in'; place: EntryPlace }
  | { kind: 'not'; term: TokenTerm }
  | { kind: 'or'; terms: TokenTerm[] };

export type QueryTerm = TokenTerm | { kind: 'regex'; source: string; re: LinearRegex };

export type ParsedQuery = { ok: true; terms: QueryTerm[] } | { ok: false; error: string };

const FIELD_NAMES: readonly FieldName[] = ['cwd', 'name', 'model', 'label', 'tool', 'file', 'host'];
const IS_FLAGS: readonly IsFlag[] = ['named', 'empty', 'fork', 'live'];
const HAS_WHAT: readonly HasWhat[] = ['secret'];
const IN_PLACES: readonly EntryPlace[] = ['active', 'abandoned', 'compacted'];
const PREDICATES: readonly string[] = [...FIELD_NAMES, 'out', 'after', 'before', 'size', 'is', 'has', 'in'];

interface RawToken {
  text: string;
  /** Whether any part of the token was inside double quotes. */
  quoted: boolean;
  /** Whether the token was entirely one quoted section (a phrase). */
  wholeQuoted: boolean;
  /** Whether its first character was inside quotes (then it is never an operator). */
  firstQuoted: boolean;
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
    let firstQuoted = false;
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
      if (text === '') firstQuoted = inQuote;
      text += ch;
      i++;
    }
    if (inQuote) return { ok: false, error: `unclosed quote at column ${quoteStart + 1}: add a closing "` };
    tokens.push({ text, quoted, wholeQuoted: quoted && sections === 1 && unquotedChars === 0, firstQuoted });
  }
  return { ok: true, tokens };
}

const collapseSpaces = (s: string): string => s.replace(/\s+/g, ' ').trim();

function parseSizeTerm(value: string): TokenTerm | string {
  const match = /^(>=|<=|>|<)?(.*)$/.exec(value);
  const op = (match?.[1] ?? '>=') as '>' | '<' | '>=' | '<=';
  const size = parseSize(match?.[2] ?? '');
  if (!size.ok) return `size: ${size.error}`;
  return { kind: 'size', op, bytes: size.value };
}

/** A word or, when quotes inside it grouped spaces (`foo"bar baz"`), a phrase. */
function literal(text: string): TokenTerm | undefined {
  const collapsed = collapseSpaces(text).toLowerCase();
  if (collapsed === '') return undefined;
  return collapsed.includes(' ') ? { kind: 'phrase', text: collapsed } : { kind: 'word', text: collapsed };
}

/** A `key:value` predicate; undefined when `text` is not one (or has no value yet: still typing). */
function predicate(text: string, nowMs: number): TokenTerm | string | undefined | 'not-a-predicate' {
  const colon = text.indexOf(':');
  const prefix = colon > 0 ? text.slice(0, colon).toLowerCase() : '';
  if (!PREDICATES.includes(prefix)) return 'not-a-predicate';
  const value = text.slice(colon + 1);
  if (value.trim() === '') return undefined;
  if ((FIELD_NAMES as readonly string[]).includes(prefix))
    return { kind: 'field', field: prefix as FieldName, text: collapseSpaces(value).toLowerCase() };
  if (prefix === 'out') return { kind: 'out', text: collapseSpaces(value).toLowerCase() };
  if (prefix === 'after' || prefix === 'before') {
    const when = parseDateOrAge(value, nowMs);
    return when.ok ? { kind: prefix, ms: when.value } : `${prefix}: ${when.error}`;
  }
  if (prefix === 'size') return parseSizeTerm(value);
  if (prefix === 'in') {
    const place = value.toLowerCase();
    if (!(IN_PLACES as readonly string[]).includes(place))
      return `unknown in:${value} (use ${IN_PLACES.map((p) => `in:${p}`).join(', ')})`;
    return { kind: 'in', place: place as EntryPlace };
  }
  if (prefix === 'has') {
    const what = value.toLowerCase();
    if (!(HAS_WHAT as readonly string[]).includes(what))
      return `unknown has:${value} (use ${HAS_WHAT.map((w) => `has:${w}`).join(', ')})`;
    return { kind: 'has', what: what as HasWhat };
  }
  const flag = value.toLowerCase();
  if (!(IS_FLAGS as readonly string[]).includes(flag))
    return `unknown is:${value} (use ${IS_FLAGS.map((f) => `is:${f}`).join(', ')})`;
  return { kind: 'is', flag: flag as IsFlag, sinceMs: nowMs - LIVE_WINDOW_MS };
}

/** One token → a term (undefined: matches everything for now; a string: the error). */
function parseToken(token: RawToken, nowMs: number): TokenTerm | string | undefined {
  if (token.wholeQuoted) return literal(token.text);
  const { text } = token;
  // `a|b`: only in tokens without quotes, so a quoted `|` stays a character.
  if (!token.quoted && text.includes('|')) {
    const terms: TokenTerm[] = [];
    for (const part of text.split('|')) {
      const term = parseToken({ text: part, quoted: false, wholeQuoted: false, firstQuoted: false }, nowMs);
      if (typeof term === 'string') return term;
      if (term !== undefined) terms.push(term);
    }
    return terms.length <= 1 ? terms[0] : { kind: 'or', terms };
  }
  const operator = token.firstQuoted ? '' : text[0];
  if (operator === '!' || operator === "'" || operator === '^') {
    const rest = text.slice(1);
    if (operator === '!') {
      const inner = parseToken({ ...token, text: rest }, nowMs);
      if (inner === undefined || typeof inner === 'string') return inner;
      // fzf: a negated word is an exact match (a fuzzy "not" would hide nearly everything).
      return { kind: 'not', term: inner.kind === 'word' ? { kind: 'exact', text: inner.text } : inner };
    }
    const value = collapseSpaces(rest).toLowerCase();
    if (value === '') return undefined;
    if (operator === '^' && value.length > 1 && value.endsWith('$')) return { kind: 'whole', text: value.slice(0, -1) };
    return { kind: operator === "'" ? 'exact' : 'prefix', text: value };
  }
  // fzf's suffix anchor, on a plain word (a predicate's value keeps its `$`: `cwd:$HOME`).
  if (!token.firstQuoted && text.length > 1 && text.endsWith('$') && !text.includes(':'))
    return { kind: 'suffix', text: collapseSpaces(text.slice(0, -1)).toLowerCase() };
  const term = predicate(text, nowMs);
  return term === 'not-a-predicate' ? literal(text) : term;
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
    const term = parseToken(token, nowMs);
    if (typeof term === 'string') return { ok: false, error: term };
    if (term !== undefined) terms.push(term);
  }
  if (tokenized.regex !== undefined && tokenized.regex !== '') {
    const compiled = compileLinearRegex(tokenized.regex);
    if (!compiled.ok) return { ok: false, error: compiled.error };
    terms.push({ kind: 'regex', source: tokenized.regex, re: compiled.regex });
  }
  return { ok: true, terms };
}

/** Whether the query asks what the secret scan found (`has:secret`, also under `!` or `|`). */
export function asksForSecrets(query: ParsedQuery): boolean {
  const asks = (term: QueryTerm): boolean =>
    term.kind === 'has' || (term.kind === 'not' && asks(term.term)) || (term.kind === 'or' && term.terms.some(asks));
  return query.ok && query.terms.some(asks);
}

/** Terms that score a session (and so rank results), as opposed to only filtering. */
export function isRankingTerm(term: QueryTerm): boolean {
  switch (term.kind) {
    case 'word':
    case 'phrase':
    case 'regex':
    case 'exact':
    case 'prefix':
    case 'suffix':
    case 'whole':
      return true;
    case 'or':
      return term.terms.some(isRankingTerm);
    default:
      return false;
  }
}

/** Whether a parsed query ranks results (has word/phrase/regex terms), as opposed to only filtering. */
export function hasRankingTerms(query: ParsedQuery): boolean {
  return query.ok && query.terms.some(isRankingTerm);
}

/**
 * Whether two parsed queries mean the same search (`fix  bug` and `fix bug `: the same terms), so a
 * keystroke that only changes spacing need not search again. Regexes compare by source (toJSON).
 */
export function sameQuery(a: ParsedQuery, b: ParsedQuery): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
