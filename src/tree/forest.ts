/**
 * The second stage of the navigator (see flatten.ts), per filter and search: the visible nodes
 * re-parented to their nearest visible ancestor (pi-ui-reference §2.3 rule 6), children in
 * display order. A retained message is never a child in the forest: its visible parent is its
 * compaction, and the layout draws it right under the compaction's row.
 */
import type { FilterMode } from './filter.js';
import { filterMask } from './filter.js';
import type { SearchResult } from './search.js';
import type { TreeIndex } from './tree-index.js';

export interface Forest {
  readonly index: TreeIndex;
  readonly filter: FilterMode;
  readonly search: SearchResult | undefined;
  /** 1 visible, 0 hidden (per node, retained messages included). */
  readonly visible: Uint8Array;
  /** 1 when shown only as a structural ancestor of matches (dimmed, not a match). */
  readonly context: Uint8Array | undefined;
  readonly roots: readonly number[];
  readonly vparent: Int32Array;
  readonly firstChild: Int32Array;
  readonly nextSibling: Int32Array;
  readonly childCount: Int32Array;
  /** The leaf, or its nearest visible ancestor when the leaf is hidden; -1 if neither. */
  readonly leafHost: number;
  /**
   * The leaf is hidden and only label or session_info entries lie between it and `leafHost`
   * (what labelling, renaming and resuming append): they add nothing to the context, so pi
   * resumes with the host's context and the host carries the leaf marker. Otherwise a hidden
   * leaf is said to be hidden below its host.
   */
  readonly leafBelowIsBookkeeping: boolean;
  /** Visible nodes whose row can be drawn (retained messages of a hidden compaction are not). */
  readonly visibleCount: number;
  /** Fork nodes by the shown node they hang on (the nearest shown entry at or above the fork point). */
  readonly forksAt: ReadonlyMap<number, readonly number[]>;
}

/**
 * Visible = passes the filter and (no search, or matches, or is a structural ancestor of a
 * match). Structural ancestors are the roots and branch points above a match: they keep the
 * result a tree (which branch a match lives in) without flooding it with every entry of a long
 * linear path, as keeping all ancestors would. A matching retained message also brings its
 * compaction, whose row it is drawn under.
 */
function visibleMask(
  index: TreeIndex,
  filter: FilterMode,
  result: SearchResult | undefined,
): { visible: Uint8Array; context: Uint8Array | undefined } {
  const base = filterMask(index, filter);
  if (!result) return { visible: base, context: undefined };
  const visible = new Uint8Array(index.nodeCount);
  const context = new Uint8Array(index.nodeCount);
  const walked = new Uint8Array(index.size);
  const { parent, childStart, size } = index;
  for (const m of result.matches) {
    if (!base[m]) continue;
    visible[m] = 1;
    let from = m;
    if (m >= size) {
      // The filter shows a retained message only where it shows its compaction.
      const owner = parent[m]!;
      if (!visible[owner]) {
        visible[owner] = 1;
        context[owner] = 1;
      }
      from = owner;
    }
    for (let p = parent[from]!; p !== -1 && !walked[p]; p = parent[p]!) {
      walked[p] = 1;
      const isBranchPoint = childStart[p + 1]! - childStart[p]! >= 2;
      if (base[p] && !visible[p] && (isBranchPoint || parent[p] === -1)) {
        visible[p] = 1;
        context[p] = 1;
      }
    }
  }
  // Fork rows are not searched (another session's text); they stay where their entries are shown.
  visible.fill(1, index.forkBase);
  // A node can be both a match and (walked earlier) marked as context: the match wins.
  for (const m of result.matches) if (visible[m] && context[m]) context[m] = 0;
  return { visible, context };
}

/** Roots and children in display order: the branch holding the leaf first (§2.2). */
function pushChildrenReversed(index: TreeIndex, n: number, stack: number[]): void {
  const { childStart, childList, activeChild } = index;
  const active = activeChild[n]!;
  for (let j = childStart[n + 1]! - 1; j >= childStart[n]!; j--) {
    const c = childList[j]!;
    if (c !== active) stack.push(c);
  }
  if (active !== -1) stack.push(active);
}

export function buildForest(index: TreeIndex, filter: FilterMode, result?: SearchResult): Forest {
  const { visible, context } = visibleMask(index, filter, result);
  const { size, nodeCount } = index;
  const vparent = new Int32Array(nodeCount).fill(-1);
  const firstChild = new Int32Array(nodeCount).fill(-1);
  const lastChild = new Int32Array(size).fill(-1);
  const nextSibling = new Int32Array(nodeCount).fill(-1);
  const childCount = new Int32Array(nodeCount);
  // Nearest visible ancestor of each node, set when its parent is popped.
  const nva = new Int32Array(size).fill(-1);
  const roots: number[] = [];
  let leafHost = -1;
  let visibleCount = 0;

  const stack: number[] = [];
  for (let j = index.roots.length - 1; j >= 0; j--) {
    const r = index.roots[j]!;
    if (r !== index.activeRoot) stack.push(r);
  }
  if (index.activeRoot !== -1) stack.push(index.activeRoot);

  while (stack.length > 0) {
    const n = stack.pop()!;
    const vp = nva[n]!;
    const shown = visible[n] === 1;
    if (shown) {
      visibleCount++;
      vparent[n] = vp;
      if (vp === -1) roots.push(n);
      else {
        if (lastChild[vp] === -1) firstChild[vp] = n;
        else nextSibling[lastChild[vp]!] = n;
        lastChild[vp] = n;
        childCount[vp]!++;
      }
    }
    if (n === index.leaf) leafHost = shown ? n : vp;
    const childNva = shown ? n : vp;
    const before = stack.length;
    pushChildrenReversed(index, n, stack);
    for (let s = before; s < stack.length; s++) nva[stack[s]!] = childNva;
  }
  for (let n = size; n < index.forkBase; n++) {
    const owner = index.parent[n]!;
    if (visible[n] === 1 && visible[owner] === 1) {
      vparent[n] = owner;
      visibleCount++;
    }
  }
  const forksAt = new Map<number, number[]>();
  for (let n = index.forkBase; n < nodeCount; n++) {
    let host = index.parent[n]!;
    for (let guard = 0; host !== -1 && visible[host] !== 1 && guard <= size; guard++) host = index.parent[host]!;
    if (host === -1) continue;
    vparent[n] = host;
    visibleCount++;
    const list = forksAt.get(host);
    if (list) list.push(n);
    else forksAt.set(host, [n]);
  }
  const leafBelowIsBookkeeping =
    leafHost !== -1 && leafHost !== index.leaf && onlyMetadataBetween(index, index.leaf, leafHost);
  return {
    index,
    filter,
    search: result,
    visible,
    context,
    roots,
    vparent,
    firstChild,
    nextSibling,
    childCount,
    leafHost,
    leafBelowIsBookkeeping,
    visibleCount,
    forksAt,
  };
}

/** Whether every entry from `from` up to (not including) its ancestor `to` is a label or session_info entry. */
function onlyMetadataBetween(index: TreeIndex, from: number, to: number): boolean {
  for (let n = from, guard = 0; n !== to && n !== -1 && guard <= index.size; n = index.parent[n]!, guard++) {
    const type = index.entries[n]!.type;
    if (type !== 'label' && type !== 'session_info') return false;
  }
  return true;
}
