/**
 * The fuzzy name search skips names that cannot match (mayFuzzyMatch, the q-gram lemma): on any
 * names and any word, fuse over the kept names finds exactly what fuse over all names finds, with
 * the same scores.
 */

import fc from 'fast-check';
import Fuse from 'fuse.js';
import { describe, expect, it } from 'vitest';
import { mayFuzzyMatch } from '../../src/picker/query-fuzzy.js';

const OPTIONS = { ignoreLocation: true, includeScore: true, threshold: 0.3, isCaseSensitive: false, keys: ['name'] };

const join = (unit: fc.Arbitrary<string>, minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.array(unit, { minLength, maxLength }).map((cs) => cs.join(''));

function found(names: readonly string[], word: string, keep: (name: string) => boolean): [number, number][] {
  const items = names.flatMap((name, i) => (keep(name.toLowerCase()) ? [{ i, name }] : []));
  return new Fuse(items, OPTIONS)
    .search(word)
    .map((r): [number, number] => [r.item.i, r.score ?? 0])
    .sort((a, b) => a[0] - b[0]);
}

describe('mayFuzzyMatch', () => {
  it('never drops a name fuse would match (random names and words over a small alphabet)', () => {
    const letters = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'r', 'o', ' ', 'é', 'A', 'B');
    const text = (min: number, max: number) =>
      fc.array(letters, { minLength: min, maxLength: max }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(text(0, 40), { minLength: 1, maxLength: 30 }), text(3, 40), (names, raw) => {
        const word = raw.toLowerCase().replace(/\s+/g, '');
        if (word.length < 3) return;
        expect(found(names, word, (name) => mayFuzzyMatch(word, name))).toEqual(found(names, word, () => true));
      }),
      { numRuns: 3000 },
    );
  });

  it('never drops a near miss: the word with a few edits, inside other text', () => {
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ');
    const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('insert', 'delete', 'replace'), letter });
    fc.assert(
      fc.property(
        join(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), 3, 20),
        fc.array(edit, { maxLength: 4 }),
        join(letter, 0, 15),
        join(letter, 0, 15),
        (word, edits, before, after) => {
          let near = word;
          for (const e of edits) {
            const at = e.at % (near.length + 1);
            near =
              e.kind === 'insert'
                ? near.slice(0, at) + e.letter + near.slice(at)
                : e.kind === 'delete'
                  ? near.slice(0, at) + near.slice(at + 1)
                  : near.slice(0, at) + e.letter + near.slice(at + 1);
          }
          const names = [before + near + after, near, word];
          expect(found(names, word, (name) => mayFuzzyMatch(word, name))).toEqual(found(names, word, () => true));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('drops names that share too few letter pairs with a long word, and keeps near misses', () => {
    expect(mayFuzzyMatch('reproduce', 'investigate the migration to postgres 16')).toBe(false);
    expect(mayFuzzyMatch('reproduce', 'how to reprodcue the crash')).toBe(true);
    // Three letters allow no error (the word must be there); four allow one (a pair must be).
    expect(mayFuzzyMatch('abc', 'xyz')).toBe(false);
    expect(mayFuzzyMatch('abcd', 'xbcx')).toBe(true);
    expect(mayFuzzyMatch('abcd', 'xyz')).toBe(false);
  });
});
