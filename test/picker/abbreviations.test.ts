/** pi's abbreviation tier (pi-tui fuzzyMatch) in the picker search, with pi's own ranking rule. */
import { describe, expect, it } from 'vitest';
import { createSearchIndex, parseQuery, searchSessions } from '../../src/picker/query.js';
import { subsequenceScore } from '../../src/picker/subsequence.js';
import { makeInfo, NOW } from './make-info.js';

const sessions = [
  makeInfo({ path: 'a', name: 'spike: sqlite index', cwd: '/home/u/store', ageMs: 5_000 }),
  makeInfo({ path: 'b', name: 'investigate memory leak', cwd: '/home/u/app', ageMs: 4_000 }),
  makeInfo({ path: 'c', name: 'refactor config loader', cwd: '/home/u/app', ageMs: 3_000 }),
  makeInfo({ path: 'd', cwd: '/home/u/pi-sessions', ageMs: 2_000 }),
  makeInfo({ path: 'e', name: 'rebuild the cache', allMessagesText: 'we talked about sqlite here', ageMs: 1_000 }),
];

function found(query: string): string[] {
  const parsed = parseQuery(query, NOW);
  const outcome = searchSessions(createSearchIndex(sessions), parsed);
  return outcome.matches.sort((x, y) => x.score - y.score).map((m) => m.info.path);
}

describe('abbreviation search (pi subsequence tier)', () => {
  it('finds abbreviations of names that fuse.js scores too low', () => {
    expect(found('sqlite idx')).toEqual(['a']);
    expect(found('invmem')).toEqual(['b']);
    expect(found('rfctr cfg')).toEqual(['c']);
  });

  it('falls back to the cwd, after every name match', () => {
    expect(found('pisess')).toEqual(['d']);
  });

  it('ranks a name substring, then text, before an abbreviation', () => {
    // "sqlite" is a name hit of a and a text hit of e; "idx" only abbreviates a's name.
    expect(found('sqlite')).toEqual(['a', 'e']);
    expect(found('idx')).toEqual(['a']);
  });

  it('matches no scattered letters out of order', () => {
    expect(found('xdi')).toEqual([]);
    expect(found('zq')).toEqual([]);
  });

  it("abbreviates words of any length, as pi's /resume does", () => {
    expect(found('invst mem lk')).toEqual(['b']);
    expect(found('mem lk')).toEqual(['b']);
    // "lk" is also in e's text ("talked"): a text hit ranks before an abbreviation.
    expect(found('lk')).toEqual(['e', 'b']);
    // A short word's stronger hits (a substring of a name) still come first.
    expect(found('ca')[0]).toBe('e');
  });

  it('scores like pi: contiguous and word-start matches beat scattered ones; swapped digits', () => {
    expect(subsequenceScore('cfg', 'config')!).toBeGreaterThan(subsequenceScore('con', 'config')!);
    expect(subsequenceScore('conf', 'config')!).toBeLessThan(subsequenceScore('cnfg', 'config')!);
    expect(subsequenceScore('ldr', 'x loader')!).toBeLessThan(subsequenceScore('ldr', 'xloader')!);
    expect(subsequenceScore('abc12', '12abc')).toBeDefined();
    expect(subsequenceScore('config', 'config')!).toBeLessThan(-100);
  });
});
