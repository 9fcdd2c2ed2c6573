/**
 * Flattening and layout of the session tree for the navigator, in three cached stages so each
 * interaction redoes only what it must:
 *
 *   TreeIndex  (per session tree + leaf): numeric node ids, children in pi's order, the active
 *              path, entry kinds; lazily cached row and search texts; cached filter masks.
 *   Forest     (per filter + search):     the visible nodes re-parented to their nearest visible
 *              ancestor (pi-ui-reference §2.3 rule 6), children in display order.
 *   Layout     (per forest + folds):      the rows with pi's indentation, connectors and gutters.
 *
 * Moving the cursor touches none of them; a fold toggle re-runs only the layout (O(visible));
 * a filter change reuses its cached mask; a search keystroke that extends the query only re-tests
 * the previous matches. Every walk is iterative so a 1,000,000-entry chain cannot overflow the
 * stack, and per-node state lives in typed arrays so 100k-entry sessions stay fast.
 */
import { messageOf } from '../store/entry.js';
import type { SessionTree } from '../store/tree.js';
import type { SessionEntry } from '../store/types.js';
import type { DisplayContext, EntryDisplay, ToolCallIndex } from './entry-display.js';
import { collectToolCalls, entryDisplay, entrySearchText, isPureToolCallTurn } from './entry-display.js';

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

// Entry kinds, as far as filters care.
const K_OTHER = 0;
const K_USER = 1;
const K_TOOL_RESULT = 2;
const K_BOOKKEEPING = 3;
const K_USAGE = 4;
const K_PURE_TOOL_CALL = 5;
const K_SYSTEM = 6;

const BOOKKEEPING_TYPES = new Set(['label', 'context_edit', 'custom', 'model_change', 'thinking_level_change', 'session_info']);

function kindOf(entry: SessionEntry): number {
  if (entry.type === 'usage') return K_USAGE;
  if (BOOKKEEPING_TYPES.has(entry.type)) return K_BOOKKEEPING;
  const role = messageOf(entry)?.['role'];
  if (role === 'user') return K_USER;
  if (role === 'toolResult') return K_TOOL_RESULT;
  if (role === 'system') return K_SYSTEM;
  if (role === 'assistant' && isPureToolCallTurn(entry)) return K_PURE_TOOL_CALL;
  return K_OTHER;
}

/**
 * Row and search texts computed once per entry object and shared across index rebuilds (a live
 * append rebuilds the index; entries already read keep their cached texts).
 */
export interface TextCache {
  display: WeakMap<SessionEntry, EntryDisplay>;
  search: WeakMap<SessionEntry, string>;
}

export function createTextCache(): TextCache {
  return { display: new WeakMap(), search: new WeakMap() };
}

export interface TreeIndex {
  readonly tree: SessionTree;
  readonly size: number;
  /** Node number → entry (file order of unique entries). */
  readonly entries: readonly SessionEntry[];
  readonly numOf: ReadonlyMap<string, number>;
  readonly parent: Int32Array;
  /** Children of node i in pi's order: childList[childStart[i] .. childStart[i + 1]). */
  readonly childStart: Int32Array;
  readonly childList: Int32Array;
  readonly roots: readonly number[];
  readonly kind: Uint8Array;
  readonly leaf: number;
  /** The child of each node that lies on the active path (root → leaf), else -1. */
  readonly activeChild: Int32Array;
  readonly onActivePath: Uint8Array;
  readonly activeRoot: number;
  readonly displayContext: DisplayContext;
  readonly texts: TextCache;
  /** Filter masks, computed on first use. */
  readonly filterMasks: Map<FilterMode, Uint8Array>;
}

export interface IndexOptions {
  /** Overrides the tree's leaf (e.g. right after a branch-in-place, before the reload lands). */
  leafId?: string | null;
  /** Caches from the previous index of the same session, reused on live appends. */
  texts?: TextCache;
  toolCalls?: ToolCallIndex;
  home?: string;
}

export function buildIndex(tree: SessionTree, options: IndexOptions = {}): TreeIndex {
  const entries = tree.order;
  const size = entries.length;
  const numOf = new Map<string, number>();
  for (let i = 0; i < size; i++) numOf.set(entries[i]!.id, i);

  const parent = new Int32Array(size).fill(-1);
  const childStart = new Int32Array(size + 1);
  const kidLists: (readonly SessionEntry[] | undefined)[] = new Array(size);
  let total = 0;
  for (let i = 0; i < size; i++) {
    childStart[i] = total;
    const kids = tree.children.get(entries[i]!.id);
    kidLists[i] = kids;
    if (kids) total += kids.length;
  }
  childStart[size] = total;
  const childList = new Int32Array(total);
  for (let i = 0; i < size; i++) {
    const kids = kidLists[i];
    if (!kids) continue;
    let at = childStart[i]!;
    for (const kid of kids) {
      const k = numOf.get(kid.id)!;
      childList[at++] = k;
      parent[k] = i;
    }
  }
  const roots: number[] = [];
  for (const root of tree.roots) {
    const r = numOf.get(root.id);
    if (r !== undefined) roots.push(r);
  }
  const kind = new Uint8Array(size);
  for (let i = 0; i < size; i++) kind[i] = kindOf(entries[i]!);

  const leafId = options.leafId !== undefined ? options.leafId : tree.leafId;
  const leaf = leafId === null ? -1 : (numOf.get(leafId) ?? -1);
  const activeChild = new Int32Array(size).fill(-1);
  const onActivePath = new Uint8Array(size);
  let activeRoot = -1;
  for (let n = leaf, guard = 0; n !== -1 && guard <= size; guard++) {
    onActivePath[n] = 1;
    const p = parent[n]!;
    if (p === -1) activeRoot = n;
    else activeChild[p] = n;
    n = p;
  }

  // Tool calls: reuse the previous index's map (a live append only adds calls), else collect.
  const toolCalls = options.toolCalls ?? collectToolCalls(entries);
  const displayContext: DisplayContext = options.home === undefined ? { toolCalls } : { toolCalls, home: options.home };
  return {
    tree,
    size,
    entries,
    numOf,
    parent,
    childStart,
    childList,
    roots,
    kind,
    leaf,
    activeChild,
    onActivePath,
    activeRoot,
    displayContext,
    texts: options.texts ?? createTextCache(),
    filterMasks: new Map(),
  };
}

/** The same tree with another leaf (active path and filter masks recomputed, texts kept). */
export function withLeaf(index: TreeIndex, leafId: string | null): TreeIndex {
  return buildIndex(index.tree, { leafId, texts: index.texts, toolCalls: index.displayContext.toolCalls, ...(index.displayContext.home === undefined ? {} : { home: index.displayContext.home }) });
}

export function displayOf(index: TreeIndex, num: number): EntryDisplay {
  const entry = index.entries[num]!;
  const cached = index.texts.display.get(entry);
  if (cached) return cached;
  const display = entryDisplay(entry, index.displayContext);
  // A result whose call is not known yet (torn live append) must not freeze its fallback text.
  const unresolvedResult = index.kind[num] === K_TOOL_RESULT && !index.displayContext.toolCalls.has(String(messageOf(entry)?.['toolCallId']));
  if (!unresolvedResult) index.texts.display.set(entry, display);
  return display;
}

function searchTextOf(index: TreeIndex, num: number): string {
  const entry = index.entries[num]!;
  const cached = index.texts.search.get(entry);
  if (cached !== undefined) return cached;
  const text = entrySearchText(entry, displayOf(index, num));
  index.texts.search.set(entry, text);
  return text;
}

/**
 * Fills the search-text cache for up to `budget` entries starting at `from`; returns where to
 * continue (index.size when done). The screen calls it in idle slices after the first paint so
 * the first search keystroke does not pay for lowercasing a whole session.
 */
export function warmSearch(index: TreeIndex, from: number, budget: number): number {
  const end = Math.min(index.size, from + budget);
  for (let i = from; i < end; i++) searchTextOf(index, i);
  return end;
}

// ---------------------------------------------------------------------------------------------
// Filters.

export function filterMask(index: TreeIndex, mode: FilterMode): Uint8Array {
  const cached = index.filterMasks.get(mode);
  if (cached) return cached;
  const { size, kind, leaf } = index;
  const mask = new Uint8Array(size);
  const labels = index.tree.labels;
  for (let i = 0; i < size; i++) {
    const k = kind[i]!;
    let show: boolean;
    switch (mode) {
      case 'all':
        // Really everything: usage entries and pure tool-call turns too (pi hides both, §4 #18).
        show = true;
        break;
      case 'default':
        // System messages carry nothing readable in a row (§4 #19); "all" still shows them.
        show = k === K_OTHER || k === K_USER || k === K_TOOL_RESULT;
        break;
      case 'no-tools':
        show = k === K_OTHER || k === K_USER;
        break;
      case 'user-only':
        show = k === K_USER;
        break;
      case 'labeled-only':
        show = labels.has(index.entries[i]!.id);
        break;
    }
    mask[i] = show ? 1 : 0;
  }
  // pi's rule: a pure tool-call turn is drawn when it is the leaf. Other hidden leaves (the label
  // or session_info entries that labelling and branch-in-place append) add nothing to the
  // context, so their nearest visible ancestor is where pi effectively resumes: it carries the
  // leaf marker (Forest.leafHost) instead of the cursor silently starting there (§4 #15).
  if (leaf !== -1 && kind[leaf] === K_PURE_TOOL_CALL && (mode === 'default' || mode === 'no-tools')) mask[leaf] = 1;
  index.filterMasks.set(mode, mask);
  return mask;
}

// ---------------------------------------------------------------------------------------------
// Search.

export interface SearchResult {
  /** The query as typed. */
  readonly query: string;
  readonly tokens: readonly string[];
  /** Node numbers that match every token, ascending. */
  readonly matches: Int32Array;
  /** 1 for matching nodes. */
  readonly isMatch: Uint8Array;
  /** The index the result was computed on (results are only reused on the same index). */
  readonly index: TreeIndex;
}

export function searchTokens(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((t) => t !== '');
}

function nodeMatches(index: TreeIndex, num: number, tokens: readonly string[]): boolean {
  const text = searchTextOf(index, num);
  const label = index.tree.labels.get(index.entries[num]!.id);
  const labelLower = label === undefined ? undefined : label.toLowerCase();
  for (const token of tokens) {
    if (!text.includes(token) && (labelLower === undefined || !labelLower.includes(token))) return false;
  }
  return true;
}

/**
 * Entries matching every whitespace-separated token (case-insensitive substrings of the search
 * text or the label). When `previous` was computed on the same index for a query this one
 * extends (typing), only its matches are re-tested: extending a query can only narrow it.
 * Returns undefined for an empty query.
 */
export function search(index: TreeIndex, query: string, previous?: SearchResult): SearchResult | undefined {
  const tokens = searchTokens(query);
  if (tokens.length === 0) return undefined;
  const isMatch = new Uint8Array(index.size);
  const found: number[] = [];
  const narrowing = previous !== undefined && previous.index === index && query.toLowerCase().startsWith(previous.query.toLowerCase());
  if (narrowing) {
    for (const n of previous.matches) {
      if (nodeMatches(index, n, tokens)) {
        isMatch[n] = 1;
        found.push(n);
      }
    }
  } else {
    for (let n = 0; n < index.size; n++) {
      if (nodeMatches(index, n, tokens)) {
        isMatch[n] = 1;
        found.push(n);
      }
    }
  }
  return { query, tokens, matches: Int32Array.from(found), isMatch, index };
}

// ---------------------------------------------------------------------------------------------
// Forest: the visible nodes re-parented to their nearest visible ancestor.

export interface Forest {
  readonly index: TreeIndex;
  readonly filter: FilterMode;
  readonly search: SearchResult | undefined;
  /** 1 visible, 0 hidden. */
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
  readonly visibleCount: number;
}

/**
 * Visible = passes the filter and (no search, or matches, or is a structural ancestor of a
 * match). Structural ancestors are the roots and branch points above a match: they keep the
 * result a tree (which branch a match lives in) without flooding it with every entry of a long
 * linear path, as keeping all ancestors would.
 */
function visibleMask(index: TreeIndex, filter: FilterMode, result: SearchResult | undefined): { visible: Uint8Array; context: Uint8Array | undefined } {
  const base = filterMask(index, filter);
  if (!result) return { visible: base, context: undefined };
  const visible = new Uint8Array(index.size);
  const context = new Uint8Array(index.size);
  const walked = new Uint8Array(index.size);
  const { parent, childStart } = index;
  for (const m of result.matches) {
    if (!base[m]) continue;
    visible[m] = 1;
    for (let p = parent[m]!; p !== -1 && !walked[p]; p = parent[p]!) {
      walked[p] = 1;
      const isBranchPoint = childStart[p + 1]! - childStart[p]! >= 2;
      if (base[p] && !visible[p] && (isBranchPoint || parent[p] === -1)) {
        visible[p] = 1;
        context[p] = 1;
      }
    }
  }
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
  const size = index.size;
  const vparent = new Int32Array(size).fill(-1);
  const firstChild = new Int32Array(size).fill(-1);
  const lastChild = new Int32Array(size).fill(-1);
  const nextSibling = new Int32Array(size).fill(-1);
  const childCount = new Int32Array(size);
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
  return { index, filter, search: result, visible, context, roots, vparent, firstChild, nextSibling, childCount, leafHost, visibleCount };
}

// ---------------------------------------------------------------------------------------------
// Layout: pi's flattenTree + recalculateVisualStructure on the visible forest (§2.3).

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
  /** The leaf is hidden by the filter and this row is its nearest visible ancestor. */
  readonly leafBelow: boolean;
  readonly isMatch: boolean;
  /** Shown only to keep search results a tree (a root or branch point above matches). */
  readonly isContext: boolean;
  readonly label: string | undefined;
  readonly labelTimestamp: string | undefined;
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
  const rowOf = new Int32Array(index.size).fill(-1);
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
    stFlags.push((multipleRoots ? S_JUST_BRANCHED | S_SHOW_CONNECTOR | S_VIRTUAL_ROOT_CHILD : 0) | (j === roots.length - 1 ? S_IS_LAST : 0));
    stGutters.push(null);
  }
  let count = 0;
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
    flags[row] = (connectorShown ? (isLast ? CONNECTOR_LAST : CONNECTOR_MID) : CONNECTOR_NONE) | (foldable ? F_FOLDABLE : 0) | (folded ? F_FOLDED : 0);
    gutters[row] = rowGutters;
    rowOf[n] = row;
    if (isMatch !== undefined && isMatch[n] === 1 && !(context !== undefined && context[n] === 1)) matchRows.push(row);
    if (folded || kids === 0) continue;
    const multipleChildren = kids > 1;
    let childIndent: number;
    if (multipleChildren) childIndent = indent + 1;
    else if ((sf & S_JUST_BRANCHED) !== 0 && indent > 0) childIndent = indent + 1; // rule 3
    else childIndent = indent; // rule 1: chains stay flat
    const displayIndent = multipleRoots ? Math.max(0, indent - 1) : indent;
    const childGutters: Gutter | null = connectorShown ? { position: Math.max(0, displayIndent - 1), show: !isLast, next: rowGutters } : rowGutters;
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
    isMatch: forest.search !== undefined && forest.search.isMatch[n] === 1 && !context,
    isContext: context,
    label: index.tree.labels.get(id),
    labelTimestamp: index.tree.labelTimestamps.get(id),
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
      out += (row.connector === CONNECTOR_LAST ? '└' : '├') + mid + ' ';
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

// ---------------------------------------------------------------------------------------------
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
