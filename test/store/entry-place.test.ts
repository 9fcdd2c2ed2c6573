/** Where each entry is (active / compacted / abandoned), against pi's own answers in the goldens. */
import { describe, expect, it } from 'vitest';
import { buildTree, type EntryPlace, entryPlaces, readSessionSync } from '../../src/store/index.js';
import { goldenCases } from '../helpers/corpus.js';

const cases = goldenCases().filter((c) => !c.golden.error && !c.golden.generatedHeader && !c.golden.idsFromMigration);

/** The place pi's answers imply: its resume path (`branch`) and the entries its context is built from. */
function expectedPlaces(g: (typeof cases)[number]['golden']): Map<string, EntryPlace> {
  const onPath = new Set(g.branch);
  const inContext = new Set(g.contextEntries);
  const lastCompaction = g.branch.reduce(
    (at, id, i) => (g.entries.find((e) => e.id === id)?.type === 'compaction' ? i : at),
    -1,
  );
  const before = new Set(g.branch.slice(0, Math.max(0, lastCompaction)));
  return new Map(
    g.entries.map((e) => [
      e.id,
      !onPath.has(e.id) ? 'abandoned' : before.has(e.id) && !inContext.has(e.id) ? 'compacted' : 'active',
    ]),
  );
}

describe('entry places', () => {
  it('covers compacted and abandoned entries somewhere in the corpus', () => {
    const all = cases.flatMap((c) => [...expectedPlaces(c.golden).values()]);
    expect(all).toContain('compacted');
    expect(all).toContain('abandoned');
  });

  for (const c of cases) {
    it(`${c.corpus}: ${c.folder}/${c.file}`, () => {
      const session = readSessionSync(c.sessionPath);
      expect(session.ok).toBe(true);
      if (!session.ok) return;
      const tree = buildTree(session);
      // The goldens are pi 1.6.0's context (it ignores a compaction's retainedTail).
      expect(entryPlaces(tree, tree.leafId, { asPi: true })).toEqual(expectedPlaces(c.golden));
    });
  }
});
