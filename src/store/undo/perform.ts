/**
 * Undoing a claimed change, each kind the append-only way (undo.ts claims it under the journal's
 * lock and checks it against the disk first): a rename, label or branch appends what was there
 * before, a fork goes to the trash, a delete comes back from it (a batch together: those that
 * cannot be restored are passed over with a `skip` each), a slim puts the original back and
 * trashes its copy, a merge puts the original and its conflict copies back and trashes the merged file. Each write is journalled as undoing the change (`undoes`).
 */
import { stat } from 'node:fs/promises';
import { StoreError } from '../errors.js';
import { fileStateOf, recordChange } from '../journal/file.js';
import { type JournalNote, type JournalRecord, PATH_TEXT_MAX } from '../journal/records.js';
import { restoreSessions, trashSessions } from '../trash/trash.js';
import { moveLeaf } from '../write/branch.js';
import { renameSession, setLabel } from '../write/write.js';
import type { UndoEntry, UndoOutcome } from './entry.js';

/** Undoes the claimed `entry` (the lock is held): each kind the append-only way. */
export async function performUndo(entry: UndoEntry): Promise<UndoOutcome> {
  const { record } = entry;
  const env = process.env;
  const base = { record, batch: entry.batch, undo: entry.undo };
  if (record.kind === 'delete') {
    const stuck = new Map((entry.stuck ?? []).map((s) => [s.record, s.why]));
    let journalWarning: string | undefined;
    let restored = 0;
    for (const member of entry.batch) {
      const why = stuck.get(member);
      if (why !== undefined) {
        // Passed over with the rest of its batch: it cannot come back, and must not block the changes before it.
        const recorded = await recordChange(
          {
            kind: 'skip',
            path: member.path,
            time: new Date().toISOString(),
            skips: member.id!,
            reason: why.slice(0, 500),
          },
          env,
        );
        journalWarning ??= recorded.warning;
        continue;
      }
      try {
        journalWarning ??= await restoreDeleted(member as Extract<JournalRecord, { kind: 'delete' }>, env);
        restored++;
      } catch (error) {
        if (restored === 0 || !(error instanceof StoreError)) throw error;
        throw new StoreError(
          'write-failed',
          `restored ${restored} of the ${entry.batch.length} sessions deleted together, then ${error.message}`,
        );
      }
    }
    const first = entry.stuck?.[0];
    return {
      ...base,
      ...(entry.batch.length > 1 ? { count: restored } : {}),
      ...(first
        ? { notRestored: `${entry.stuck!.length} of them could not be restored (${first.why}) and were passed over` }
        : {}),
      ...(journalWarning ? { journalWarning } : {}),
    };
  }
  const note: JournalNote = { undoes: record.id! };
  const expect = { ...(record.sessionId !== undefined ? { sessionId: record.sessionId } : {}) };
  let journalWarning: string | undefined;
  switch (record.kind) {
    case 'rename':
      journalWarning = (
        await renameSession(
          record.path,
          record.previousNameEntry !== undefined
            ? { fromEntry: record.previousNameEntry }
            : (record.previousName ?? ''),
          { ...note, ...expect, entryId: record.entryId },
        )
      ).journalWarning;
      break;
    case 'label':
      journalWarning = (
        await setLabel(
          record.path,
          record.targetId,
          record.previousLabelEntry !== undefined
            ? { fromEntry: record.previousLabelEntry }
            : (record.previousLabel ?? undefined),
          { ...note, ...expect, entryId: record.entryId },
        )
      ).journalWarning;
      break;
    case 'branch':
      journalWarning = (
        await moveLeaf(record.path, record.previousLeafId, { ...note, ...expect, entryId: record.entryId })
      ).journalWarning;
      break;
    case 'fork': {
      const outcome = await trashSessions([record.path], { note });
      if (outcome.failed.length > 0)
        throw new StoreError('write-failed', `${record.path}: ${outcome.failed[0]!.error}; nothing was undone`);
      journalWarning = outcome.journalWarning;
      break;
    }
    case 'slim':
      journalWarning = await undoSlim(record, note, env);
      break;
    case 'redact':
      journalWarning = await undoRedact(record, note, env);
      break;
    case 'merge':
      journalWarning = await undoMerge(record, note, env);
      break;
    default:
      throw new StoreError('no-entry', 'nothing to undo');
  }
  return { ...base, ...(journalWarning ? { journalWarning } : {}) };
}

/** The journal's description of a file put back: what the delete knew of it. */
function restoredFacts(
  record: JournalRecord,
  sessionId: string | undefined,
): { sessionId?: string; title?: string; cwd?: string } {
  return {
    ...(sessionId !== undefined ? { sessionId } : {}),
    ...(record.title !== undefined ? { title: record.title } : {}),
    ...(record.cwd !== undefined && record.cwd.length <= PATH_TEXT_MAX ? { cwd: record.cwd } : {}),
  };
}

/** Puts one trashed session back (checked by the caller) and journals it as undoing its delete. */
async function restoreDeleted(
  record: Extract<JournalRecord, { kind: 'delete' }>,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const outcome = await restoreSessions([
    {
      path: record.path,
      how: 'trash',
      trashedPath: record.trashedPath!,
      ...(record.infoPath ? { infoPath: record.infoPath } : {}),
    },
  ]);
  if (outcome.failed.length > 0) throw new StoreError('write-failed', `${record.path}: ${outcome.failed[0]!.error}`);
  const recorded = await recordChange(
    {
      kind: 'restore',
      path: record.path,
      time: new Date().toISOString(),
      after: fileStateOf(await stat(record.path)),
      ...restoredFacts(record, record.sessionId),
      undoes: record.id!,
    },
    env,
  );
  return recorded.warning;
}

/**
 * The original back first (refused, with nothing undone, when its path is taken again), then the
 * slim copy to the trash (when it is still there); the restore is journalled as undoing the slim
 * even when the copy stays.
 */
async function undoSlim(
  record: Extract<JournalRecord, { kind: 'slim' }>,
  note: JournalNote,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const restored = await restoreSessions([
    {
      path: record.source,
      how: 'trash',
      trashedPath: record.trashedPath!,
      ...(record.infoPath ? { infoPath: record.infoPath } : {}),
    },
  ]);
  if (restored.failed.length > 0)
    throw new StoreError('write-failed', `${record.source}: ${restored.failed[0]!.error}; nothing was undone`);
  const copyThere = await stat(record.path).then(
    () => true,
    () => false,
  );
  const copy = copyThere ? await trashSessions([record.path], { note }) : undefined;
  const recorded = await recordChange(
    {
      kind: 'restore',
      path: record.source,
      time: new Date().toISOString(),
      after: fileStateOf(await stat(record.source)),
      ...restoredFacts(record, record.sourceSessionId),
      ...note,
    },
    env,
  );
  if (copy && copy.failed.length > 0)
    throw new StoreError(
      'write-failed',
      `${record.source} is back, but its slim copy ${record.path} stays: ${copy.failed[0]!.error}`,
    );
  return recorded.warning ?? copy?.journalWarning;
}

/**
 * The redacted copy to the trash first (the original's path must be free), then the original
 * back; when that fails the copy comes back too, so the session is never missing.
 */
async function undoRedact(
  record: Extract<JournalRecord, { kind: 'redact' }>,
  note: JournalNote,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const copy = await trashSessions([record.path], { journal: false });
  if (copy.failed.length > 0)
    throw new StoreError('write-failed', `${record.path}: ${copy.failed[0]!.error}; nothing was undone`);
  const restored = await restoreSessions([
    {
      path: record.path,
      how: 'trash',
      trashedPath: record.trashedPath!,
      ...(record.infoPath ? { infoPath: record.infoPath } : {}),
    },
  ]);
  if (restored.failed.length > 0) {
    const back = await restoreSessions(copy.trashed);
    throw new StoreError(
      'write-failed',
      `${record.path}: ${restored.failed[0]!.error}; ${back.failed.length === 0 ? 'nothing was undone' : `the redacted copy is in the trash (${copy.trashed[0]?.trashedPath ?? 'see the trash'})`}`,
    );
  }
  const recorded = await recordChange(
    {
      kind: 'restore',
      path: record.path,
      time: new Date().toISOString(),
      after: fileStateOf(await stat(record.path)),
      ...restoredFacts(record, record.sessionId),
      ...note,
    },
    env,
  );
  return recorded.warning;
}

/**
 * The conflict copies back first (their paths are free), then the merged file to the trash (the
 * original's path must be free), then the original back; when that fails the merged file comes
 * back too, so the session is never missing. One `restore` record per file put back.
 */
async function undoMerge(
  record: Extract<JournalRecord, { kind: 'merge' }>,
  note: JournalNote,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const fromTrash = (source: (typeof record.sources)[number]) => ({
    path: source.path,
    how: 'trash' as const,
    trashedPath: source.trashedPath!,
    ...(source.infoPath ? { infoPath: source.infoPath } : {}),
  });
  const copies = record.sources.filter((s) => s.path !== record.path);
  const original = record.sources.find((s) => s.path === record.path)!;
  const back = await restoreSessions(copies.map(fromTrash));
  if (back.failed.length > 0)
    throw new StoreError(
      'write-failed',
      `${back.failed[0]!.path}: ${back.failed[0]!.error}; ${back.restored.length === 0 ? 'nothing was undone' : `${back.restored.join(', ')} restored, the merged file kept`}`,
    );
  const merged = await trashSessions([record.path], { journal: false });
  if (merged.failed.length > 0)
    throw new StoreError(
      'write-failed',
      `${record.path}: ${merged.failed[0]!.error}; the conflict copies are back beside the merged file`,
    );
  const restored = await restoreSessions([fromTrash(original)]);
  if (restored.failed.length > 0) {
    const again = await restoreSessions(merged.trashed);
    throw new StoreError(
      'write-failed',
      `${record.path}: ${restored.failed[0]!.error}; the conflict copies are back, ${again.failed.length === 0 ? 'and so is the merged file' : `the merged file is in the trash (${merged.trashed[0]?.trashedPath ?? 'see the trash'})`}`,
    );
  }
  let warning: string | undefined;
  for (const source of [original, ...copies]) {
    const recorded = await recordChange(
      {
        kind: 'restore',
        path: source.path,
        time: new Date().toISOString(),
        after: fileStateOf(await stat(source.path)),
        ...restoredFacts(record, record.sessionId),
        ...note,
      },
      env,
    );
    warning ??= recorded.warning;
  }
  return warning;
}
