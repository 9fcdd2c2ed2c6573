/**
 * The user's regexes run on RE2 (src/text/linear-regex.ts): the same answers as JavaScript's
 * engine wherever both can run a pattern (leftmost-first matches, case-insensitive), an answer at
 * all where JavaScript's would run for ever, and a reason for what RE2 cannot run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileLinearRegex,
  fromJavaScriptEscapes,
  type LinearRegex,
  literalRegex,
} from '../../src/text/linear-regex.js';

function compiled(source: string): LinearRegex {
  const result = compileLinearRegex(source);
  if (!result.ok) throw new Error(result.error);
  return result.regex;
}

/** Every match by JavaScript's engine, as `each` visits them. */
function jsHits(source: string, text: string): [number, number][] {
  const re = new RegExp(source, 'gi');
  const out: [number, number][] = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push([m.index, m[0].length]);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

function re2Hits(source: string, text: string): [number, number][] {
  const out: [number, number][] = [];
  compiled(source).each(text, (start, length) => {
    out.push([start, length]);
    return false;
  });
  return out;
}

/** Patterns both engines read alike: literals, classes, `.`, groups, alternation, `* + ? {m,n}`, anchors. */
const atom = fc.oneof(
  fc.constantFrom('a', 'b', 'C', ' ', '\\.', '.', '[ab]', '[^a ]', '\\d', '\\w', '\\s', 'x'),
  fc.constantFrom('(?:ab|a)', '(b|c)', '(?:a|)', 'ba'),
);
const piece = fc.tuple(atom, fc.constantFrom('', '', '*', '+', '?', '{1,2}', '*?', '+?')).map(([a, q]) => a + q);
const pattern = fc
  .tuple(fc.constantFrom('', '^', '\\b'), fc.array(piece, { minLength: 1, maxLength: 5 }), fc.constantFrom('', '$'))
  .map(([start, pieces, end]) => start + pieces.join('') + end);
const text = fc.stringMatching(/^[abcABCx .1]{0,40}$/);

describe('RE2 gives JavaScript’s answers where both can run the pattern', () => {
  it('test, first and every match, case-insensitive, on generated patterns and texts', () => {
    fc.assert(
      fc.property(pattern, text, (source, subject) => {
        const re = compiled(source);
        const js = jsHits(source, subject);
        expect(re.test(subject)).toBe(js.length > 0);
        const first = re.first(subject);
        expect(first && [first.start, first.length]).toEqual(js[0]);
        expect(re2Hits(source, subject)).toEqual(js);
      }),
      { numRuns: 600 },
    );
  });

  it('counts positions in UTF-16 units, like JavaScript strings', () => {
    expect(compiled('é+').first('😀 aÉé')).toEqual({ start: 4, length: 2 });
  });

  it('reads JavaScript’s \\u escapes; an escaped backslash before u stays a backslash', () => {
    expect(fromJavaScriptEscapes('caf\\u00e9 \\u{1F600} \\\\u00e9')).toBe('caf\\x{00e9} \\x{1F600} \\\\u00e9');
    expect(compiled('caf\\u00e9').test('CAFÉ')).toBe(true);
    expect(compiled('\\u{1F600}').test('smile 😀')).toBe(true);
    expect(compiled('\\\\u00e9').test('\\u00e9')).toBe(true);
  });

  it('a literal is only itself', () => {
    expect(literalRegex('a.b(c)*').first('xxA.B(C)*')).toEqual({ start: 2, length: 7 });
    expect(literalRegex('a.b').test('axb')).toBe(false);
  });
});

describe('what JavaScript’s engine cannot answer, RE2 does', () => {
  it('(a+)+$ against 100,000 a’s and a full stop: no match (exponential on a backtracking engine)', () => {
    const subject = `${'a'.repeat(100_000)}.`;
    const re = compiled('(a+)+$');
    expect(re.test(subject)).toBe(false);
    expect(re.first(subject)).toBeUndefined();
    expect(compiled('(.*)*x(.*)*y').first(`${'x'.repeat(50_000)}y`)).toEqual({ start: 0, length: 50_001 });
  });
});

describe('a pattern RE2 cannot run gets its reason', () => {
  it.each([
    ['foo(?=bar)', 're: lookahead is not supported (RE2 syntax)'],
    ['foo(?!bar)', 're: lookahead is not supported (RE2 syntax)'],
    ['(?<=(a))b', 're: lookbehind is not supported with a capture group inside (use (?:…) there) (RE2 syntax)'],
    ['(a)\\1', 're: backreferences (\\1) are not supported (RE2 syntax)'],
    ['(?<n>a)\\k<n>', 're: backreferences (\\k) are not supported (RE2 syntax)'],
    ['(?>a)', 're: atomic groups are not supported (RE2 syntax)'],
    ['a++', 're: possessive quantifiers (++) are not supported (RE2 syntax)'],
    ['a{2,1001}', 're: repeat counts go up to 1000 ({2,1001}) (RE2 syntax)'],
    ['\\Z', 're: the escape \\Z is not supported (RE2 syntax)'],
    ['(unclosed', 're: missing closing ): `(unclosed` (RE2 syntax)'],
    ['[a-', 're: missing closing ]: `[a-` (RE2 syntax)'],
  ])('%s', (source, message) => {
    expect(compileLinearRegex(source)).toEqual({ ok: false, error: message });
  });

  it('a lookbehind without a capture group runs', () => {
    expect(compiled('(?<=ab)c').first('abcabc')).toEqual({ start: 2, length: 1 });
    expect(compiled('(?<!a)c').first('acbc')).toEqual({ start: 3, length: 1 });
  });
});
