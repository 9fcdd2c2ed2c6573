/**
 * The fuzzy name search narrows a word's names from an earlier word inside it that allows as many
 * errors (typing a word letter by letter): on any names and any sequence of words, each answer is
 * what fuse over every name gives, with the same scores, less the names that contain the word
 * (name hits, which rank above fuzzy ones).
 */

import fc from 'fast-check';
import Fuse from 'fuse.js';
import { describe, expect, it } from 'vitest';
import { allowedErrors, createFuzzyIndex, FUZZY_MIN_LENGTH, fuzzyNames } from '../../src/picker/query-fuzzy.js';
import { makeInfo } from './make-info.js';

const OPTIONS = { ignoreLocation: true, includeScore: true, threshold: 0.3, isCaseSensitive: false, keys: ['name'] };

/** What fuse over every named session finds for `word` in names without it, as position → score. */
function fuseAlone(names: readonly string[], word: string): Map<number, number> {
  if (word.length < FUZZY_MIN_LENGTH) return new Map();
  const items = names.flatMap((name, i) => (name.trim() === '' ? [] : [{ i, name }]));
  const found = new Fuse(items, OPTIONS).search(word);
  return new Map(
    found
      .filter((r) => !r.item.name.toLowerCase().includes(word))
      .map((r): [number, number] => [r.item.i, r.score ?? 0]),
  );
}

const sorted = (m: Map<number, number>): [number, number][] => [...m].sort((a, b) => a[0] - b[0]);

function indexOf(names: readonly string[]) {
  const sessions = names.map((name, i) => makeInfo({ path: `/s/${i}.jsonl`, name: name === '' ? undefined : name }));
  return createFuzzyIndex(
    sessions,
    sessions.map((s) => (s.name ?? '').toLowerCase()),
  );
}

describe('fuzzy names narrowed from an earlier word', () => {
  it('allowedErrors is what fuse accepts: errors / length ≤ 0.3', () => {
    expect([1, 2, 3, 4, 6, 7, 9, 10, 20].map(allowedErrors)).toEqual([0, 0, 0, 1, 1, 2, 2, 3, 6]);
  });

  it('typing a word letter by letter, and editing it, gives fuse’s own answer at every step', () => {
    const letter = fc.constantFrom(...'abcdeor');
    const text = (min: number, max: number) =>
      fc.array(letter, { minLength: min, maxLength: max }).map((c) => c.join(''));
    const name = fc.oneof(
      text(0, 24),
      fc.array(text(1, 8), { minLength: 2, maxLength: 4 }).map((w) => w.join(' ')),
    );
    fc.assert(
      fc.property(
        fc.array(name, { minLength: 1, maxLength: 40 }),
        text(3, 14),
        fc.array(fc.record({ at: fc.nat(), letter }), { maxLength: 3 }),
        (names, word, insertions) => {
          const index = indexOf(names);
          const steps: string[] = [];
          for (let i = 1; i <= word.length; i++) steps.push(word.slice(0, i));
          let edited = word;
          for (const { at, letter: c } of insertions) {
            const where = at % (edited.length + 1);
            edited = edited.slice(0, where) + c + edited.slice(where);
            steps.push(edited);
          }
          for (const step of steps)
            expect(sorted(fuzzyNames(index, step)), step).toEqual(sorted(fuseAlone(names, step)));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('narrows: a longer word with as many errors allowed searches only the earlier word’s names', () => {
    const names = ['refactor the cache', 'rafactor', 'something else', 'refuse', 'reface'];
    const index = indexOf(names);
    expect(sorted(fuzzyNames(index, 'refa'))).toEqual(sorted(fuseAlone(names, 'refa')));
    // A name the earlier word did not match cannot come back: "refac" (one error) ⊆ "refa" (one error).
    expect(allowedErrors(4)).toBe(allowedErrors(5));
    expect(sorted(fuzzyNames(index, 'refac'))).toEqual(sorted(fuseAlone(names, 'refac')));
    // Seven letters allow two errors: the earlier answer cannot narrow it, fuse sees every name.
    expect(sorted(fuzzyNames(index, 'refacto'))).toEqual(sorted(fuseAlone(names, 'refacto')));
  });

  it('a name left out of an earlier answer because it contains that word still matches the longer word fuzzily', () => {
    const names = ['refaz', 'refactor', 'other'];
    const index = indexOf(names);
    // "refaz" contains "refa": a name hit for it, so not in its fuzzy answer…
    expect(fuzzyNames(index, 'refa').has(0)).toBe(false);
    // …and one substitution from "refac", which it does not contain.
    expect(fuzzyNames(index, 'refac').has(0)).toBe(true);
    expect(sorted(fuzzyNames(index, 'refac'))).toEqual(sorted(fuseAlone(names, 'refac')));
  });

  it('a three-letter word allows no error: its only name matches are names that contain it, so it has no fuzzy ones', () => {
    expect(allowedErrors(3)).toBe(0);
    const names = ['ref', 'rfe', 'reff', 'erf'];
    expect(fuzzyNames(indexOf(names), 'ref').size).toBe(0);
    expect(sorted(fuseAlone(names, 'ref'))).toEqual([]);
  });
});
