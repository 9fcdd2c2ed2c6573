/**
 * The listing's byte checks on a line's prefix answer exactly what the Buffer calls they replace
 * answer: `hasUsageKey` a search for USAGE_KEY (hits at the very start and overlapping near-misses
 * included), `bytesAt` Buffer.compare (its throw out of range included); `holdsAnotherEntry` finds
 * a second entry's bytes on a line, never inside a string and never past the line's end.
 */
import { describe, expect, it } from 'vitest';
import { bytesAt, hasUsageKey, holdsAnotherEntry, USAGE_KEY } from '../../src/store/read/line-prefix.js';

const plainSearch = (bytes: Buffer): boolean => bytes.indexOf(USAGE_KEY) !== -1;

describe('hasUsageKey', () => {
  it.each([
    'usage":{"input":1}',
    ',"usage":{"input":1}}',
    '"message":{"role":"toolResult","content":[]}',
    'page":1,"sage":2,"usa ge":3',
    'uusage":',
    'usag":e":',
    'sage":',
    'ge":',
    '',
    'a \\"usage\\": word',
  ])('answers as the plain search for %s', (text) => {
    const bytes = Buffer.from(text);
    expect(hasUsageKey(bytes)).toBe(plainSearch(bytes));
  });

  it('answers as the plain search on random bytes made of the needle', () => {
    // A small deterministic generator: every run checks the same 5,000 strings.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const alphabet = 'usage":x';
    let hits = 0;
    for (let n = 0; n < 5000; n++) {
      let text = '';
      const length = next() % 24;
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      if (next() % 4 === 0) text = `${text.slice(0, length / 2)}usage":${text.slice(length / 2)}`;
      const bytes = Buffer.from(text);
      if (plainSearch(bytes)) hits++;
      expect(hasUsageKey(bytes), text).toBe(plainSearch(bytes));
    }
    expect(hits).toBeGreaterThan(500);
  });
});

describe('bytesAt', () => {
  const buf = Buffer.from('{"type":"message","id":"a"}');
  const compared = (at: number, needle: Buffer): boolean =>
    buf.compare(needle, 0, needle.length, at, at + needle.length) === 0;

  it('answers as Buffer.compare at every position in range', () => {
    for (const needle of [Buffer.from('"id":"'), Buffer.from('{"type":"'), Buffer.from('}'), Buffer.from('x')])
      for (let at = 0; at + needle.length <= buf.length; at++)
        expect(bytesAt(buf, at, needle)).toBe(compared(at, needle));
    expect(bytesAt(buf, 18, Buffer.from('"id":"'))).toBe(true);
  });

  it('throws out of range as Buffer.compare does', () => {
    const needle = Buffer.from('"a"}x');
    expect(() => compared(buf.length - 3, needle)).toThrow(RangeError);
    expect(() => bytesAt(buf, buf.length - 3, needle)).toThrow(RangeError);
  });
});

describe('holdsAnotherEntry', () => {
  const holds = (text: string): boolean => holdsAnotherEntry(Buffer.from(text));

  it('finds glued objects and an entry’s start, not a content item or an escaped one inside a string', () => {
    expect(holds('"content":[],"isError":false}}{"foo":1}')).toBe(true);
    expect(holds(JSON.stringify({ text: 'a }{" b' }))).toBe(false);
    expect(holds('"text":"cut here{"type":"message","id":"ab12cd34","parentId":null}')).toBe(true);
    expect(holds('{"type":"label","id":"x"')).toBe(true);
    expect(holds('"content":[{"type":"text","text":"a"}]')).toBe(false);
    expect(holds(JSON.stringify({ text: '{"type":"message","id":"ab12cd34"}' }))).toBe(false);
    expect(holds('{"type":"a\\","id":"x"')).toBe(false);
  });

  it('never reads past the line: a start cut at any byte is only found once whole', () => {
    const start = '{"type":"message","id":"';
    for (let cut = 0; cut <= start.length; cut++)
      expect(holds(`xx${start.slice(0, cut)}`), `${cut}`).toBe(cut === start.length);
  });
});
