import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  displayWidthUpTo,
  fitToWidth,
  padEndToWidth,
  sanitizeBlock,
  sanitizeInline,
  sliceByWidth,
  terminalSafeJson,
  truncateToWidth,
  UNSAFE_INPUT_CHAR_RE,
  wrapWords,
} from '../../src/text/terminal-text.js';

// Anything a terminal would interpret: C0 (incl. ESC, CR, BS, LF), DEL, C1, bidi, zero-width, lone surrogates.
const DANGEROUS =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\ufeff\ud800-\udfff]/u;

describe('sanitizeInline', () => {
  it.each([
    ['plain text', 'plain text'],
    ['', ''],
    ['a\tb', 'a b'],
    ['  lots   of    space  ', 'lots of space'],
    ['line1\nline2', 'line1 ⏎ line2'],
    ['line1\r\nline2', 'line1 ⏎ line2'],
    ['a\n\n\n b \n', 'a ⏎ b'],
    ['a\u2028b\u2029c', 'a ⏎ b ⏎ c'],
    ['\u001b[31mred\u001b[0m', '␛[31mred␛[0m'],
    ['title\u001b]0;pwned\u0007', 'title␛]0;pwned\\x07'],
    ['clip\u001b]52;c;aGVsbG8=\u001b\\', 'clip␛]52;c;aGVsbG8=␛\\'],
    ['abc\bX', 'abc\\x08X'],
    ['over\rwrite', 'over ⏎ write'],
    ['del\u007f', 'del\\x7f'],
    ['csi\u009b31m', 'csi\\x9b31m'],
    ['evil\u202etxt.exe', 'evil\\u202etxt.exe'],
    ['iso\u2066x\u2069', 'iso\\u2066x\\u2069'],
    ['zero\u200bwidth\ufeff', 'zero\\u200bwidth\\ufeff'],
    ['lrm\u200e rlm\u200f alm\u061c', 'lrm\\u200e rlm\\u200f alm\\u061c'],
    ['lone\ud800 and \udc00', 'lone\\ud800 and \\udc00'],
    ['emoji 😀 ok', 'emoji 😀 ok'],
    ['family 👨\u200d👩\u200d👧', 'family 👨👩👧'],
    ['a\u200db', 'a\\u200db'],
    ['nbsp\u00a0\u00a0x', 'nbsp x'],
    ['café e\u0301', 'café e\u0301'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeInline(input)).toBe(expected);
  });

  it('returns the same string instance on the fast path', () => {
    const s = 'nothing special here';
    expect(sanitizeInline(s)).toBe(s);
  });

  it('can render line breaks as spaces', () => {
    expect(sanitizeInline('a\nb\r\n\nc', { newline: 'space' })).toBe('a b c');
  });

  it('never lets a control, bidi or line-break character through (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        const out = sanitizeInline(s);
        expect(DANGEROUS.test(out)).toBe(false);
        expect(out).toBe(out.trim());
        expect(out.includes('  ')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('sanitizeBlock', () => {
  it('keeps lines and indentation, escapes controls, expands tabs', () => {
    expect(sanitizeBlock('a\n  b\r\n\tc\u001b[2J\n\nlast  ')).toEqual(['a', '  b', '    c␛[2J', '', 'last']);
  });

  it('expands tabs to tab stops', () => {
    expect(sanitizeBlock('ab\tc\td', { tabWidth: 4 })).toEqual(['ab  c   d']);
    expect(sanitizeBlock('你\tx', { tabWidth: 4 })).toEqual(['你  x']);
  });

  it('treats a lone CR as a line break so it cannot overwrite text', () => {
    expect(sanitizeBlock('progress 10%\rprogress 99%')).toEqual(['progress 10%', 'progress 99%']);
  });

  it('returns one empty line for empty input', () => {
    expect(sanitizeBlock('')).toEqual(['']);
  });

  it('never lets a dangerous character through (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        for (const line of sanitizeBlock(s)) expect(DANGEROUS.test(line)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('width helpers', () => {
  it('measures display width', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本語')).toBe(6);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('😀')).toBe(2);
    expect(displayWidth('')).toBe(0);
  });

  it.each([
    ['hello world', 5, '…', 'hell…'],
    ['hello', 5, '…', 'hello'],
    ['hello', 0, '…', ''],
    ['hello', 1, '…', '…'],
    ['hello world', 6, '...', 'hel...'],
    ['hello', 2, '...', '..'],
    ['日本語テキスト', 5, '…', '日本…'],
    ['日本語', 4, '…', '日…'],
    ['日本語', 6, '…', '日本語'],
    ['😀😀😀', 4, '…', '😀…'],
    ['cafe\u0301 au lait', 5, '…', 'cafe\u0301…'],
  ])('truncateToWidth(%j, %i, %j) → %j', (s, w, e, expected) => {
    expect(truncateToWidth(s, w, e)).toBe(expected);
    expect(displayWidth(truncateToWidth(s, w, e))).toBeLessThanOrEqual(Math.max(0, w));
  });

  it('displayWidthUpTo is the width up to the limit, and above the limit past it (property)', () => {
    const piece = fc.constantFrom('a', ' ', '日', '😀', 'e\u0301', '…', '→', '👩‍💻', 'ﾊ', '\u200d');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc.array(piece, { maxLength: 60 }).map((p) => p.join('')),
        ),
        fc.integer({ min: 0, max: 50 }),
        (s, max) => {
          const clean = sanitizeInline(s);
          const width = displayWidth(clean);
          const upTo = displayWidthUpTo(clean, max);
          if (width <= max) expect(upTo).toBe(width);
          else expect(upTo).toBeGreaterThan(max);
        },
      ),
      { numRuns: 500 },
    );
    // A long text is not scanned to its end.
    expect(displayWidthUpTo(`${'日本語'.repeat(100_000)}`, 10)).toBeLessThanOrEqual(12);
  });

  it('truncation never exceeds the width (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.integer({ min: 0, max: 30 }), (s, w) => {
        const clean = sanitizeInline(s);
        expect(displayWidth(truncateToWidth(clean, w))).toBeLessThanOrEqual(w);
      }),
    );
  });

  it('pads to width', () => {
    expect(padEndToWidth('ab', 4)).toBe('ab  ');
    expect(padEndToWidth('日本', 5)).toBe('日本 ');
    expect(padEndToWidth('toolong', 3)).toBe('toolong');
  });

  it('fits to exactly the width', () => {
    expect(fitToWidth('日本語', 5)).toBe('日本…');
    expect(fitToWidth('日本語', 4)).toBe('日… ');
    expect(fitToWidth('ab', 4)).toBe('ab  ');
    expect(displayWidth(fitToWidth('😀😀😀😀', 5))).toBe(5);
  });

  it.each([
    ['abcdef', 2, 3, 'cde'],
    ['abcdef', 4, 10, 'ef'],
    ['abcdef', 10, 3, ''],
    ['abc', 0, 0, ''],
    ['日本語', 0, 3, '日 '],
    ['日本語', 1, 4, ' 本 '],
    ['日本語', 2, 2, '本'],
    ['a😀b', 2, 2, ' b'],
    ['xe\u0301y', 1, 1, 'e\u0301'],
  ])('sliceByWidth(%j, %i, %i) → %j', (s, start, w, expected) => {
    expect(sliceByWidth(s, start, w)).toBe(expected);
  });

  it('slices keep exact column counts (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.nat(20), fc.nat(20), (s, start, w) => {
        const clean = sanitizeInline(s);
        const expected = Math.min(w, Math.max(0, displayWidth(clean) - start));
        expect(displayWidth(sliceByWidth(clean, start, w))).toBe(expected);
      }),
    );
  });
});

describe('wrapWords', () => {
  it('breaks at spaces within the width, keeps an over-wide word whole, never returns nothing', () => {
    expect(wrapWords('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapWords('a verylongword b', 4)).toEqual(['a', 'verylongword', 'b']);
    expect(wrapWords('日本語 日本語', 7)).toEqual(['日本語', '日本語']);
    expect(wrapWords('', 10)).toEqual(['']);
  });

  it('keeps every word, in order, each line within the width unless one word is wider', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 30 }),
        fc.integer({ min: 1, max: 40 }),
        (words, width) => {
          const lines = wrapWords(words.join(' '), width);
          expect(
            lines
              .join(' ')
              .split(' ')
              .filter((w) => w !== ''),
          ).toEqual(words);
          for (const line of lines) expect(line.length <= width || !line.includes(' ')).toBe(true);
        },
      ),
    );
  });
});

describe('terminalSafeJson', () => {
  it('writes DEL, C1, bidi and invisible characters as escapes; the value parses back unchanged', () => {
    const value = { name: 'a\u009b31m\u202eevil\u200b\u007f\u001b]0;T\u0007 日本 🎉' };
    const json = terminalSafeJson(JSON.stringify(value));
    expect(json).toBe('{"name":"a\\u009b31m\\u202eevil\\u200b\\u007f\\u001b]0;T\\u0007 日本 🎉"}');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('keeps any value, and leaves nothing the sanitiser would escape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        const json = terminalSafeJson(JSON.stringify({ value, text }));
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify({ value, text })));
        expect(json).not.toMatch(new RegExp(UNSAFE_INPUT_CHAR_RE.source, 'u'));
      }),
    );
  });
});
