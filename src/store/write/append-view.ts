/**
 * What a write's planner and its checks see of the session file right before the append: made
 * from the append scan's point, apart from the write that uses it, so the journal note's checks
 * (note.ts) read it without importing the write that imports them.
 */
import type { AppendPoint } from '../read/append-scan.js';
import type { SessionEntry } from '../types.js';

/** What a planner sees of the file right before the append. */
export interface AppendView {
  /** The real path written to (symlinks followed). */
  path: string;
  /** The last entry in file order, where the new entries hang (null: no entries yet). */
  leafId: string | null;
  /** Every entry id in the file. */
  ids: ReadonlySet<string>;
  /** The session name pi shows (undefined: none or cleared). */
  name: string | undefined;
  /** Resolved labels (target id → label), replayed over the whole file like the tree's. */
  labels: ReadonlyMap<string, string>;
  /** When each resolved label was set: its label entry's timestamp (what pi shows). */
  labelTimestamps: ReadonlyMap<string, string>;
  /** The session_info entry that set `name`, and per labelled target the label entry that set it. */
  nameEntryId: string | undefined;
  labelEntryIds: ReadonlyMap<string, string>;
  /** The header's session id and cwd. */
  sessionId: string;
  cwd: string | undefined;
  /** The first user message's text (its start): the title of a session without a name. */
  firstUserText: string | undefined;
  /** The entries asked for with `keep`, as last written. */
  entry(id: string): SessionEntry | undefined;
}

/** The view of the file at `path` as the append scan found it. */
export function viewOf(path: string, point: AppendPoint): AppendView {
  return {
    path,
    leafId: point.leafId,
    ids: point.ids,
    name: point.name,
    labels: point.labels,
    labelTimestamps: point.labelTimestamps,
    nameEntryId: point.nameEntryId,
    labelEntryIds: point.labelEntryIds,
    sessionId: point.header['id'] as string,
    cwd: typeof point.header['cwd'] === 'string' ? point.header['cwd'] : undefined,
    firstUserText: point.firstUserText,
    entry: (id) => point.kept.get(id) as SessionEntry | undefined,
  };
}
