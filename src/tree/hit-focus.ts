/**
 * Opening the tree on a picker hit (pure): the tree's search pre-filled with the
 * hit's text, the cursor on the hit's summary entry, else on the first matching entry at the hit's
 * place (active / abandoned / compacted, as hit-places.ts counts them), under a filter that shows it.
 */
import type { KeyBinding } from '../keymap/keymap.js';
import type { EntryPlace } from '../store/index.js';
import { buildForest, FILTER_CYCLE, type FilterMode, search, type TreeIndex } from './flatten.js';
import { matchPlaces } from './hit-places.js';
import type { TreeCommand, TreeKeyMode } from './keymap.js';

export interface TreeFocus {
  query: string;
  /** The node the cursor starts on. */
  node: number;
  filter: FilterMode;
  /** Set when the preferred filter hid the entry and another one is used: says so. */
  note?: string;
}

/**
 * Opening the tree on an entry (a label in the labels view, a fork's parent link): no search, the
 * cursor on it, under the preferred filter or the first that shows it (and a note saying so).
 * Undefined for an id that is not an entry of this session (the tree opens on the leaf).
 */
export function entryFocus(index: TreeIndex, entryId: string, preferred: FilterMode): TreeFocus | undefined {
  const node = index.numOf.get(entryId);
  if (node === undefined || node >= index.size) return undefined;
  const filter = [preferred, ...FILTER_CYCLE].find((f) => buildForest(index, f).visible[node] === 1) ?? 'all';
  if (filter === preferred) return { query: '', node, filter };
  return { query: '', node, filter, note: `Filter ${filter}: the ${preferred} filter hides this entry` };
}

export function treeFocus(
  index: TreeIndex,
  hit: { text: string; place: EntryPlace; entryId?: string; words?: string },
  preferred: FilterMode,
): TreeFocus | undefined {
  // The query's every word where one entry holds them all (what the user typed), else the hit's.
  const all = hit.words === undefined ? undefined : search(index, hit.words);
  const query = all && all.matches.length > 0 ? hit.words! : hit.text;
  const result = all && all.matches.length > 0 ? all : search(index, hit.text);
  if (!result || result.matches.length === 0) return undefined;
  const { first } = matchPlaces(index, result.matches);
  // A hit in a summary names its entry: the cursor goes there when the search finds it too.
  const entry = hit.entryId === undefined ? undefined : index.numOf.get(hit.entryId);
  const node = entry !== undefined && result.matches.includes(entry) ? entry : (first[hit.place] ?? result.matches[0]!);
  const filter = [preferred, ...FILTER_CYCLE].find((f) => buildForest(index, f, result).visible[node] === 1) ?? 'all';
  if (filter === preferred) return { query, node, filter };
  return { query, node, filter, note: `Filter ${filter}: the ${preferred} filter hides this hit` };
}

/** While the hit's search stands unedited Esc goes back (reducer.ts), and the footer says so. */
export function hitSearchHintBindings(
  bindings: readonly KeyBinding<TreeCommand, TreeKeyMode>[],
  query: string,
  openedQuery: string | null,
): readonly KeyBinding<TreeCommand, TreeKeyMode>[] {
  if (openedQuery === null || query !== openedQuery) return bindings;
  return bindings.map((b) => (b.command === 'escape' && b.hint !== undefined ? { ...b, hint: 'back' } : b));
}
