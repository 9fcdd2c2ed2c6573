/**
 * The first stage of the navigator (see flatten.ts): per session tree and leaf, numeric node ids,
 * children in pi's order, the active path, node kinds, and lazily cached row and search texts.
 *
 * Nodes 0 … size-1 are the entries (file order of unique ids). Nodes size … nodeCount-1 are the
 * messages of compactions' `retainedTail` (session-format.md §4, §8.4): copies a checkpoint keeps
 * in context, not entries. They have no ids (their key in `numOf` is made not to be one), no
 * children, and are drawn as dim rows right under their compaction, never as its children.
 * Nodes forkBase … nodeCount-1 are the sessions forked from this one (fork-nodes.ts): rows, not
 * entries, drawn under the nearest shown entry at or above their fork point.
 */

import { plural } from '../format.js';
import { type JsonObject, messageOf, retainedTailOf, type SessionEntry, type SessionTree } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { DisplayContext, EntryDisplay, ToolCallIndex } from './entry-display.js';
import { collectToolCalls, entryDisplay, entrySearchText, isPureToolCallTurn } from './entry-display.js';
import type { FilterMode } from './filter-mode.js';
import {
  K_BOOKKEEPING,
  K_FORK,
  K_OTHER,
  K_PURE_TOOL_CALL,
  K_SYSTEM,
  K_TOOL_RESULT,
  K_USAGE,
  K_USER,
} from './node-kinds.js';

export { K_BOOKKEEPING, K_FORK, K_OTHER, K_PURE_TOOL_CALL, K_SYSTEM, K_TOOL_RESULT, K_USAGE, K_USER };

import { type ForkLink, forkKey } from './fork-nodes.js';

const BOOKKEEPING_TYPES = new Set([
  'label',
  'context_edit',
  'custom',
  'model_change',
  'thinking_level_change',
  'session_info',
]);

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
  /** The retained-message nodes of each compaction entry, so rebuilds reuse them (and their texts). */
  retained: WeakMap<SessionEntry, readonly SessionEntry[]>;
}

export function createTextCache(): TextCache {
  return { display: new WeakMap(), search: new WeakMap(), retained: new WeakMap() };
}

/** A retained message, as the node the navigator draws for it. */
export interface RetainedNode {
  /** Node number of the compaction holding it. */
  readonly owner: number;
  /** Its position in the compaction's `retainedTail` array. */
  readonly position: number;
  readonly message: JsonObject;
}

export interface TreeIndex {
  readonly tree: SessionTree;
  /** Number of entries (nodes 0 … size-1). */
  readonly size: number;
  /** Entries plus retained messages. */
  readonly nodeCount: number;
  /**
   * Node number → entry; for a retained message, a message-shaped stand-in (type `message`, its
   * `numOf` key as `id`, the compaction as parent) so row, search and copy texts are computed
   * the same way. Its id is not an entry id: nothing may be written with it.
   */
  readonly entries: readonly SessionEntry[];
  readonly numOf: ReadonlyMap<string, number>;
  /** Parent node (a retained message's is its compaction), -1 for roots. */
  readonly parent: Int32Array;
  /** Children of entry i in pi's order: childList[childStart[i] .. childStart[i + 1]). */
  readonly childStart: Int32Array;
  readonly childList: Int32Array;
  /** Retained nodes of entry i: size + retainedStart[i] … size + retainedStart[i + 1] - 1. */
  readonly retainedStart: Int32Array;
  /** retained[k] describes node size + k. */
  readonly retained: readonly RetainedNode[];
  /** The first fork node (size + retained.length): nodes from here on are forks, forks[n - forkBase]. */
  readonly forkBase: number;
  /** The forks drawn in this tree (those whose fork point is an entry here), owner = their fork point. */
  readonly forks: readonly ForkLink[];
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
  /** Sessions forked from this one; those whose fork point is not an entry here are left out. */
  forks?: readonly ForkLink[];
}

/** A key for a retained message that no entry of the tree has as its id. */
function retainedKey(tree: SessionTree, compactionId: string, position: number): string {
  let key = `retained:${compactionId}:${position}`;
  while (tree.byId.has(key)) key += "'";
  return key;
}

function retainedNodesOf(tree: SessionTree, entry: SessionEntry, texts: TextCache): readonly SessionEntry[] {
  const cached = texts.retained.get(entry);
  if (cached) return cached;
  const tail = retainedTailOf(entry);
  const nodes: SessionEntry[] = (tail ?? []).map(({ index, message }) => ({
    type: 'message',
    id: retainedKey(tree, entry.id, index),
    parentId: entry.id,
    timestamp: entry.timestamp,
    message,
    retainedPosition: index,
  }));
  texts.retained.set(entry, nodes);
  return nodes;
}

export function buildIndex(tree: SessionTree, options: IndexOptions = {}): TreeIndex {
  const texts = options.texts ?? createTextCache();
  const size = tree.order.length;
  const retainedStart = new Int32Array(size + 1);
  const retained: RetainedNode[] = [];
  const standIns: SessionEntry[] = [];
  for (let i = 0; i < size; i++) {
    retainedStart[i] = retained.length;
    const entry = tree.order[i]!;
    if (entry.type !== 'compaction') continue;
    for (const node of retainedNodesOf(tree, entry, texts)) {
      retained.push({ owner: i, position: node['retainedPosition'] as number, message: messageOf(node)! });
      standIns.push(node);
    }
  }
  retainedStart[size] = retained.length;
  const forkBase = size + retained.length;
  const forks = (options.forks ?? []).filter((f) => tree.byId.has(f.entryId));
  for (const fork of forks) {
    standIns.push({
      type: 'fork',
      id: forkKey((id) => tree.byId.has(id), fork.path),
      parentId: fork.entryId,
      timestamp: undefined,
      forkPath: fork.path,
    });
  }
  const entries: readonly SessionEntry[] = standIns.length === 0 ? tree.order : [...tree.order, ...standIns];
  const nodeCount = entries.length;
  const numOf = new Map<string, number>();
  for (let i = 0; i < nodeCount; i++) numOf.set(entries[i]!.id, i);

  const parent = new Int32Array(nodeCount).fill(-1);
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
  for (let k = 0; k < retained.length; k++) parent[size + k] = retained[k]!.owner;
  for (let k = 0; k < forks.length; k++) parent[forkBase + k] = numOf.get(forks[k]!.entryId)!;
  const roots: number[] = [];
  for (const root of tree.roots) {
    const r = numOf.get(root.id);
    if (r !== undefined) roots.push(r);
  }
  const kind = new Uint8Array(nodeCount);
  for (let i = 0; i < forkBase; i++) kind[i] = kindOf(entries[i]!);
  kind.fill(K_FORK, forkBase);

  const leafId = options.leafId !== undefined ? options.leafId : tree.leafId;
  const leafNum = leafId === null ? undefined : numOf.get(leafId);
  const leaf = leafNum === undefined || leafNum >= size ? -1 : leafNum;
  const activeChild = new Int32Array(size).fill(-1);
  const onActivePath = new Uint8Array(nodeCount);
  let activeRoot = -1;
  for (let n = leaf, guard = 0; n !== -1 && guard <= size; guard++) {
    onActivePath[n] = 1;
    const p = parent[n]!;
    if (p === -1) activeRoot = n;
    else activeChild[p] = n;
    n = p;
  }

  // Tool calls: reuse the previous index's map (a live append only adds calls), else collect
  // (retained assistant messages included, so a retained result row can name its call).
  const toolCalls = options.toolCalls ?? collectToolCalls(entries);
  const displayContext: DisplayContext = options.home === undefined ? { toolCalls } : { toolCalls, home: options.home };
  return {
    tree,
    size,
    nodeCount,
    entries,
    numOf,
    parent,
    childStart,
    childList,
    retainedStart,
    retained,
    forkBase,
    forks,
    roots,
    kind,
    leaf,
    activeChild,
    onActivePath,
    activeRoot,
    displayContext,
    texts,
    filterMasks: new Map(),
  };
}

/** The same tree with another leaf (active path and filter masks recomputed, texts kept). */
export function withLeaf(index: TreeIndex, leafId: string | null): TreeIndex {
  return buildIndex(index.tree, {
    leafId,
    texts: index.texts,
    toolCalls: index.displayContext.toolCalls,
    forks: index.forks,
    ...(index.displayContext.home === undefined ? {} : { home: index.displayContext.home }),
  });
}

/** The retained message a node stands for, or undefined for an entry. */
export function retainedNode(index: TreeIndex, num: number): RetainedNode | undefined {
  return num >= index.size && num < index.forkBase ? index.retained[num - index.size] : undefined;
}

/** The fork a node stands for, or undefined for an entry or a retained message. */
export function forkNode(index: TreeIndex, num: number): ForkLink | undefined {
  return num >= index.forkBase ? index.forks[num - index.forkBase] : undefined;
}

/** The fork a row key stands for, or undefined. */
export function forkNodeById(index: TreeIndex, id: string): ForkLink | undefined {
  const num = index.numOf.get(id);
  return num === undefined ? undefined : forkNode(index, num);
}

/** What a fork's row says: the marker, the forked session's title and how far it went on. */
export const FORK_ROW_PREFIX = '⑂ fork: ';

const inlineTitle = (title: string): string => sanitizeInline(title, { newline: 'space' });

/** The retained message a row key (`numOf` key) stands for, or undefined for an entry id. */
export function retainedNodeById(index: TreeIndex, id: string): RetainedNode | undefined {
  const num = index.numOf.get(id);
  return num === undefined ? undefined : retainedNode(index, num);
}

export function displayOf(index: TreeIndex, num: number): EntryDisplay {
  const fork = forkNode(index, num);
  if (fork)
    return {
      prefix: FORK_ROW_PREFIX,
      prefixTone: 'summary',
      text: `${inlineTitle(fork.title)} · ${plural(fork.added, 'entry', 'entries')} since`,
      textTone: 'plain',
    };
  const entry = index.entries[num]!;
  const cached = index.texts.display.get(entry);
  if (cached) return cached;
  const display = entryDisplay(entry, index.displayContext);
  // A result whose call is not known yet (torn live append) must not freeze its fallback text.
  const unresolvedResult =
    index.kind[num] === K_TOOL_RESULT && !index.displayContext.toolCalls.has(String(messageOf(entry)?.['toolCallId']));
  if (!unresolvedResult) index.texts.display.set(entry, display);
  return display;
}

export function searchTextOf(index: TreeIndex, num: number): string {
  // A fork row is another session: the tree's search looks at this session's text only.
  if (num >= index.forkBase) return '';
  const entry = index.entries[num]!;
  const cached = index.texts.search.get(entry);
  if (cached !== undefined) return cached;
  const text = entrySearchText(entry, displayOf(index, num));
  index.texts.search.set(entry, text);
  return text;
}

/**
 * Fills the search-text cache for up to `budget` nodes starting at `from`; returns where to
 * continue (index.nodeCount when done). The screen calls it in idle slices after the first paint
 * so the first search keystroke does not pay for lowercasing a whole session.
 */
export function warmSearch(index: TreeIndex, from: number, budget: number): number {
  const end = Math.min(index.nodeCount, from + budget);
  for (let i = from; i < end; i++) searchTextOf(index, i);
  return end;
}
