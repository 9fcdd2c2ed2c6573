/**
 * The third stage of the navigator (see flatten.ts), per forest and folds: the rows with pi's
 * indentation, connectors and gutters (pi's flattenTree + recalculateVisualStructure, §2.3), and
 * the cursor's segment jumps (§2.9). A compaction's retained messages are rows right under its
 * own, before its children, with the gutters its children would have and no connector.
 */

import type { SessionTree } from '../store/index.js';
import type { FilterMode } from './filter.js';
import type { Forest } from './forest.js';
import { buildForest } from './forest.js';
import type { ForkLink } from './fork-nodes.js';
import { search } from './search.js';
import { buildIndex, forkNode } from './tree-index.js';

export interface Gutter {
  /** Indent level (display columns / 3) where the `│` or blank sits. */
  readonly position: number;
  readonly show: boolean;
  readonly next: Gutter | null;
}

export const CONNECTOR_NONE = 0;
export const CONNECTOR_MID = 1;
export const CONNECTOR_LAST = 2;

export interface FlatRow {
  readonly num: number;
  readonly id: string;
  /** pi's indent level; the drawn level is `displayIndent`. */
  readonly indent: number;
  readonly displayIndent: number;
  readonly connector: 0 | 1 | 2;
  readonly gutters: Gutter | null;
  readonly foldable: boolean;
  readonly folded: boolean;
  readonly onActivePath: boolean;
  readonly isLeaf: boolean;
  /** The leaf is hidden by the filter or search and this row is its nearest visible ancestor. */
  readonly leafBelow: boolean;
  /** With `leafBelow`: only labels or session_info lie between, so pi resumes with this row's context (Forest.leafBelowIsBookkeeping). */
  readonly leafBelowIsBookkeeping: boolean;
  readonly isMatch: boolean;
  /** Shown only to keep search results a tree (a root or branch point above matches). */
  readonly isContext: boolean;
  readonly label: string | undefined;
  readonly labelTimestamp: string | undefined;
  /**
   * Set on the row of a retained message (not an entry: `id` is only a row key): the id of the
   * compaction whose `retainedTail` holds it.
   */
  readonly retainedBy: string | undefined;
  /** Set on the row of a session forked from this one (not an entry: `id` is only a row key). */
  readonly fork: ForkLink | undefined;
}

/**
 * The rows, stored column-wise in typed arrays: a 100k-row layout is a handful of allocations,
 * and `rowAt` builds the row objects only for the rows actually drawn.
 */
export interface Layout {
  readonly forest: Forest;
  readonly folds: ReadonlySet<string>;
  readonly count: number;
  /** Row → node number. */
  readonly nums: Int32Array;
  /** Row → pi's indent level. */
  readonly indents: Int32Array;
  /** Row → connector (bits 0-1), foldable (bit 2), folded (bit 3). */
  readonly flags: Uint8Array;
  readonly gutters: readonly (Gutter | null)[];
  /** Node number → row index, -1 when not drawn. */
  readonly rowOf: Int32Array;
  /** pi lays several visible roots out as children of a virtual root. */
  readonly multipleRoots: boolean;
  /** Row indices of search matches, ascending. */
  readonly matchRows: readonly number[];
}

const F_FOLDABLE = 4;
const F_FOLDED = 8;
// Stack item flags.
const S_JUST_BRANCHED = 1;
const S_SHOW_CONNECTOR = 2;
const S_IS_LAST = 4;
const S_VIRTUAL_ROOT_CHILD = 8;

export function isFoldable(forest: Forest, num: number): boolean {
  if (forest.childCount[num]! === 0) return false;
  const vp = forest.vparent[num]!;
  return vp === -1 || forest.childCount[vp]! >= 2;
}

export function layoutForest(forest: Forest, folds: ReadonlySet<string>): Layout {
  const { index, roots, firstChild, nextSibling, childCount, context, visibleCount } = forest;
  const isMatch = forest.search?.isMatch;
  const multipleRoots = roots.length > 1;
  const nums = new Int32Array(visibleCount);
  const indents = new Int32Array(visibleCount);
  const flags = new Uint8Array(visibleCount);
  const gutters: (Gutter | null)[] = new Array<Gutter | null>(visibleCount);
  const rowOf = new Int32Array(index.nodeCount).fill(-1);
  const { retainedStart, size } = index;
  const matchRows: number[] = [];
  // The explicit stack, column-wise (pi's flattenTree tuple).
  const stNum: number[] = [];
  const stIndent: number[] = [];
  const stFlags: number[] = [];
  const stGutters: (Gutter | null)[] = [];
  const checkFolds = folds.size > 0;
  for (let j = roots.length - 1; j >= 0; j--) {
    stNum.push(roots[j]!);
    stIndent.push(multipleRoots ? 1 : 0);
    stFlags.push(
      (multipleRoots ? S_JUST_BRANCHED | S_SHOW_CONNECTOR | S_VIRTUAL_ROOT_CHILD : 0) |
        (j === roots.length - 1 ? S_IS_LAST : 0),
    );
    stGutters.push(null);
  }
  let count = 0;
  /** A row beside its entry (a retained bookkeeping entry, a fork made there): no connector of its own. */
  const placeAside = (node: number, indent: number, rowGutters: Gutter | null): number => {
    const at = count++;
    nums[at] = node;
    indents[at] = indent;
    flags[at] = CONNECTOR_NONE;
    gutters[at] = rowGutters;
    rowOf[node] = at;
    return at;
  };
  while (stNum.length > 0) {
    const n = stNum.pop()!;
    const indent = stIndent.pop()!;
    const sf = stFlags.pop()!;
    const rowGutters = stGutters.pop()!;
    const kids = childCount[n]!;
    const vp = forest.vparent[n]!;
    const foldable = kids > 0 && (vp === -1 || childCount[vp]! >= 2);
    const folded = foldable && checkFolds && folds.has(index.entries[n]!.id);
    const isLast = (sf & S_IS_LAST) !== 0;
    const connectorShown = (sf & S_SHOW_CONNECTOR) !== 0 && (sf & S_VIRTUAL_ROOT_CHILD) === 0;
    const row = count++;
    nums[row] = n;
    indents[row] = indent;
    flags[row] =
      (connectorShown ? (isLast ? CONNECTOR_LAST : CONNECTOR_MID) : CONNECTOR_NONE) |
      (foldable ? F_FOLDABLE : 0) |
      (folded ? F_FOLDED : 0);
    gutters[row] = rowGutters;
    rowOf[n] = row;
    if (isMatch !== undefined && isMatch[n] === 1 && !(context !== undefined && context[n] === 1)) matchRows.push(row);
    if (folded) continue;
    const displayIndent = multipleRoots ? Math.max(0, indent - 1) : indent;
    const childGutters: Gutter | null = connectorShown
      ? { position: Math.max(0, displayIndent - 1), show: !isLast, next: rowGutters }
      : rowGutters;
    for (let r = size + retainedStart[n]!, end = size + retainedStart[n + 1]!; r < end; r++) {
      if (forest.visible[r] !== 1) continue;
      const at = placeAside(r, indent, childGutters);
      if (isMatch !== undefined && isMatch[r] === 1) matchRows.push(at);
    }
    // Forks made here: rows like the retained ones, before the children (where the copy ends).
    for (const f of forest.forksAt.get(n) ?? []) placeAside(f, indent, childGutters);
    if (kids === 0) continue;
    const multipleChildren = kids > 1;
    let childIndent: number;
    if (multipleChildren) childIndent = indent + 1;
    else if ((sf & S_JUST_BRANCHED) !== 0 && indent > 0)
      childIndent = indent + 1; // rule 3
    else childIndent = indent; // rule 1: chains stay flat
    const childFlags = multipleChildren ? S_JUST_BRANCHED | S_SHOW_CONNECTOR : 0;
    // Push the children in reverse so the first is popped first.
    const base = stNum.length;
    for (let c = firstChild[n]!; c !== -1; c = nextSibling[c]!) {
      stNum.push(c);
      stIndent.push(childIndent);
      stFlags.push(childFlags);
      stGutters.push(childGutters);
    }
    reverseFrom(stNum, base);
    reverseFrom(stIndent, base);
    reverseFrom(stGutters, base);
    stFlags[base] = childFlags | S_IS_LAST; // after reversal, the last child sits deepest
  }
  return { forest, folds, count, nums, indents, flags, gutters, rowOf, multipleRoots, matchRows };
}

function reverseFrom<T>(list: T[], from: number): void {
  for (let i = from, j = list.length - 1; i < j; i++, j--) {
    const t = list[i]!;
    list[i] = list[j]!;
    list[j] = t;
  }
}

/** The row object of row `i` (built on demand: only drawn rows need one). */
export function rowAt(layout: Layout, i: number): FlatRow | undefined {
  if (i < 0 || i >= layout.count) return undefined;
  const { forest } = layout;
  const { index } = forest;
  const n = layout.nums[i]!;
  const f = layout.flags[i]!;
  const id = index.entries[n]!.id;
  const indent = layout.indents[i]!;
  const context = forest.context !== undefined && forest.context[n] === 1;
  const owner = n >= index.size && n < index.forkBase ? index.parent[n]! : -1;
  return {
    num: n,
    id,
    indent,
    displayIndent: layout.multipleRoots ? Math.max(0, indent - 1) : indent,
    connector: (f & 3) as 0 | 1 | 2,
    gutters: layout.gutters[i] ?? null,
    foldable: (f & F_FOLDABLE) !== 0,
    folded: (f & F_FOLDED) !== 0,
    onActivePath: index.onActivePath[n] === 1,
    isLeaf: n === index.leaf,
    leafBelow: n === forest.leafHost && n !== index.leaf,
    leafBelowIsBookkeeping: n === forest.leafHost && n !== index.leaf && forest.leafBelowIsBookkeeping,
    isMatch: forest.search !== undefined && forest.search.isMatch[n] === 1 && !context,
    isContext: context,
    label: index.tree.labels.get(id),
    labelTimestamp: index.tree.labelTimestamps.get(id),
    retainedBy: owner === -1 ? undefined : index.entries[owner]!.id,
    fork: forkNode(index, n),
  };
}

/** Row index → entry id ('' out of range), without building a row object. */
export function rowId(layout: Layout, i: number): string | undefined {
  if (i < 0 || i >= layout.count) return undefined;
  return layout.forest.index.entries[layout.nums[i]!]!.id;
}

export function isRowFolded(layout: Layout, i: number): boolean {
  return i >= 0 && i < layout.count && (layout.flags[i]! & F_FOLDED) !== 0;
}

/**
 * The dim tree prefix of a row (gutters, connector with the fold state in its middle character:
 * `⊟` open, `⊞` folded, `─` not foldable), exactly as pi draws it; computed per drawn row only.
 */
export function rowPrefix(row: FlatRow): string {
  const total = row.displayIndent * 3;
  if (total === 0) return '';
  const gutterAt = new Map<number, boolean>();
  for (let g = row.gutters; g !== null; g = g.next) gutterAt.set(g.position, g.show);
  const connectorPosition = row.connector === CONNECTOR_NONE ? -1 : row.displayIndent - 1;
  let out = '';
  for (let level = 0; level < row.displayIndent; level++) {
    const gutter = gutterAt.get(level);
    if (gutter !== undefined) out += gutter ? '│  ' : '   ';
    else if (level === connectorPosition) {
      const mid = row.foldable ? (row.folded ? '⊞' : '⊟') : '─';
      out += `${row.connector === CONNECTOR_LAST ? '└' : '├'}${mid} `;
    } else out += '   ';
  }
  return out;
}

export interface FlattenOptions {
  filter?: FilterMode;
  query?: string;
  folds?: ReadonlySet<string>;
}

/** One-shot flatten (tests, bench): index → forest → layout. */
export function flattenTree(tree: SessionTree, options: FlattenOptions = {}): Layout {
  const index = buildIndex(tree);
  const forest = buildForest(index, options.filter ?? 'default', search(index, options.query ?? ''));
  return layoutForest(forest, options.folds ?? new Set());
}

// Segment jumps (§2.9).

/** The nearest segment start strictly above `num` (a node whose visible parent branches), or the root. */
export function segmentStartAbove(forest: Forest, num: number): number {
  let p = forest.vparent[num]!;
  if (p === -1) return num;
  for (;;) {
    const pp = forest.vparent[p]!;
    if (pp === -1 || forest.childCount[pp]! >= 2) return p;
    p = pp;
  }
}

/**
 * Follows the first visible child (the active one when there is one) down to the first child of
 * the next branch point, or to the end of the chain; stops at a folded node.
 */
export function segmentDown(layout: Layout, num: number): number {
  const { forest } = layout;
  let cur = num;
  for (;;) {
    if (isRowFolded(layout, layout.rowOf[cur]!)) return cur;
    const first = forest.firstChild[cur]!;
    if (first === -1) return cur;
    if (forest.childCount[cur]! >= 2) return first;
    cur = first;
  }
}

/** Nearest ancestor of `num` (inclusive) that has a row in `layout`, or -1. */
export function nearestDrawn(layout: Layout, num: number): number {
  const { parent } = layout.forest.index;
  for (let n = num; n !== -1; n = parent[n]!) if (layout.rowOf[n]! !== -1) return n;
  return -1;
}

/** Ids of the folded ancestors hiding `num` (to unfold when jumping to a match inside a fold). */
export function foldsHiding(layout: Layout, num: number): string[] {
  const { parent, entries } = layout.forest.index;
  const out: string[] = [];
  for (let p = parent[num]!; p !== -1; p = parent[p]!) {
    const id = entries[p]!.id;
    if (layout.folds.has(id)) out.push(id);
  }
  return out;
}
