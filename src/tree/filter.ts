/** The navigator's filters (pi-ui-reference §2.6): which nodes each mode shows. */

import type { FilterMode } from './filter-mode.js';
import { K_OTHER, K_PURE_TOOL_CALL, K_SYSTEM, K_TOOL_RESULT, K_USAGE, K_USER } from './node-kinds.js';
import type { TreeIndex } from './tree-index.js';

export type { FilterMode };

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
      // Really everything: usage entries and no-text assistant turns too, which pi hides in every
      // filter (rowsBeyondPi counts them, and the counter says what pi would show).
      return true;
    case 'default':
      // pi's rule: every message but the settings-like bookkeeping entries (system messages included).
      return kind === K_OTHER || kind === K_USER || kind === K_TOOL_RESULT || kind === K_SYSTEM;
    case 'no-tools':
      return kind === K_OTHER || kind === K_USER || kind === K_SYSTEM;
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

/**
 * The rows drawn that pi 1.6.0's /tree does not draw, by why: no-text assistant turns that are not
 * the leaf and `usage` entries (pi hides both in every filter; ours shows them in "all", and in
 * "labeled-only" when labelled, so that every label and every entry can be reached), messages a
 * compaction retains (pi 1.6.0 ignores `retainedTail`) and fork rows (other sessions forked from
 * this one). Without a search, pi's row count is ours less their sum; broken files (a duplicated
 * id pi draws twice, a parent cycle pi never draws) differ beyond these. `nodes` are the drawn
 * rows' node numbers (the layout's).
 */
export interface RowsBeyondPi {
  readonly noTextTurns: number;
  readonly usage: number;
  readonly retained: number;
  readonly forks: number;
}

export function rowsBeyondPi(index: TreeIndex, nodes: ArrayLike<number>, count = nodes.length): RowsBeyondPi {
  let noTextTurns = 0;
  let usage = 0;
  let retained = 0;
  let forks = 0;
  for (let row = 0; row < count; row++) {
    const n = nodes[row]!;
    if (n >= index.forkBase) forks++;
    else if (n >= index.size) retained++;
    else if (index.kind[n] === K_USAGE) usage++;
    else if (index.kind[n] === K_PURE_TOOL_CALL && n !== index.leaf) noTextTurns++;
  }
  return { noTextTurns, usage, retained, forks };
}

/** How many of the drawn rows pi's /tree would not draw. */
export function rowsPiHides(beyond: RowsBeyondPi): number {
  return beyond.noTextTurns + beyond.usage + beyond.retained + beyond.forks;
}

/** How many rows pi's /tree draws where this layout (no search) draws `layout.count`. */
export function piRowCount(
  index: TreeIndex,
  layout: { readonly nums: ArrayLike<number>; readonly count: number },
): number {
  return layout.count - rowsPiHides(rowsBeyondPi(index, layout.nums, layout.count));
}
