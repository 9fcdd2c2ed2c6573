/**
 * `pi-sessions undo`: takes back the latest change in the journal the way pi would
 * have, append-only: a rename by appending the previous name, a label by restoring the previous
 * one, a branch by moving the leaf back, a fork by moving the new file to the trash, a delete by
 * restoring the file from the trash. When the file is no longer as our last write left it (pi has
 * written since), it refuses unless forced. The undo is journalled too, naming what it undid.
 */
import { stat } from 'node:fs/promises';
import { StoreError } from './errors.js';
import {
  type FileState,
  isAsWeLeftIt,
  type JournalNote,
  type JournalRecord,
  latestOwnStates,
  undoableChanges,
} from './journal.js';
import { fileStateOf, readJournalChecked, recordChange } from './journal-file.js';
import { restoreSessions, trashSessions } from './trash.js';
import { moveLeaf, renameSession, setLabel } from './write.js';

/** What undoing `record` does, in a few words (for `undo --list` and the undo's message). */
export function describeUndo(record: JournalRecord): string {
  switch (record.kind) {
    case 'rename':
      return record.previousName === null ? 'clear the name again' : `name it "${record.previousName}" again`;
    case 'label':
      return record.previousLabel === null
        ? `clear the label of ${record.targetId}`
        : `label ${record.targetId} "${record.previousLabel}" again`;
    case 'branch':
      return record.previousLeafId === null
        ? 'resume from an empty conversation again'
        : `resume after ${record.previousLeafId} again`;
    case 'fork':
      return 'move the fork to the trash';
    case 'delete':
      return record.how === 'deleted'
        ? 'nothing: it was deleted permanently'
        : record.trashedPath === null
          ? 'nothing: the trash did not say where it went'
          : 'restore it from the trash';
    case 'slim':
      return record.trashedPath === null
        ? 'nothing: the trash did not say where the original went'
        : 'restore the original from the trash and move the slim copy to the trash';
    case 'restore':
      return 'nothing';
  }
}

export interface UndoEntry {
  record: JournalRecord;
  /** What undoing it does. */
  undo: string;
  /** The file changed after our last write (pi wrote to it): undoing needs --force. */
  changedSince: boolean;
}

/** The changes that can still be undone, newest first, each with whether pi has written since; `warning` when the journal could not be read whole. */
export async function listUndoableChecked(): Promise<{ entries: UndoEntry[]; warning?: string }> {
  const { records, warning } = await readJournalChecked();
  const ours = latestOwnStates(records);
  const entries: UndoEntry[] = [];
  for (const record of undoableChanges(records)) {
    entries.push({
      record,
      undo: describeUndo(record),
      changedSince: record.kind === 'delete' ? false : await changedSince(record.path, ours.get(record.path)),
    });
  }
  return { entries, ...(warning ? { warning } : {}) };
}

/** The changes that can still be undone, newest first, each with whether pi has written since. */
export async function listUndoable(): Promise<UndoEntry[]> {
  return (await listUndoableChecked()).entries;
}

async function changedSince(path: string, ours: FileState | undefined): Promise<boolean> {
  try {
    return !isAsWeLeftIt(ours, await stat(path));
  } catch {
    return true; // gone or unreadable: not as we left it
  }
}

export interface UndoOutcome {
  record: JournalRecord;
  undo: string;
  /** How many changes were undone: more than one for a delete of several sessions at once. */
  count?: number;
  journalWarning?: string;
}

/**
 * Undoes the latest undoable change. Throws a StoreError (one line) when there is none or it is
 * refused. The journal is the one the writes use ($XDG_STATE_HOME, read when called).
 */
export async function undoLatest(options: { force?: boolean } = {}): Promise<UndoOutcome> {
  const { entries, warning } = await listUndoableChecked();
  const [latest] = entries;
  if (!latest)
    throw new StoreError('no-entry', `nothing to undo: ${warning ?? 'the journal has no change left to take back'}`);
  return undoWithBatch(entries, options);
}

/**
 * The latest change, and with a delete the rest of its batch (the sessions one delete moved to the
 * trash together come back together). A restore that fails stops there: those before stay restored.
 */
async function undoWithBatch(entries: readonly UndoEntry[], options: { force?: boolean }): Promise<UndoOutcome> {
  const latest = entries[0]!;
  const { record } = latest;
  const batch =
    record.kind === 'delete' && record.batch !== undefined
      ? entries.filter((e) => e.record.kind === 'delete' && e.record.batch === record.batch)
      : [latest];
  if (batch.length === 1) return undoEntry(latest, options);
  let journalWarning: string | undefined;
  for (const [i, entry] of batch.entries()) {
    try {
      journalWarning ??= (await undoEntry(entry, options)).journalWarning;
    } catch (error) {
      if (i === 0 || !(error instanceof StoreError)) throw error;
      throw new StoreError(
        'write-failed',
        `restored ${i} of the ${batch.length} sessions deleted together, then ${error.message}`,
      );
    }
  }
  return {
    record,
    undo: `restore the ${batch.length} sessions deleted together from the trash`,
    count: batch.length,
    ...(journalWarning ? { journalWarning } : {}),
  };
}

/** What Ctrl+Z in the screens gets: nothing to undo, a question first (pi wrote since), or the undo made. */
export type UndoStep =
  | { kind: 'nothing'; warning?: string }
  | { kind: 'ask'; entry: UndoEntry; warning?: string }
  | { kind: 'done'; outcome: UndoOutcome; warning?: string };

/**
 * The screens' undo, in two steps when pi has written since: without `confirmed` such a change is
 * only returned (`ask`); with `confirmed` set to its record id it is undone, as with --force. A
 * `confirmed` id that is no longer the latest change asks again (the journal moved meanwhile).
 * `warning`: the journal could not be read whole. Failures throw a one-line StoreError.
 */
export async function undoStep(options: { confirmed?: string } = {}): Promise<UndoStep> {
  const { entries, warning } = await listUndoableChecked();
  const extra = warning ? { warning } : {};
  const [latest] = entries;
  if (!latest) return { kind: 'nothing', ...extra };
  const confirmed = options.confirmed !== undefined && options.confirmed === latest.record.id;
  if (latest.changedSince && !confirmed) return { kind: 'ask', entry: latest, ...extra };
  return { kind: 'done', outcome: await undoWithBatch(entries, { force: confirmed }), ...extra };
}

async function undoEntry(latest: UndoEntry, options: { force?: boolean }): Promise<UndoOutcome> {
  const { record } = latest;
  if (latest.changedSince && !options.force) {
    throw new StoreError(
      'write-failed',
      `${record.path}: changed since pi-sessions' ${record.kind} (pi has written to it); nothing was undone (--force undoes it anyway)`,
    );
  }
  const note = { undoes: record.id! };
  let journalWarning: string | undefined;
  switch (record.kind) {
    case 'rename':
      journalWarning = (await renameSession(record.path, record.previousName ?? '', note)).journalWarning;
      break;
    case 'label':
      journalWarning = (await setLabel(record.path, record.targetId, record.previousLabel ?? undefined, note))
        .journalWarning;
      break;
    case 'branch':
      journalWarning = (await moveLeaf(record.path, record.previousLeafId, note)).journalWarning;
      break;
    case 'fork': {
      const outcome = await trashSessions([record.path], { note });
      if (outcome.failed.length > 0)
        throw new StoreError('write-failed', `${record.path}: ${outcome.failed[0]!.error}; nothing was undone`);
      journalWarning = outcome.journalWarning;
      break;
    }
    case 'delete': {
      if (record.how === 'deleted' || record.trashedPath === null)
        throw new StoreError(
          'write-failed',
          `${record.path}: cannot be restored: ${describeUndo(record).replace(/^nothing: /, '')}`,
        );
      const outcome = await restoreSessions([
        {
          path: record.path,
          how: 'trash',
          trashedPath: record.trashedPath,
          ...(record.infoPath ? { infoPath: record.infoPath } : {}),
        },
      ]);
      if (outcome.failed.length > 0)
        throw new StoreError('write-failed', `${record.path}: ${outcome.failed[0]!.error}`);
      journalWarning = await recordChange({
        kind: 'restore',
        path: record.path,
        time: new Date().toISOString(),
        after: fileStateOf(await stat(record.path)),
        ...note,
      });
      break;
    }
    case 'slim':
      journalWarning = await undoSlim(record, note);
      break;
    case 'restore':
      throw new StoreError('no-entry', 'nothing to undo');
  }
  return { record, undo: latest.undo, ...(journalWarning ? { journalWarning } : {}) };
}

/**
 * The original back first (refused, with nothing undone, when its path is taken again), then the
 * slim copy to the trash; the restore is journalled as undoing the slim even when the copy stays.
 */
async function undoSlim(
  record: Extract<JournalRecord, { kind: 'slim' }>,
  note: JournalNote,
): Promise<string | undefined> {
  if (record.trashedPath === null)
    throw new StoreError('write-failed', `${record.source}: cannot be restored: the trash did not say where it went`);
  const restored = await restoreSessions([
    {
      path: record.source,
      how: 'trash',
      trashedPath: record.trashedPath,
      ...(record.infoPath ? { infoPath: record.infoPath } : {}),
    },
  ]);
  if (restored.failed.length > 0)
    throw new StoreError('write-failed', `${record.source}: ${restored.failed[0]!.error}; nothing was undone`);
  const copy = await trashSessions([record.path], { note });
  const warning = await recordChange({
    kind: 'restore',
    path: record.source,
    time: new Date().toISOString(),
    after: fileStateOf(await stat(record.source)),
    ...note,
  });
  if (copy.failed.length > 0)
    throw new StoreError(
      'write-failed',
      `${record.source} is back, but its slim copy ${record.path} stays: ${copy.failed[0]!.error}`,
    );
  return warning ?? copy.journalWarning;
}
