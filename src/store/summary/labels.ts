/**
 * Every label of one session, resolved by the tree's label replay (tree.ts `replayLabel`, the one
 * rule the append scan and fork share), with the entry it marks and the time it was set. The
 * cross-session bookmark list (`pi-sessions labels`) is these, for each session in scope.
 */
import { buildTree } from '../tree.js';
import type { LoadedSession, SessionEntry } from '../types.js';

export interface SessionLabel {
  entryId: string;
  label: string;
  /** The label entry's timestamp as written ('' when it had none). */
  timestamp: string;
  /** The labelled entry; undefined when the target is not in the file (a problem the tree reports). */
  entry: SessionEntry | undefined;
}

/** The session's labels in pi's resolved order (insertion order of the replay). */
export function sessionLabels(session: LoadedSession): SessionLabel[] {
  const tree = buildTree(session);
  return [...tree.labels].map(([entryId, label]) => ({
    entryId,
    label,
    timestamp: tree.labelTimestamps.get(entryId) ?? '',
    entry: tree.byId.get(entryId),
  }));
}
