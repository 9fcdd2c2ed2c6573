/**
 * Where an entry is in its session, for branch-aware search: `active` (on the path
 * pi resumes and seen by the model), `compacted` (on that path, before the latest compaction, and
 * no longer in the model's context) or `abandoned` (on a branch pi is not on).
 */
import { buildContextEntries, type ContextOptions } from '../context.js';
import { getBranch, type SessionTree } from '../tree.js';

export type EntryPlace = 'active' | 'abandoned' | 'compacted';

/** Every entry's place, seen from `leafId` (default: the leaf pi resumes). */
export function entryPlaces(
  tree: SessionTree,
  leafId: string | null = tree.leafId,
  options: ContextOptions = {},
): Map<string, EntryPlace> {
  const places = new Map<string, EntryPlace>();
  for (const id of tree.byId.keys()) places.set(id, 'abandoned');
  const path = getBranch(tree, leafId);
  let lastCompaction = -1;
  path.forEach((entry, i) => {
    if (entry.type === 'compaction') lastCompaction = i;
  });
  // Before the latest compaction only what the context still carries (its kept entries) is seen.
  const seen = lastCompaction === -1 ? undefined : new Set(buildContextEntries(tree, leafId, options).map((e) => e.id));
  path.forEach((entry, i) => {
    places.set(entry.id, i < lastCompaction && !seen?.has(entry.id) ? 'compacted' : 'active');
  });
  return places;
}
