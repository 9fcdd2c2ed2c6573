/**
 * The id/parentId tree of a loaded session, with pi 1.6's ordering, labels, name and leaf
 * (session-format.md §7, §10, §11), made safe where pi is not: duplicate ids are shown once (the
 * last occurrence wins), and parent cycles are broken so every entry is reachable. Every walk is
 * iterative: a 1,000,000-entry chain must not overflow the stack.
 */
import { addUsage, emptyUsage, entryTimeMs, usageOf } from './entry.js';
import type { LoadedSession, Problem, SessionEntry, UsageTotals } from './types.js';

export interface SessionTree {
  /** Each id once; the last occurrence in the file wins (pi's index does the same). */
  byId: Map<string, SessionEntry>;
  /** Unique entries in file order. */
  order: SessionEntry[];
  /** Roots in file order: null parent, self-parent, missing parent (orphan), or a broken cycle. */
  roots: SessionEntry[];
  /** Children per parent id, in pi's getTree order (entry timestamp, ties in file order). */
  children: Map<string, SessionEntry[]>;
  /** Resolved labels, replayed over all label entries in file order (any branch). */
  labels: Map<string, string>;
  labelTimestamps: Map<string, string>;
  /** The last session_info's name, trimmed; undefined when none or cleared. */
  sessionName: string | undefined;
  /** The last entry in file order: where pi resumes. */
  leafId: string | null;
  /** Duplicates, orphans and cycles found while building. */
  problems: Problem[];
  /** Entries treated as roots although their parentId names an entry (cycle breaks). */
  detached: Set<string>;
}

const NO_CHILDREN: readonly SessionEntry[] = Object.freeze([]);

export function childrenOf(tree: SessionTree, id: string): readonly SessionEntry[] {
  return tree.children.get(id) ?? NO_CHILDREN;
}

/** The parent the tree uses (undefined for roots, orphans and cycle breaks). */
export function parentOf(tree: SessionTree, entry: SessionEntry): SessionEntry | undefined {
  const parentId = entry.parentId;
  if (parentId === null || parentId === entry.id || tree.detached.has(entry.id)) return undefined;
  return tree.byId.get(parentId);
}

/**
 * Applies one `label` entry to the labels resolved so far (§10): a truthy label sets it, anything
 * else clears it. The one rule for the tree, the append scan and fork.
 */
export function replayLabel(
  labels: Map<string, string>,
  timestamps: Map<string, string> | undefined,
  entry: { targetId?: unknown; label?: unknown; timestamp?: unknown },
): void {
  const target = entry.targetId;
  if (typeof target !== 'string') return;
  const label = entry.label;
  if (label) {
    // Map order matters: pi's forks re-create labels in insertion order.
    labels.set(target, typeof label === 'string' ? label : String(label));
    timestamps?.set(target, typeof entry.timestamp === 'string' ? entry.timestamp : '');
  } else {
    labels.delete(target);
    timestamps?.delete(target);
  }
}

export function buildTree(session: LoadedSession): SessionTree {
  const { entries, entryLines } = session;
  const problems: Problem[] = [];
  const byId = new Map<string, SessionEntry>();
  const labels = new Map<string, string>();
  const labelTimestamps = new Map<string, string>();
  let sessionName: string | undefined;
  let leafId: string | null = null;
  let duplicates = false;

  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const previous = byId.get(entry.id);
    if (previous !== undefined) {
      duplicates = true;
      problems.push({
        line: entryLines[i] ?? 0,
        kind: 'duplicate-id',
        message: `id ${entry.id} appears again (first on line ${entryLines[entries.indexOf(previous)] ?? '?'}); the last occurrence wins`,
      });
    }
    byId.set(entry.id, entry);
    leafId = entry.id;
    if (entry.type === 'label') {
      replayLabel(labels, labelTimestamps, entry);
    } else if (entry.type === 'session_info') {
      const name = entry['name'];
      sessionName = typeof name === 'string' ? name.trim() || undefined : undefined;
    }
  }

  const order = duplicates ? entries.filter((entry) => byId.get(entry.id) === entry) : entries.slice();
  const lineOf = (entry: SessionEntry): number => entryLines[entries.lastIndexOf(entry)] ?? 0;

  const roots: SessionEntry[] = [];
  const children = new Map<string, SessionEntry[]>();
  for (const entry of order) {
    const parentId = entry.parentId;
    if (parentId === null || parentId === entry.id) {
      roots.push(entry);
      continue;
    }
    const list = children.get(parentId);
    if (list) {
      list.push(entry);
    } else if (byId.has(parentId)) {
      children.set(parentId, [entry]);
    } else {
      problems.push({
        line: lineOf(entry),
        kind: 'orphan',
        message: `parent ${parentId} of ${entry.id} does not exist; shown as a root`,
      });
      roots.push(entry);
    }
  }
  for (const list of children.values()) {
    // The same comparator as pi's getTree on arrays in the same (file) order, so ties and
    // unparsable timestamps come out the way pi orders them.
    if (list.length > 1) list.sort((a, b) => entryTimeMs(a) - entryTimeMs(b));
  }

  const tree: SessionTree = {
    byId,
    order,
    roots,
    children,
    labels,
    labelTimestamps,
    sessionName,
    leafId,
    problems,
    detached: new Set(),
  };
  breakCycles(tree, lineOf);
  return tree;
}

/** Visits the subtree under `start` depth-first (iterative); returns the number of entries. */
function walkSubtree(tree: SessionTree, start: SessionEntry, onEntry?: (entry: SessionEntry) => void): number {
  let count = 0;
  const stack: SessionEntry[] = [start];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    count++;
    onEntry?.(entry);
    const kids = tree.children.get(entry.id);
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return count;
}

/**
 * Entries not reachable from any root sit on (or below) a parent cycle, which pi never shows and
 * hangs on. Every entry has one parent, so a walk from the roots meets each reachable entry once:
 * counting is enough in the usual case. Otherwise detach the earliest entry of each unreachable
 * group and make it a root.
 */
function breakCycles(tree: SessionTree, lineOf: (entry: SessionEntry) => number): void {
  let reachable = 0;
  for (const root of tree.roots) reachable += walkSubtree(tree, root);
  if (reachable === tree.order.length) return;
  const reached = new Set<string>();
  for (const root of tree.roots) walkSubtree(tree, root, (e) => reached.add(e.id));
  for (const entry of tree.order) {
    if (reached.has(entry.id)) continue;
    const parentId = entry.parentId!;
    const siblings = tree.children.get(parentId);
    if (siblings) {
      const at = siblings.indexOf(entry);
      if (at >= 0) siblings.splice(at, 1);
      if (siblings.length === 0) tree.children.delete(parentId);
    }
    tree.detached.add(entry.id);
    tree.roots.push(entry);
    tree.problems.push({
      line: lineOf(entry),
      kind: 'cycle',
      message: `parent links loop back to ${entry.id}; the loop is cut here and ${entry.id} is shown as a root`,
    });
    walkSubtree(tree, entry, (e) => reached.add(e.id));
  }
  // Keep roots in file order, as pi lists them.
  const position = new Map(tree.order.map((e, i) => [e.id, i]));
  tree.roots.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
}

/** The path root → `id` (inclusive). Empty for an unknown id. Cycle-safe. */
export function getBranch(tree: SessionTree, id: string | null): SessionEntry[] {
  if (id === null) return [];
  const path: SessionEntry[] = [];
  // Cycles are broken when the tree is built, so the walk ends at a root; the bound is a guard.
  let current = tree.byId.get(id);
  while (current && path.length <= tree.order.length) {
    path.push(current);
    current = parentOf(tree, current);
  }
  return path.reverse();
}

/** The path from the root to the leaf: the branch pi resumes. */
export function activePath(tree: SessionTree): SessionEntry[] {
  return getBranch(tree, tree.leafId);
}

/** Token and cost totals of the subtree under `id` (inclusive). */
export function subtreeUsage(tree: SessionTree, id: string): UsageTotals {
  const totals = emptyUsage();
  const start = tree.byId.get(id);
  if (!start) return totals;
  walkSubtree(tree, start, (entry) => addUsage(totals, usageOf(entry)));
  return totals;
}

/** Totals over every unique entry of every branch (pi's `/session`). */
export function sessionUsage(tree: SessionTree): UsageTotals {
  const totals = emptyUsage();
  for (const entry of tree.order) addUsage(totals, usageOf(entry));
  return totals;
}

/**
 * Entries that restate metadata or only move the leaf: labels, session_info, and an empty
 * branch_summary (what resuming at an earlier entry writes). A child made only of these adds
 * nothing to any context, so it is not a branch.
 */
function isBookkeeping(entry: SessionEntry): boolean {
  if (entry.type === 'label' || entry.type === 'session_info') return true;
  return entry.type === 'branch_summary' && !(typeof entry['summary'] === 'string' && entry['summary'].trim() !== '');
}

/** Whether the subtree under `entry` (inclusive) holds anything but bookkeeping entries. Stops at the first such entry. */
function holdsConversation(tree: SessionTree, entry: SessionEntry): boolean {
  const stack = [entry];
  for (let seen = 0; stack.length > 0 && seen <= tree.order.length; seen++) {
    const e = stack.pop()!;
    if (!isBookkeeping(e)) return true;
    stack.push(...childrenOf(tree, e.id));
  }
  return false;
}

export interface BranchPointOptions {
  /** Don't count children made only of bookkeeping entries (labels, session_info, empty branch summaries). */
  ignoreBookkeeping?: boolean;
}

/** Number of entries with two or more children (with `ignoreBookkeeping`, two or more that hold conversation). */
export function branchPointCount(tree: SessionTree, options: BranchPointOptions = {}): number {
  let count = 0;
  for (const list of tree.children.values()) {
    if (list.length < 2) continue;
    if (options.ignoreBookkeeping !== true) {
      count++;
      continue;
    }
    let real = 0;
    for (const child of list) if (holdsConversation(tree, child) && ++real === 2) break;
    if (real === 2) count++;
  }
  return count;
}
