/**
 * The regular expressions a user types (`re:` in the picker's search) run on RE2 (the `re2js`
 * package, a pure-JavaScript port of RE2): matching takes time linear in the text whatever the
 * pattern, so no query can freeze the app the way `(a+)+$` freezes a backtracking engine on a long
 * run of `a`s. RE2 has no backreferences, lookahead, atomic groups or possessive quantifiers; a
 * pattern that uses them gets a one-line reason instead of a compile error. Lookbehind without
 * capture groups inside is allowed (re2js runs it in linear time too). JavaScript's `\uXXXX` and
 * `\u{…}` escapes are read as RE2's `\x{…}`, so a pattern written for JavaScript keeps working.
 */
import { RE2JS } from 're2js';

export interface RegexHit {
  start: number;
  length: number;
}

export interface LinearRegex {
  /** The pattern as typed. */
  readonly source: string;
  /** Whether the text has a match anywhere (RE2's DFA when it can: the cheap test). */
  test(text: string): boolean;
  /** The leftmost match, or undefined. */
  first(text: string): RegexHit | undefined;
  /** Every match in order (an empty match moves one character on), until `visit` returns true. */
  each(text: string, visit: (start: number, length: number) => boolean): void;
  /** How the query cache and `sameQuery` compare patterns. */
  toJSON(): string;
}

export type CompiledRegex = { ok: true; regex: LinearRegex } | { ok: false; error: string };

/** `\uXXXX` and `\u{X…}` (JavaScript) as `\x{…}` (RE2); every other escape is left as written. */
export function fromJavaScriptEscapes(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch !== '\\' || i + 1 >= source.length) {
      out += ch;
      continue;
    }
    const next = source[i + 1]!;
    const four = /^[0-9a-fA-F]{4}/.exec(source.slice(i + 2, i + 6));
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(source.slice(i + 2, i + 10));
    if (next === 'u' && braced) {
      out += `\\x{${braced[1]}}`;
      i += 1 + braced[0].length;
    } else if (next === 'u' && four) {
      out += `\\x{${four[0]}}`;
      i += 5;
    } else {
      out += ch + next;
      i++;
    }
  }
  return out;
}

/** RE2's parse error, said the way a person reads it (`re: lookahead is not supported`). */
export function explainRegexError(message: string): string {
  // re2js quotes the pattern with the case-insensitive flag it was given written in: not typed.
  const reason = message.replace(/^error parsing regexp: /, '').replace(/`\(\?i\)/g, '`');
  const code = /`([^`]*)`/.exec(reason)?.[1] ?? '';
  let why: string;
  if (/unsupported Perl syntax/.test(reason) && /^\(\?[=!]/.test(code)) why = 'lookahead is not supported';
  else if (/unsupported Perl syntax/.test(reason) && code.startsWith('(?>')) why = 'atomic groups are not supported';
  else if (/invalid capture in lookbehind/.test(reason))
    why = 'lookbehind is not supported with a capture group inside (use (?:…) there)';
  else if (/invalid named capture/.test(reason) && /\(\?<[=!]/.test(code)) why = 'this lookbehind is not supported';
  else if (/invalid escape sequence/.test(reason) && /^\\([1-9]|k)/.test(code))
    why = `backreferences (${code}) are not supported`;
  else if (/invalid escape sequence/.test(reason)) why = `the escape ${code} is not supported`;
  else if (/invalid nested repetition operator/.test(reason) && /^[*+?}][+]$/.test(code))
    why = `possessive quantifiers (${code}) are not supported`;
  else if (/invalid repeat count/.test(reason)) why = `repeat counts go up to 1000 (${code})`;
  else why = reason;
  return `re: ${why} (RE2 syntax)`;
}

class Re2Regex implements LinearRegex {
  constructor(
    readonly source: string,
    private readonly compiled: RE2JS,
  ) {}

  test(text: string): boolean {
    return this.compiled.test(text);
  }

  first(text: string): RegexHit | undefined {
    // The DFA's no is far cheaper than the matcher's: most texts do not match.
    if (!this.compiled.test(text)) return undefined;
    const matcher = this.compiled.matcher(text);
    return matcher.find() ? { start: matcher.start(), length: matcher.end() - matcher.start() } : undefined;
  }

  each(text: string, visit: (start: number, length: number) => boolean): void {
    if (!this.compiled.test(text)) return;
    const matcher = this.compiled.matcher(text);
    while (matcher.find()) if (visit(matcher.start(), matcher.end() - matcher.start())) return;
  }

  toJSON(): string {
    return `re2:/${this.source}/i`;
  }
}

/** Compiles a user's pattern, case-insensitive; an error is one line for the query line. */
export function compileLinearRegex(source: string): CompiledRegex {
  try {
    const compiled = RE2JS.compile(fromJavaScriptEscapes(source), RE2JS.CASE_INSENSITIVE | RE2JS.LOOKBEHINDS);
    return { ok: true, regex: new Re2Regex(source, compiled) };
  } catch (error) {
    return { ok: false, error: explainRegexError(error instanceof Error ? error.message : String(error)) };
  }
}

/** `text` itself as a case-insensitive pattern (RE2's quoting: every character stands for itself). */
export function literalRegex(text: string): LinearRegex {
  return new Re2Regex(text, RE2JS.compile(RE2JS.quote(text), RE2JS.CASE_INSENSITIVE));
}
