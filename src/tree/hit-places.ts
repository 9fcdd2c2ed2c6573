/**
 * Branch-aware hits: for a text found in a session, how many of the entries holding
 * it are active, abandoned or compacted (store/summary/entry-place.ts), and the first of each kind. A
 * retained message (a compaction's `retainedTail`) is where its compaction is: the model sees it
 * when the compaction is on the path pi resumes.
 */
import { type EntryPlace, entryPlaces } from '../store/index.js';
import { retainedNode, searchTextOf, type TreeIndex } from './tree-index.js';

export interface HitPlaces {
  counts: Record<EntryPlace, number>;
  /** Node number of the first hit of each kind (file order), for opening the tree on it. */
  first: Partial<Record<EntryPlace, number>>;
}

/** The nodes whose search text contains `text` (lower-cased, as the tree searches), by place. */
export function hitPlaces(index: TreeIndex, text: string): HitPlaces {
  const needle = text.toLowerCase();
  if (needle === '') return matchPlaces(index, []);
  const matches: number[] = [];
  for (let n = 0; n < index.nodeCount; n++) if (searchTextOf(index, n).includes(needle)) matches.push(n);
  return matchPlaces(index, matches);
}

/** Given nodes (a search's matches, ascending), by place. */
export function matchPlaces(index: TreeIndex, nodes: ArrayLike<number>): HitPlaces {
  const places = entryPlaces(index.tree);
  const counts: Record<EntryPlace, number> = { active: 0, abandoned: 0, compacted: 0 };
  const first: Partial<Record<EntryPlace, number>> = {};
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    const owner = n < index.size ? n : (retainedNode(index, n)?.owner ?? n);
    const place = places.get(index.entries[owner]!.id) ?? 'abandoned';
    counts[place]++;
    first[place] ??= n;
  }
  return { counts, first };
}
