/**
 * What the journal's records mean together (pure): the state our latest write left each file in,
 * the changes that can still be undone, the undo that can be redone, and how far back the
 * history goes.
 *
 * The semantics, in the order records are appended:
 *   - a change (rename, label, branch, fork, delete, slim, redact, merge) without `undoes` is undoable until a
 *     record names it in `undoes` (it was undone) or a `skip` names it in `skips` (passed over);
 *     a redo's records are changes too (they carry `redoes`), so a redo can be undone again;
 *   - undo always takes the newest undoable change (with the rest of its delete batch), so the
 *     history is a stack: skipping the newest makes the one before it the newest;
 *   - redo takes back the newest undo that was not redone yet, as long as no new change was made
 *     since (a new change ends the redo history, as in an editor; skips and trims do not count).
 */
import { CHANGE_KINDS, type FileState, type JournalRecord } from './records.js';

/**
 * Per path, the state our latest journalled write left it in. A delete removes the path (a file
 * there later is not ours); a fork's new file is ours until someone writes to it.
 */
export function latestOwnStates(records: readonly JournalRecord[]): Map<string, FileState> {
  const states = new Map<string, FileState>();
  for (const record of records) {
    if (record.kind === 'skip' || record.kind === 'trimmed') continue;
    for (const path of record.alias === undefined ? [record.path] : [record.path, record.alias]) {
      if (record.kind === 'delete') states.delete(path);
      else states.set(path, record.after);
    }
    if (record.kind === 'slim') states.delete(record.source); // in the trash: a file there later is not ours
    if (record.kind === 'merge')
      for (const source of record.sources) if (source.path !== record.path) states.delete(source.path);
  }
  return states;
}

/** A change a user made (or a redo of one), as opposed to an undo's records and the journal's bookkeeping. */
export function isChange(record: JournalRecord): boolean {
  return record.undoes === undefined && record.id !== undefined && CHANGE_KINDS.includes(record.kind);
}

/** The ids of changes taken back (by an undo) and passed over (by a skip). */
function closedIds(records: readonly JournalRecord[]): { undone: Map<string, JournalRecord>; skipped: Set<string> } {
  const undone = new Map<string, JournalRecord>();
  const skipped = new Set<string>();
  for (const r of records) {
    if (r.undoes !== undefined && !undone.has(r.undoes)) undone.set(r.undoes, r);
    if (r.kind === 'skip') skipped.add(r.skips);
  }
  return { undone, skipped };
}

/** The changes an undo can still take back, newest first: not made by an undo, not undone, not skipped. */
export function undoableChanges(records: readonly JournalRecord[]): JournalRecord[] {
  const { undone, skipped } = closedIds(records);
  return records.filter((r) => isChange(r) && !undone.has(r.id!) && !skipped.has(r.id!)).reverse();
}

/** What became of a change that is no longer undoable: undone (and by which record), or skipped. */
export function fateOf(
  records: readonly JournalRecord[],
  id: string,
): { kind: 'undone'; by: JournalRecord } | { kind: 'skipped' } | undefined {
  const { undone, skipped } = closedIds(records);
  const by = undone.get(id);
  if (by) return { kind: 'undone', by };
  return skipped.has(id) ? { kind: 'skipped' } : undefined;
}

/** The records undone together with `record`: the rest of its delete batch (newest first, as given). */
export function batchOf(entries: readonly JournalRecord[], record: JournalRecord): JournalRecord[] {
  if (record.kind !== 'delete' || record.batch === undefined) return [record];
  return entries.filter((e) => e.kind === 'delete' && e.batch === record.batch);
}

export interface RedoCandidate {
  /** The change the undo took back (a delete batch: its newest record). */
  change: JournalRecord;
  /** Every change of that undo (a delete batch: all of them that were undone). */
  changes: JournalRecord[];
  /** The undo's records (what it wrote: appended entries, restores, the trashing of a fork). */
  undos: JournalRecord[];
}

/** The undo that `redo` takes back, or undefined (nothing undone, all redone, or a new change since). */
export function redoCandidate(records: readonly JournalRecord[]): RedoCandidate | undefined {
  const byId = new Map(records.flatMap((r) => (r.id === undefined ? [] : [[r.id, r] as const])));
  const redone = new Set(records.flatMap((r) => (r.redoes === undefined ? [] : [r.redoes])));
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i]!;
    if (record.kind === 'skip' || record.kind === 'trimmed') continue;
    if (record.redoes !== undefined) continue; // a redo: the undo it took back is in `redone`
    if (record.undoes === undefined) return undefined; // a new change since: nothing older can be redone
    if (redone.has(record.undoes)) continue;
    const change = byId.get(record.undoes);
    if (!change || !isChange(change)) return undefined; // trimmed away: cannot be redone
    const changes =
      change.kind === 'delete' && change.batch !== undefined
        ? records.filter(
            (r) =>
              r.kind === 'delete' &&
              r.batch === change.batch &&
              r.id !== undefined &&
              !redone.has(r.id) &&
              records.some((u) => u.undoes === r.id),
          )
        : [change];
    const ids = new Set(changes.map((c) => c.id));
    return { change, changes, undos: records.filter((r) => r.undoes !== undefined && ids.has(r.undoes)) };
  }
  return undefined;
}

export interface HistoryExtent {
  /** The time of the oldest record kept (undefined: an empty journal). */
  since: string | undefined;
  /** Changes recorded since then (undone and skipped ones included). */
  changes: number;
  /** Older records were dropped (by a trim, or because only the journal's newest part was read). */
  trimmed: boolean;
}

/** How far back the history goes, for `undo --list` ("history since …, N changes; older ones were trimmed"). */
export function historyExtent(records: readonly JournalRecord[], partial = false): HistoryExtent {
  const first = records.find((r) => r.kind !== 'trimmed');
  return {
    since: first?.time,
    changes: records.filter(isChange).length,
    trimmed: partial || records.some((r) => r.kind === 'trimmed'),
  };
}
