/**
 * Forks joined to the tree: a session whose header's `parentSession` is this file
 * appears as a marked row under the entry it was forked from, and a fork knows its parent.
 *
 * Where a fork was made: pi's `createBranchedSession` copies the path root → fork point keeping
 * every entry's id (labels are dropped and re-appended with new ids), `forkFrom` copies every
 * entry with its id, and later turns get new ids. So the fork point is the fork's last entry, in
 * file order, whose id is an entry of the parent (session-format.md §12).
 */
import type { SessionEntry } from '../store/index.js';

/** A session forked from this one, at `entryId` (an entry of this session). */
export interface ForkLink {
  readonly path: string;
  readonly title: string;
  readonly entryId: string;
  /** Entries the fork has after the fork point (its own turns; re-made labels and names not counted). */
  readonly added: number;
}

/** The session this one was forked from, and the entry of it this one was forked at (null: none shared). */
export interface ParentLink {
  readonly path: string;
  readonly title: string;
  readonly entryId: string | null;
}

export interface Lineage {
  readonly forks: readonly ForkLink[];
  readonly parent: ParentLink | undefined;
}

export const NO_LINEAGE: Lineage = { forks: [], parent: undefined };

/** The id of the last entry of `copy` (file order) that `original` has: where `copy` was forked from it. */
export function forkPoint(copy: readonly SessionEntry[], original: { has(id: string): boolean }): string | null {
  for (let i = copy.length - 1; i >= 0; i--) {
    const id = copy[i]!.id;
    if (original.has(id)) return id;
  }
  return null;
}

const BOOKKEEPING_COPY = new Set(['label', 'session_info']);

/** The fork's own entries after its copy of `entryId` (what the fork row counts). */
export function entriesAfter(copy: readonly SessionEntry[], entryId: string): number {
  let at = copy.length - 1;
  while (at >= 0 && copy[at]!.id !== entryId) at--;
  let added = 0;
  for (let i = at + 1; i < copy.length; i++) if (!BOOKKEEPING_COPY.has(copy[i]!.type)) added++;
  return added;
}

/** The row stand-in's id for a fork: made not to be an entry id of the tree. */
export function forkKey(has: (id: string) => boolean, path: string): string {
  let key = `fork:${path}`;
  while (has(key)) key += "'";
  return key;
}
