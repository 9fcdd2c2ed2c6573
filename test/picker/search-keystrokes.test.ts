/**
 * A search index lives for the whole list and keeps caches between keystrokes (the text scans per
 * pattern, narrowed by a shorter pattern; the fuzzy results per word): typing, erasing and retyping
 * must find exactly what a fresh index finds, and a word's ranking is its tiers, session by session.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSearchIndex,
  type ParsedQuery,
  parseQuery,
  prepareTexts,
  type SearchIndex,
  searchSessions,
} from '../../src/picker/query.js';
import { fuzzyCwds, fuzzyNames } from '../../src/picker/query-fuzzy.js';
import { textOf } from '../../src/picker/query-text.js';
import { subsequenceScore } from '../../src/picker/subsequence.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, makeInfo, NOW } from './make-info.js';

// Few words, names and folders, so that every tier occurs: names and texts share words, folders
// share sessions (two of them differ only in case), and abbreviations and typos find something.
const WORDS = ['login', 'logic', 'fix', 'refactor', 'api', 'apple', 'sqlite', 'index', 'cache', 'log', 'x1', '12ab'];
const NAMES = [undefined, '', 'Fix login', 'refactor the api', 'sqlite index', 'Apple cache', 'logs'];
const CWDS = ['/home/u/app', '/home/u/App', '/work/api-server', '/srv/x1', '/home/u/login-flow'];

const session = fc.record({
  name: fc.constantFrom(...NAMES),
  cwd: fc.constantFrom(...CWDS),
  words: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }),
  ageDays: fc.integer({ min: 0, max: 60 }),
  prepared: fc.boolean(),
});

type SessionSpec = typeof session extends fc.Arbitrary<infer T> ? T : never;

function listOf(specs: SessionSpec[], run: number): SessionInfo[] {
  return specs.map((spec, i) =>
    makeInfo({
      // A new path each run: prepared texts are kept per session object.
      path: `/s/${run}/${i}.jsonl`,
      name: spec.name,
      cwd: spec.cwd,
      allMessagesText: spec.words.join('  '),
      ageMs: spec.ageDays * DAY,
    }),
  );
}

/** Queries as typed: each prefix of a line, then erased back to a prefix, then typed on. */
const typed = fc
  .array(
    fc.record({
      line: fc.oneof(
        fc.constantFrom(...WORDS),
        fc.constantFrom('logn', 'rfctr', 'sqlite idx', 'fix log', '"fix l', "'logi", '!log', 'api|cache'),
        fc.constantFrom('cwd:app log', 'is:named fix', 'login !fix', 'x12ab', 'ab12'),
      ),
      eraseTo: fc.nat(),
    }),
    { minLength: 1, maxLength: 4 },
  )
  .map((lines) => {
    const queries: string[] = [];
    for (const { line, eraseTo } of lines) {
      for (let i = 1; i <= line.length; i++) queries.push(line.slice(0, i));
      for (let i = line.length - 1; i > eraseTo % line.length; i--) queries.push(line.slice(0, i));
    }
    return queries;
  });

const parsed = (q: string): ParsedQuery => parseQuery(q, NOW);

function found(index: SearchIndex, query: string, preparedOnly: boolean) {
  const outcome = searchSessions(index, parsed(query), { preparedOnly });
  return {
    matches: outcome.matches.map((m) => [m.info.path, m.score, m.textHit?.start, m.textHit?.length]),
    unindexed: outcome.unindexed,
  };
}

/** A one-word query's score for one session, tier by tier (query-engine.ts's module comment). */
function wordScore(index: SearchIndex, i: number, word: string): number | undefined {
  const info = index.sessions[i]!;
  const name = (info.name ?? '').toLowerCase();
  const cwd = info.cwd.toLowerCase();
  if (name.includes(word)) return Math.min(name.indexOf(word), 99) + (1 - word.length / Math.max(name.length, 1)) * 100;
  const fuzzyName = fuzzyNames(index.fuzzy, word).get(i);
  if (fuzzyName !== undefined) return 1000 + fuzzyName * 100;
  if (textOf(info).includes(word) || cwd.includes(word) || info.id.toLowerCase().includes(word)) return 2000;
  const fuzzyCwd = fuzzyCwds(index.fuzzy, word).get(info.cwd);
  if (fuzzyCwd !== undefined) return 3000 + fuzzyCwd * 100;
  const clamp = (score: number) => Math.min(999, Math.max(0, score + 200));
  const inName = name === '' ? undefined : subsequenceScore(word, name);
  if (inName !== undefined) return 4000 + clamp(inName);
  const inCwd = subsequenceScore(word, cwd);
  return inCwd === undefined ? undefined : 5000 + clamp(inCwd);
}

describe('search keystrokes over one index', () => {
  it('typing, erasing and retyping finds what a fresh index finds (scores, order, text hits, unindexed)', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 30 }), typed, fc.boolean(), (specs, queries, only) => {
        const sessions = listOf(specs, run++);
        prepareTexts(
          sessions.filter((_, i) => specs[i]!.prepared),
          60_000,
        );
        const kept = createSearchIndex(sessions);
        for (const query of queries) {
          expect(found(kept, query, only), query).toEqual(found(createSearchIndex(sessions), query, only));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('ranks a word by its tiers, session by session, while it is typed', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(session, { minLength: 1, maxLength: 30 }), fc.constantFrom(...WORDS), (specs, word) => {
        const sessions = listOf(specs, run++);
        const index = createSearchIndex(sessions);
        for (let length = 1; length <= word.length; length++) {
          const prefix = word.slice(0, length);
          const expected = sessions.flatMap((info, i) => {
            const score = wordScore(index, i, prefix);
            return score === undefined ? [] : [[info.path, score]];
          });
          const outcome = searchSessions(index, parsed(prefix));
          expect(
            outcome.matches.map((m) => [m.info.path, m.score]),
            prefix,
          ).toEqual(expected);
          // Every text hit is the first occurrence in a session the word matched by its text.
          for (const m of outcome.matches) if (m.textHit) expect(textOf(m.info).indexOf(prefix)).toBe(m.textHit.start);
        }
      }),
      { numRuns: 200 },
    );
  });
});
