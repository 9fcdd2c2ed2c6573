/** The navigator's filters (pi-ui-reference §2.6): which nodes each mode shows. */
import type { TreeIndex } from './tree-index.js';
import { K_OTHER, K_PURE_TOOL_CALL, K_TOOL_RESULT, K_USER } from './tree-index.js';

export type FilterMode = 'default' | 'no-tools' | 'user-only' | 'labeled-only' | 'all';

/** Ctrl+O cycles forward through this list, Shift+Ctrl+O backward (pi's order). */
export const FILTER_CYCLE: readonly FilterMode[] = ['default', 'no-tools', 'user-only', 'labeled-only', 'all'];

/** The footer tag pi shows after `(i/N)`; default has none. */
export const FILTER_TAGS: Readonly<Record<FilterMode, string>> = {
  default: '',
  'no-tools': '[no-tools]',
  'user-only': '[user]',
  'labeled-only': '[labeled]',
  all: '[all]',
};

function shownBy(mode: FilterMode, kind: number, labeled: boolean): boolean {
  switch (mode) {
    case 'all':
      // Really everything: usage entries and pure tool-call turns too (pi hides both, §4 #18).
      return true;
    case 'default':
      // System messages carry nothing readable in a row (§4 #19); "all" still shows them.
      return kind === K_OTHER || kind === K_USER || kind === K_TOOL_RESULT;
    case 'no-tools':
      return kind === K_OTHER || kind === K_USER;
    case 'user-only':
      return kind === K_USER;
    case 'labeled-only':
      return labeled;
  }
}

/**
 * 1 for each node the filter shows. A retained message follows the same rule as an entry of its
 * kind, and is shown only where its compaction is (its rows live under the compaction's).
 */
export function filterMask(index: TreeIndex, mode: FilterMode): Uint8Array {
  const cached = index.filterMasks.get(mode);
  if (cached) return cached;
  const { size, nodeCount, kind, leaf } = index;
  const mask = new Uint8Array(nodeCount);
  const labels = index.tree.labels;
  for (let i = 0; i < size; i++) mask[i] = shownBy(mode, kind[i]!, labels.has(index.entries[i]!.id)) ? 1 : 0;
  // pi's rule: a pure tool-call turn is drawn when it is the leaf. Other hidden leaves (the label
  // or session_info entries that labelling and branch-in-place append) add nothing to the
  // context, so their nearest visible ancestor is where pi effectively resumes: the cursor starts
  // there (Forest.leafHost) and carries the leaf marker; a leaf hidden by a filter that hides
  // conversation too is said to be hidden below its host (◇, Forest.leafBelowIsBookkeeping).
  if (leaf !== -1 && kind[leaf] === K_PURE_TOOL_CALL && (mode === 'default' || mode === 'no-tools')) mask[leaf] = 1;
  for (let n = size; n < index.forkBase; n++) {
    const owner = index.retained[n - size]!.owner;
    mask[n] = mask[owner] === 1 && shownBy(mode, kind[n]!, false) ? 1 : 0;
  }
  // A fork row shows whatever the filter: it hangs on the nearest shown entry above its fork point.
  mask.fill(1, index.forkBase, nodeCount);
  index.filterMasks.set(mode, mask);
  return mask;
}
