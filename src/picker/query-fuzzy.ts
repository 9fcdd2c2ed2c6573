/**
 * The fuzzy tier of the picker's search (pure): fuse.js over the named sessions' names and the
 * list's distinct cwds, never over message text, with results cached per word.
 */
import Fuse from 'fuse.js';
import type { SessionInfo } from '../store/index.js';

const FUSE_THRESHOLD = 0.3;
/** Fuzzy matching of one- and two-letter words only produces noise. */
export const FUZZY_MIN_LENGTH = 3;

const FUSE_OPTIONS = { ignoreLocation: true, includeScore: true, threshold: FUSE_THRESHOLD, isCaseSensitive: false };
const NAME_FUSE_OPTIONS = { ...FUSE_OPTIONS, keys: ['name'] };

export interface FuzzyIndex {
  /** The list's lower-cased names, by session position. */
  readonly names: readonly string[];
  readonly nameFuse: Fuse<{ i: number; name: string }>;
  /** What nameFuse searches: the named sessions' positions and names. */
  readonly named: readonly { i: number; name: string }[];
  readonly cwdFuse: Fuse<string>;
  /** Fuzzy results per word: session position (or cwd) → fuse score (0 = perfect). */
  readonly nameCache: Map<string, Map<number, number>>;
  readonly cwdCache: Map<string, Map<string, number>>;
}

export function createFuzzyIndex(sessions: readonly SessionInfo[], names: readonly string[]): FuzzyIndex {
  const named = sessions.flatMap((s, i) => (s.name && s.name.trim() !== '' ? [{ i, name: s.name }] : []));
  return {
    names,
    nameFuse: new Fuse(named, NAME_FUSE_OPTIONS),
    named,
    cwdFuse: new Fuse([...new Set(sessions.map((s) => s.cwd))], FUSE_OPTIONS),
    nameCache: new Map(),
    cwdCache: new Map(),
  };
}

/**
 * The most errors (insertions, deletions, substitutions) fuse accepts in a match of a word of
 * `length` letters: with `ignoreLocation` its score is errors / length, and a match needs a score
 * ≤ FUSE_THRESHOLD (compared as fuse compares it). Three letters allow none: the match is the word itself.
 */
export function allowedErrors(length: number): number {
  let errors = 0;
  while (errors < length && (errors + 1) / length <= FUSE_THRESHOLD) errors++;
  return errors;
}

/**
 * Whether fuse could match `word` in `name` (both lower-cased), by the q-gram lemma: a match has at
 * most allowedErrors(length) errors, and each error spoils at most two of the word's letter pairs;
 * the others occur in the name as they are. A name with fewer of them cannot match, and fuse's
 * bitap never needs to see it (the first fuzzy search of a long word over thousands of names was a
 * fifth of the first result's time). Past fuse's 32 letters it splits the word, so every name is kept.
 */
export function mayFuzzyMatch(word: string, name: string): boolean {
  if (word.length > 32) return true;
  const needed = word.length - 1 - 2 * allowedErrors(word.length);
  if (needed <= 0) return true;
  let found = 0;
  for (let i = 0; i + 1 < word.length; i++) {
    if (name.includes(word.slice(i, i + 2)) && ++found >= needed) return true;
  }
  return false;
}

/**
 * An earlier word whose fuzzy names, with the names that contain it, hold every name `word` can
 * match, if one is cached: fuse's fewest errors for a part of a word are never more than for the
 * whole word (cut the part's letters out of the whole's best alignment), so a cached word inside
 * `word` that allows as many errors matched every name `word` matches: fuzzily (its cached answer)
 * or as itself (left out of that answer). Typing a word letter by letter asks this of the word before.
 */
function narrowingWord(
  cache: ReadonlyMap<string, Map<number, number>>,
  word: string,
): { word: string; fuzzy: Map<number, number> } | undefined {
  if (word.length > 32) return undefined;
  const errors = allowedErrors(word.length);
  let best: { word: string; fuzzy: Map<number, number> } | undefined;
  for (const [cached, fuzzy] of cache) {
    // Shorter words were never searched: their empty answer says nothing.
    if (cached.length < FUZZY_MIN_LENGTH || cached.length > 32 || !word.includes(cached)) continue;
    if (allowedErrors(cached.length) !== errors) continue;
    // The longest such word contains the others: its names are the fewest.
    if (!best || cached.length > best.word.length) best = { word: cached, fuzzy };
  }
  return best;
}

/** The cached answer for `word`, computed once (fuzzy matching of words under FUZZY_MIN_LENGTH finds nothing). */
function cachedFor<K>(
  cache: Map<string, Map<K, number>>,
  word: string,
  search: () => Iterable<[K, number]>,
): Map<K, number> {
  let found = cache.get(word);
  if (!found) {
    found = new Map(word.length >= FUZZY_MIN_LENGTH ? search() : []);
    cache.set(word, found);
  }
  return found;
}

/**
 * Named sessions whose name matches `word` only fuzzily (it does not contain the word: such a name
 * is a name hit, which ranks above any fuzzy one, and fuse's score for it is never read):
 * position → fuse score (0 = perfect). A word that allows no error has none; fuse never runs.
 */
export function fuzzyNames(index: FuzzyIndex, word: string): Map<number, number> {
  return cachedFor(index.nameCache, word, () => {
    if (allowedErrors(word.length) === 0) return [];
    const earlier = narrowingWord(index.nameCache, word);
    const { names } = index;
    const candidates = index.named.filter(({ i }) => {
      const name = names[i] ?? '';
      if (earlier && !earlier.fuzzy.has(i) && !name.includes(earlier.word)) return false;
      return !name.includes(word) && mayFuzzyMatch(word, name);
    });
    if (candidates.length === 0) return [];
    // Scores are per name (never relative to the collection), so fuse over the candidates gives each the same one.
    const fuse = candidates.length === index.named.length ? index.nameFuse : new Fuse(candidates, NAME_FUSE_OPTIONS);
    return fuse.search(word).map((r): [number, number] => [r.item.i, r.score ?? 0]);
  });
}

/** Distinct cwds that fuzzily match `word`: cwd → fuse score. */
export function fuzzyCwds(index: FuzzyIndex, word: string): Map<string, number> {
  return cachedFor(index.cwdCache, word, () =>
    index.cwdFuse.search(word).map((r): [string, number] => [r.item, r.score ?? 0]),
  );
}
