/**
 * The rows of the cross-session bookmark list (`pi-sessions labels` and the picker's labels view):
 * every resolved label of a session (store/summary/labels.ts) with the entry it marks, its time and its
 * session. The entry text is what Copy would take (the full text), or the tree row for entries
 * without text (a model change, a compaction). A fork carries copies of its parent's labels (pi's
 * createBranchedSession writes them again with their original times, before the fork's own
 * header time): those rows say which session they were copied from, so the two can be told apart.
 */
import { basename, dirname, isAbsolute, join } from 'node:path';
import {
  type LoadedSession,
  type ReadResult,
  readSession,
  readSessionSync,
  type SessionInfo,
  sessionLabels,
  sessionTitle,
} from '../store/index.js';
import { collectToolCalls, displayString, entryDisplay, entryFullText } from '../tree/entry-display.js';

/** Marks a fork's copy of a label (the tree marks fork rows the same way). */
export const FORK_MARK = '⑂';

/** One row of `labels --json`. */
export interface LabelRow {
  label: string;
  /** When the label was set (the label entry's timestamp as written; null when it had none). */
  time: string | null;
  entryId: string;
  entryType: string | null;
  /** The labelled entry's text; null when the entry is not in the file. */
  text: string | null;
  /** The session file a fork copied this label from (its parentSession), null when it was set in this session. */
  copiedFrom: string | null;
  session: { id: string; name: string | null; title: string; path: string; cwd: string };
}

/** A label a fork copied: its time lies before the fork's header was written. */
function copiedFromOf(info: SessionInfo, timestamp: string): string | null {
  const parent = info.parentSessionPath;
  if (parent === undefined || parent === '') return null;
  const labelMs = Date.parse(timestamp);
  const forkedMs = info.created.getTime();
  if (Number.isNaN(labelMs) || Number.isNaN(forkedMs) || labelMs >= forkedMs) return null;
  return isAbsolute(parent) ? parent : join(dirname(info.path), parent);
}

function rowsOf(info: SessionInfo, loaded: LoadedSession): LabelRow[] {
  const toolCalls = collectToolCalls(loaded.entries);
  const session = { id: info.id, name: info.name ?? null, title: sessionTitle(info), path: info.path, cwd: info.cwd };
  return sessionLabels(loaded).map(({ entryId, label, timestamp, entry }) => ({
    label,
    time: timestamp === '' ? null : timestamp,
    entryId,
    entryType: entry?.type ?? null,
    text: entry === undefined ? null : (entryFullText(entry) ?? displayString(entryDisplay(entry, { toolCalls }))),
    copiedFrom: copiedFromOf(info, timestamp),
    session,
  }));
}

/**
 * How a copied label says where it came from: `in fork of <the parent's title>` (its file name
 * when the parent is not among `rows`); undefined for a label set in its own session.
 */
export function forkNote(row: LabelRow, rows: readonly LabelRow[]): string | undefined {
  if (row.copiedFrom === null) return undefined;
  const parent = rows.find((r) => r.session.path === row.copiedFrom);
  return `in fork of ${parent ? parent.session.title : basename(row.copiedFrom)}`;
}

function fromRead(info: SessionInfo, loaded: ReadResult): LabelRow[] | { problem: string } {
  return loaded.ok ? rowsOf(info, loaded) : { problem: `${info.path}: ${loaded.message}` };
}

/** The label rows of one listed session (read in full: only sessions the listing says have labels). */
export function labelRowsOf(info: SessionInfo): LabelRow[] | { problem: string } {
  return fromRead(info, readSessionSync(info.path));
}

/** The same, reading the file asynchronously (the picker's labels view). */
export async function labelRowsOfAsync(info: SessionInfo): Promise<LabelRow[] | { problem: string }> {
  return fromRead(info, await readSession(info.path));
}

const timeMs = (row: LabelRow): number => (row.time === null ? Number.NaN : Date.parse(row.time));

/** Newest first; rows without a valid time keep their order after the others (sort is stable). */
export function sortLabelRows(rows: LabelRow[]): LabelRow[] {
  return rows.sort((a, b) => {
    const ta = timeMs(a);
    const tb = timeMs(b);
    if (Number.isNaN(ta) || Number.isNaN(tb)) return Number.isNaN(ta) ? (Number.isNaN(tb) ? 0 : 1) : -1;
    return tb - ta;
  });
}

/** Only sessions the listing says carry labels are read (the listing resolves labels with the same rule). */
export function sessionsWithLabels(sessions: readonly SessionInfo[]): SessionInfo[] {
  return sessions.filter((s) => s.labels.length > 0);
}
