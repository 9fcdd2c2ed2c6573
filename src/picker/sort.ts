/**
 * Ordering of the picker's rows (pure).
 *
 * - threaded: the fork forest built from `parentSessionPath` (a session whose parent is not in the
 *   list is a root); siblings ordered by the newest activity in their subtree, like pi. Unlike pi,
 *   a search does not silently flatten it: with a ranking query, siblings are ordered by the best
 *   score in their subtree instead (ties: newest activity), so the best match still comes first
 *   while the fork structure stays visible.
 * - recent: `modified` newest first.
 * - relevance: query score (lower is better), ties by recency; without a query the same as recent.
 * - size / cost: largest first, ties by recency.
 */
import { resolve } from 'node:path';
import type { SessionMatch, TextHit } from './query.js';
import type { SessionInfo } from '../store/types.js';

export type SortMode = 'threaded' | 'recent' | 'relevance' | 'size' | 'cost';

/** Ctrl+S cycles in this order. */
export const SORT_MODES: readonly SortMode[] = ['threaded', 'recent', 'relevance', 'size', 'cost'];

export function nextSortMode(mode: SortMode): SortMode {
  return SORT_MODES[(SORT_MODES.indexOf(mode) + 1) % SORT_MODES.length] ?? 'threaded';
}

export interface Row {
  info: SessionInfo;
  /** Tree drawing before the title (threaded only), e.g. `   ├─ `. */
  prefix: string;
  depth: number;
  score: number;
  textHit?: TextHit;
}

const byRecency = (a: SessionInfo, b: SessionInfo): number => b.modified.getTime() - a.modified.getTime();

function toRow(match: SessionMatch, prefix = '', depth = 0): Row {
  return match.textHit
    ? { info: match.info, prefix, depth, score: match.score, textHit: match.textHit }
    : { info: match.info, prefix, depth, score: match.score };
}

const pathKeys = new Map<string, string>();
/** Past this many the memo starts over (paths are only ever the sessions listed). */
const PATH_KEYS_MAX = 200_000;

/**
 * Canonical form used to compare session paths (string-only: no filesystem access here).
 * Memoised: the threaded sort asks twice per session on every keystroke, and `resolve` was a
 * sixth of a 10,000-session search keystroke.
 */
export function pathKey(path: string): string {
  let key = pathKeys.get(path);
  if (key === undefined) {
    if (pathKeys.size >= PATH_KEYS_MAX) pathKeys.clear();
    key = resolve(path);
    pathKeys.set(path, key);
  }
  return key;
}

interface Node {
  match: SessionMatch;
  children: Node[];
  /** Newest `modified` in the subtree (ms). */
  newest: number;
  /** Best (lowest) score in the subtree. */
  best: number;
}

function threaded(matches: readonly SessionMatch[], ranked: boolean): Row[] {
  const nodes = new Map<string, Node>();
  for (const match of matches) {
    nodes.set(pathKey(match.info.path), {
      match,
      children: [],
      newest: match.info.modified.getTime(),
      best: match.score,
    });
  }
  const parentOf = (node: Node): Node | undefined => {
    const parent = node.match.info.parentSessionPath;
    return parent === undefined ? undefined : nodes.get(pathKey(parent));
  };

  // Roots: no parent in the list. Sessions in a parent cycle have none; the newest of each
  // cycle becomes a root below, so nothing is ever dropped.
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = parentOf(node);
    if (parent === undefined || parent === node) roots.push(node);
    else parent.children.push(node);
  }
  const reachable = new Set<Node>();
  const mark = (start: Node): void => {
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!node || reachable.has(node)) continue;
      reachable.add(node);
      stack.push(...node.children);
    }
  };
  roots.forEach(mark);
  if (reachable.size < nodes.size) {
    const stuck = [...nodes.values()].filter((n) => !reachable.has(n));
    stuck.sort((a, b) => byRecency(a.match.info, b.match.info));
    for (const node of stuck) {
      if (reachable.has(node)) continue;
      // Cut the cycle above this node.
      const parent = parentOf(node);
      if (parent) parent.children = parent.children.filter((c) => c !== node);
      roots.push(node);
      mark(node);
    }
  }

  // Subtree aggregates, children before parents (iterative post-order).
  const order: Node[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) continue;
    order.push(node);
    stack.push(...node.children);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i];
    if (!node) continue;
    for (const child of node.children) {
      node.newest = Math.max(node.newest, child.newest);
      node.best = Math.min(node.best, child.best);
    }
  }
  const compare = (a: Node, b: Node): number => (ranked && a.best !== b.best ? a.best - b.best : b.newest - a.newest);

  const rows: Row[] = [];
  // Explicit stack of (node, depth, gutter): `gutter` is the drawing for the ancestor levels.
  const sortedRoots = [...roots].sort(compare);
  const work: { node: Node; depth: number; gutter: string; last: boolean }[] = sortedRoots
    .map((node) => ({ node, depth: 0, gutter: '', last: false }))
    .reverse();
  while (work.length > 0) {
    const item = work.pop();
    if (!item) continue;
    const { node, depth, gutter, last } = item;
    const prefix = depth === 0 ? '' : `   ${gutter}${last ? '└─ ' : '├─ '}`;
    rows.push(toRow(node.match, prefix, depth));
    // Most sessions have no forks: no copy and no sort for them.
    const children = node.children.length > 1 ? [...node.children].sort(compare) : node.children;
    const childGutter = depth === 0 ? '' : gutter + (last ? '   ' : '│  ');
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) work.push({ node: child, depth: depth + 1, gutter: childGutter, last: i === children.length - 1 });
    }
  }
  return rows;
}

/**
 * Orders matches into rows. `ranked`: the query has ranking terms (words, phrases, regex), so
 * scores mean something.
 */
export function sortRows(matches: readonly SessionMatch[], mode: SortMode, ranked: boolean): Row[] {
  if (mode === 'threaded') return threaded(matches, ranked);
  const list = [...matches];
  switch (mode) {
    case 'recent':
      list.sort((a, b) => byRecency(a.info, b.info));
      break;
    case 'relevance':
      list.sort((a, b) => (ranked && a.score !== b.score ? a.score - b.score : byRecency(a.info, b.info)));
      break;
    case 'size':
      list.sort((a, b) => b.info.size - a.info.size || byRecency(a.info, b.info));
      break;
    case 'cost':
      list.sort((a, b) => b.info.usage.cost - a.info.usage.cost || byRecency(a.info, b.info));
      break;
  }
  return list.map((m) => toRow(m));
}
