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
import { mapPath, type PathMap, type SessionInfo } from '../store/index.js';
import type { SessionMatch, TextHit } from './session-match.js';

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
  /** The files this row stands for when it is a session with conflict copies (conflict-rows.ts), else absent. */
  conflictFiles?: number;
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
    // Listed paths are almost always absolute and normal already: then they are their own key
    // (resolving all 10,000 of a list was most of the search index's build).
    key = isNormalAbsolute(path) ? path : resolve(path);
    pathKeys.set(path, key);
  }
  return key;
}

/** What `resolve` would return unchanged on POSIX: absolute, without empty, `.` or `..` segments or a trailing slash. */
function isNormalAbsolute(path: string): boolean {
  return (
    process.platform !== 'win32' &&
    path.startsWith('/') &&
    path.length > 1 &&
    !path.endsWith('/') &&
    !path.includes('//') &&
    !/\/\.\.?(?:\/|$)/.test(path)
  );
}

/** Each listed session's parent in the same list (by `parentSessionPath`), for the threaded sort. */
export type Parents = ReadonlyMap<SessionInfo, SessionInfo>;

/**
 * The parents within `sessions`. Made once per list (the search index keeps it): resolving every
 * path on each keystroke was a quarter of a 10,000-session search.
 */
export function parentsIn(sessions: readonly SessionInfo[], pathMap: PathMap = []): Parents {
  const byPath = new Map<string, SessionInfo>();
  for (const info of sessions) byPath.set(pathKey(info.path), info);
  const parents = new Map<SessionInfo, SessionInfo>();
  for (const info of sessions) {
    const recorded = info.parentSessionPath;
    // A parent recorded on another machine is found where the path map puts it here.
    const parent =
      recorded === undefined
        ? undefined
        : (byPath.get(pathKey(recorded)) ??
          (pathMap.length === 0 ? undefined : byPath.get(pathKey(mapPath(pathMap, recorded)))));
    if (parent !== undefined) parents.set(info, parent);
  }
  return parents;
}

interface Node {
  match: SessionMatch;
  children: Node[];
  /** Newest `modified` in the subtree (ms). */
  newest: number;
  /** Best (lowest) score in the subtree. */
  best: number;
}

/** Whether some match's parent is among the matches (else the threaded forest is only roots). */
function hasFamily(matches: readonly SessionMatch[], parents: Parents): boolean {
  if (parents.size === 0) return false;
  let matched: Set<SessionInfo> | undefined;
  for (const { info } of matches) {
    const parent = parents.get(info);
    if (parent === undefined || parent === info) continue;
    matched ??= new Set(matches.map((m) => m.info));
    if (matched.has(parent)) return true;
  }
  return false;
}

/**
 * The threaded order when no match has its parent among the matches: roots only, by the same
 * comparison as the forest's (best score when ranked, then newest), the keys read once per match
 * rather than per comparison, and no node or map per match (the usual case, and each keystroke's).
 */
function rootsOnly(matches: readonly SessionMatch[], ranked: boolean, newestFirst: boolean): Row[] {
  if (newestFirst) return byScoreKeepingOrder(matches, ranked).map((m) => toRow(m));
  const count = matches.length;
  const newest = new Float64Array(count);
  const best = new Float64Array(count);
  const order: number[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const match = matches[i]!;
    newest[i] = match.info.modified.getTime();
    best[i] = match.score;
    order[i] = i;
  }
  // A stable sort, as the forest's: equal keys keep the matches' order.
  order.sort(
    ranked
      ? (a, b) => (best[a] !== best[b] ? best[a]! - best[b]! : newest[b]! - newest[a]!)
      : (a, b) => newest[b]! - newest[a]!,
  );
  const rows: Row[] = new Array(count);
  for (let i = 0; i < count; i++) rows[i] = toRow(matches[order[i]!]!);
  return rows;
}

/**
 * Matches that are newest first already, by score (lowest first) when ranked: grouping them by
 * score, each group in the matches' order, is the stable sort by score, then newest, without
 * reading a date or comparing n log n times (a quarter of a 50,000-session keystroke).
 */
function byScoreKeepingOrder(matches: readonly SessionMatch[], ranked: boolean): readonly SessionMatch[] {
  if (!ranked) return matches;
  const groups = new Map<number, SessionMatch[]>();
  for (const match of matches) {
    const group = groups.get(match.score);
    if (group) group.push(match);
    else groups.set(match.score, [match]);
  }
  if (groups.size <= 1) return matches;
  const out: SessionMatch[] = [];
  for (const score of [...groups.keys()].sort((a, b) => a - b)) for (const match of groups.get(score)!) out.push(match);
  return out;
}

function threaded(matches: readonly SessionMatch[], ranked: boolean, parents: Parents, newestFirst: boolean): Row[] {
  if (!hasFamily(matches, parents)) return rootsOnly(matches, ranked, newestFirst);
  const nodes = new Map<SessionInfo, Node>();
  for (const match of matches)
    nodes.set(match.info, { match, children: [], newest: match.info.modified.getTime(), best: match.score });
  const parentOf = (node: Node): Node | undefined => {
    const parent = parents.get(node.match.info);
    return parent === undefined ? undefined : nodes.get(parent);
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
      const node = stack.pop()!;
      if (reachable.has(node)) continue;
      reachable.add(node);
      for (const child of node.children) stack.push(child);
    }
  };
  for (const root of roots) if (root.children.length > 0) mark(root);
  for (const root of roots) reachable.add(root);
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
  // Subtree aggregates, children before parents (iterative post-order over the families only).
  const order: Node[] = [];
  const stack = roots.filter((root) => root.children.length > 0);
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    for (const child of node.children) if (child.children.length > 0) stack.push(child);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    for (const child of node.children) {
      node.newest = Math.max(node.newest, child.newest);
      node.best = Math.min(node.best, child.best);
    }
  }
  const compare = (a: Node, b: Node): number => (ranked && a.best !== b.best ? a.best - b.best : b.newest - a.newest);

  const rows: Row[] = [];
  roots.sort(compare);
  // Explicit stack of (node, depth, gutter): `gutter` is the drawing for the ancestor levels.
  const work: { node: Node; depth: number; gutter: string; last: boolean }[] = [];
  for (const root of roots) {
    if (root.children.length === 0) {
      rows.push(toRow(root.match));
      continue;
    }
    work.push({ node: root, depth: 0, gutter: '', last: false });
    while (work.length > 0) {
      const { node, depth, gutter, last } = work.pop()!;
      const prefix = depth === 0 ? '' : `   ${gutter}${last ? '└─ ' : '├─ '}`;
      rows.push(toRow(node.match, prefix, depth));
      // Most sessions have no forks: no copy and no sort for them.
      const children = node.children.length > 1 ? [...node.children].sort(compare) : node.children;
      const childGutter = depth === 0 ? '' : gutter + (last ? '   ' : '│  ');
      for (let i = children.length - 1; i >= 0; i--)
        work.push({ node: children[i]!, depth: depth + 1, gutter: childGutter, last: i === children.length - 1 });
    }
  }
  return rows;
}

/**
 * Orders matches into rows. `ranked`: the query has ranking terms (words, phrases, regex), so
 * scores mean something. `parents`: the list's (see parentsIn); by default found among the matches.
 * `newestFirst`: the matches are newest first already (`modified` never increases), as a search
 * of a listing gives them: the recency order is then theirs.
 */
export function sortRows(
  matches: readonly SessionMatch[],
  mode: SortMode,
  ranked: boolean,
  parents?: Parents,
  newestFirst = false,
): Row[] {
  if (mode === 'threaded')
    return threaded(matches, ranked, parents ?? parentsIn(matches.map((m) => m.info)), newestFirst);
  if (newestFirst && (mode === 'recent' || mode === 'relevance'))
    return byScoreKeepingOrder(matches, ranked && mode === 'relevance').map((m) => toRow(m));
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
