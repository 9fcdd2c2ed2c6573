/**
 * Conflict copies of one session as one picker row (pure). A sync tool that finds two machines
 * appended to one session keeps both files (store/sync/conflict-names.ts); pi lists each as a
 * session of its own with the same id. Here the copies fold into their original's row: a search
 * that matches only a copy still shows the row (the copy's rank, without its snippet: its text is
 * not the original's), a fork of a copy nests under the row, and the row says how many files it
 * stands for (`⇄2`: the original and one copy). The names say which file is a copy; the ids the
 * listing read from each header confirm it, so no file is read here.
 */
import { type ConflictGroup, confirmGroups, conflictGroups, type SessionInfo } from '../store/index.js';
import type { SessionMatch } from './session-match.js';
import type { Parents, Row } from './sort.js';

export interface ConflictFolding {
  /** By the original's path: its group and the listed infos of its copies. */
  groups: ReadonlyMap<string, { group: ConflictGroup; copies: readonly SessionInfo[] }>;
  /** A copy's path → its original's info. */
  originalOf: ReadonlyMap<string, SessionInfo>;
}

const NONE: ConflictFolding = { groups: new Map(), originalOf: new Map() };
const foldings = new WeakMap<readonly SessionInfo[], ConflictFolding>();

/** The conflict groups among a scope's sessions; made once per list (the array's identity). */
export function conflictFolding(sessions: readonly SessionInfo[]): ConflictFolding {
  let folding = foldings.get(sessions);
  if (folding) return folding;
  // Every name the tools give a copy says "conflict": a store without one (nearly every store)
  // costs one scan of the paths per list, not a parse and a sort of them all.
  if (!sessions.some((info) => info.path.includes('conflict'))) {
    foldings.set(sessions, NONE);
    return NONE;
  }
  const byPath = new Map(sessions.map((info) => [info.path, info]));
  const confirmed = confirmGroups(conflictGroups(sessions.map((info) => info.path)), (path) => byPath.get(path)?.id);
  if (confirmed.length === 0) folding = NONE;
  else {
    const groups = new Map<string, { group: ConflictGroup; copies: SessionInfo[] }>();
    const originalOf = new Map<string, SessionInfo>();
    for (const group of confirmed) {
      const original = byPath.get(group.original)!;
      groups.set(group.original, { group, copies: group.copies.map((c) => byPath.get(c.path)!) });
      for (const copy of group.copies) originalOf.set(copy.path, original);
    }
    folding = { groups, originalOf };
  }
  foldings.set(sessions, folding);
  return folding;
}

/** The group the row of `path` stands for (the original's path), if it is one. */
export function conflictGroupAt(folding: ConflictFolding, path: string): ConflictGroup | undefined {
  return folding.groups.get(path)?.group;
}

/**
 * The matches with each copy folded into its original: one match per group, the original's own
 * when it matched (with the best rank of the group), else the best copy's rank on the original.
 */
export function foldConflictMatches(matches: readonly SessionMatch[], folding: ConflictFolding): SessionMatch[] {
  if (folding.originalOf.size === 0) return matches as SessionMatch[];
  const out: SessionMatch[] = [];
  const slot = new Map<SessionInfo, number>();
  for (const match of matches) {
    const original = folding.originalOf.get(match.info.path);
    const info = original ?? match.info;
    const at = slot.get(info);
    if (at === undefined) {
      slot.set(info, out.length);
      out.push(original ? { info, score: match.score } : match);
      continue;
    }
    const before = out[at]!;
    const score = Math.min(before.score, match.score);
    // The original's own match keeps its snippet (a copy's hit is in another file's text).
    out[at] = original ? { ...before, score } : { ...match, score };
  }
  return out;
}

/** The list's parents with a fork of a copy placed under the copy's original (whose row the copy is part of). */
export function foldedParents(parents: Parents, folding: ConflictFolding): Parents {
  if (folding.originalOf.size === 0) return parents;
  let out = folded.get(parents);
  if (out === undefined) {
    const made = new Map<SessionInfo, SessionInfo>();
    for (const [child, parent] of parents) made.set(child, folding.originalOf.get(parent.path) ?? parent);
    out = made;
    folded.set(parents, out);
  }
  return out;
}
/** Per list's parents (made once per list, like the folding itself). */
const folded = new WeakMap<Parents, Parents>();

/** The rows with each group's row saying how many files it stands for. */
export function markConflictRows(rows: readonly Row[], folding: ConflictFolding): Row[] {
  if (folding.groups.size === 0) return rows as Row[];
  return rows.map((row) => {
    const found = folding.groups.get(row.info.path);
    return found ? { ...row, conflictFiles: found.copies.length + 1 } : row;
  });
}
