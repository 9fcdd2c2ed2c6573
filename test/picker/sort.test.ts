import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionMatch } from '../../src/picker/query.js';
import { nextSortMode, parentsIn, pathKey, SORT_MODES, sortRows } from '../../src/picker/sort.js';
import { DAY, makeInfo } from './make-info.js';

const m = (
  path: string,
  ageDays: number,
  extra: Parameters<typeof makeInfo>[0] extends infer T ? Partial<T> : never = {},
  score = 0,
): SessionMatch => ({
  info: makeInfo({ path, ageMs: ageDays * DAY, ...extra }),
  score,
});

describe('sortRows', () => {
  const root = m('/s/root.jsonl', 10);
  const fork1 = m('/s/fork1.jsonl', 2, { parentSessionPath: '/s/./root.jsonl' });
  const fork2 = m('/s/fork2.jsonl', 5, { parentSessionPath: '/s/root.jsonl' });
  const grand = m('/s/grand.jsonl', 3, { parentSessionPath: '/s/fork1.jsonl' });
  const other = m('/s/other.jsonl', 4, { size: 99_999_999 });
  const orphan = m('/s/orphan.jsonl', 1, { parentSessionPath: '/gone.jsonl' });
  const all = [root, fork1, fork2, grand, other, orphan];

  it('threaded: a fork forest, subtrees by newest activity, pi-style prefixes', () => {
    const rows = sortRows(all, 'threaded', false);
    expect(rows.map((r) => `${r.prefix}${r.info.path}`)).toEqual([
      '/s/orphan.jsonl',
      '/s/root.jsonl',
      '   ├─ /s/fork1.jsonl',
      '   │  └─ /s/grand.jsonl',
      '   └─ /s/fork2.jsonl',
      '/s/other.jsonl',
    ]);
  });

  it('threaded with a ranking query orders by the best score in each subtree', () => {
    const scored = all.map((x) => ({ ...x, score: x === grand ? 0 : 2000 }));
    expect(sortRows(scored, 'threaded', true)[0]!.info.path).toBe('/s/root.jsonl');
    expect(sortRows(scored, 'threaded', true)[1]!.info.path).toBe('/s/fork1.jsonl');
  });

  it('survives parent cycles without dropping sessions', () => {
    const a = m('/c/a', 1, { parentSessionPath: '/c/b' });
    const b = m('/c/b', 2, { parentSessionPath: '/c/a' });
    const rows = sortRows([a, b], 'threaded', false);
    expect(rows.map((r) => r.info.path).sort()).toEqual(['/c/a', '/c/b']);
  });

  it.each([
    [
      'recent',
      ['/s/orphan.jsonl', '/s/fork1.jsonl', '/s/grand.jsonl', '/s/other.jsonl', '/s/fork2.jsonl', '/s/root.jsonl'],
    ],
    [
      'size',
      ['/s/other.jsonl', '/s/orphan.jsonl', '/s/fork1.jsonl', '/s/grand.jsonl', '/s/fork2.jsonl', '/s/root.jsonl'],
    ],
  ] as const)('%s', (mode, expected) => {
    expect(sortRows(all, mode, false).map((r) => r.info.path)).toEqual(expected);
  });

  it('relevance: score, then recency', () => {
    const rows = sortRows([m('/a', 1, {}, 2000), m('/b', 3, {}, 5), m('/c', 2, {}, 5)], 'relevance', true);
    expect(rows.map((r) => r.info.path)).toEqual(['/c', '/b', '/a']);
  });

  it('cost: most expensive first', () => {
    const cheap = m('/cheap', 1);
    const dear = m('/dear', 9, {
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 5 },
    });
    expect(sortRows([cheap, dear], 'cost', false).map((r) => r.info.path)).toEqual(['/dear', '/cheap']);
  });

  it('cycles sort modes', () => {
    expect(['threaded', 'recent', 'relevance', 'size', 'cost'].map((s) => nextSortMode(s as never))).toEqual([
      'recent',
      'relevance',
      'size',
      'cost',
      'threaded',
    ]);
  });

  it('threaded without a parent among the matches is the relevance order when ranked, else the recent one', () => {
    // Sessions listed with forks among them; the matches leave out every match's parent.
    const session = fc.record({
      ageDays: fc.integer({ min: 0, max: 4 }),
      score: fc.constantFrom(0, 5, 2000, 2000.5),
      parent: fc.option(fc.integer({ min: 0, max: 11 }), { nil: undefined }),
      matched: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(session, { minLength: 12, maxLength: 12 }), fc.boolean(), (listed, ranked) => {
        const infos = listed.map((x, i) =>
          makeInfo({
            path: `/p/s${i}.jsonl`,
            ageMs: x.ageDays * DAY,
            ...(x.parent === undefined ? {} : { parentSessionPath: `/p/s${x.parent}.jsonl` }),
          }),
        );
        const kept = new Set<number>();
        listed.forEach((x, i) => {
          const isParentOfKept = [...kept].some((k) => listed[k]!.parent === i);
          if (x.matched && (x.parent === undefined || !kept.has(x.parent)) && !isParentOfKept) kept.add(i);
        });
        const matches = [...kept].sort((a, b) => a - b).map((i) => ({ info: infos[i]!, score: listed[i]!.score }));
        const parents = parentsIn(infos);
        const paths = (mode: 'threaded' | 'relevance' | 'recent') =>
          sortRows(matches, mode, ranked, parents).map((r) => `${r.prefix}${r.info.path}/${r.depth}`);
        expect(paths('threaded')).toEqual(paths(ranked ? 'relevance' : 'recent'));
      }),
      { numRuns: 500 },
    );
  });

  it('matches already newest first sort as they would unsorted, in every mode', () => {
    const match = fc.record({
      ageDays: fc.integer({ min: 0, max: 5 }),
      score: fc.constantFrom(0, -0, 5, 12.5, 2000, 2000.5, 4100),
      parent: fc.option(fc.nat(), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(match, { maxLength: 14 }), fc.boolean(), (picked, ranked) => {
        // Newest first: ages never decrease down the list (equal ages included).
        const byAge = [...picked].sort((a, b) => a.ageDays - b.ageDays);
        const matches = byAge.map((x, i) =>
          m(
            `/n/${i}.jsonl`,
            x.ageDays,
            x.parent === undefined ? {} : { parentSessionPath: `/n/${x.parent % byAge.length}.jsonl` },
            x.score,
          ),
        );
        for (const mode of SORT_MODES) {
          const rows = (newestFirst: boolean) =>
            sortRows(matches, mode, ranked, undefined, newestFirst).map((r) => `${r.prefix}${r.info.path}/${r.score}`);
          expect(rows(true), mode).toEqual(rows(false));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('pathKey is resolve (its shortcut for paths that are normal already included)', () => {
    const segment = fc.constantFrom('a', 'b.jsonl', '.', '..', '', '...', '.x', 'x.', '--home-u--');
    fc.assert(
      fc.property(fc.boolean(), fc.array(segment, { maxLength: 6 }), fc.boolean(), (absolute, parts, trailing) => {
        const path = `${absolute ? '/' : ''}${parts.join('/')}${trailing ? '/' : ''}`;
        if (path !== '') expect(pathKey(path)).toBe(resolve(path));
      }),
      { numRuns: 2000 },
    );
  });
});
