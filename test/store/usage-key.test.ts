/**
 * `hasUsageKey` (the toolResult shortcut's check for a usage member) must answer exactly what a
 * search for USAGE_KEY answers, hits at the very start and overlapping near-misses included.
 */
import { describe, expect, it } from 'vitest';
import { hasUsageKey, USAGE_KEY } from '../../src/store/read/line-prefix.js';

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
      if (next() % 4 === 0) text = text.slice(0, length / 2) + 'usage":' + text.slice(length / 2);
      const bytes = Buffer.from(text);
      if (plainSearch(bytes)) hits++;
      expect(hasUsageKey(bytes), text).toBe(plainSearch(bytes));
    }
    expect(hits).toBeGreaterThan(500);
  });
});
