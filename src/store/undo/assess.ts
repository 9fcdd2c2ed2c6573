/**
 * Whether a journalled change can be undone now, judged against the disk (store/undo/guard.ts): what
 * stands in the way (`blocked`, one line; then nothing is touched and only `--skip` goes past it)
 * and whether pi has written to the file since our change (`changedSince`; undone only when
 * forced or confirmed). Nothing here writes.
 */
import { lstat, stat } from 'node:fs/promises';
import { latestOwnStates } from '../journal/history.js';
import { type FileState, isAsWeLeftIt, type JournalRecord } from '../journal/records.js';
import {
  identityProblem,
  restoreTargetProblem,
  sessionFileProblem,
  trashedFileProblem,
  type UndoPlaces,
} from './guard.js';

export interface Assessment {
  /** Why it cannot be done (one line), or undefined. */
  blocked?: string;
  /** The file changed after our last write (pi wrote to it). */
  changedSince: boolean;
}

async function changedSince(path: string, ours: FileState | undefined): Promise<boolean> {
  try {
    return !isAsWeLeftIt(ours, await stat(path));
  } catch {
    return true; // gone or unreadable: not as we left it
  }
}

/** The file our change appended to or created: in a sessions folder, and still that session. */
async function ourFileProblem(
  places: UndoPlaces,
  record: JournalRecord & { after: FileState },
): Promise<string | undefined> {
  return (
    (await sessionFileProblem(places, record.path)) ??
    (await identityProblem(record.path, { sessionId: record.sessionId, after: record.after }))
  );
}

/** Whether the trashed file of a delete can be put back where it was. */
export async function restoreProblem(
  places: UndoPlaces,
  record: Extract<JournalRecord, { kind: 'delete' }>,
): Promise<string | undefined> {
  if (record.how === 'deleted') return 'it was deleted permanently';
  return (
    (await restoreTargetProblem(places, record.path)) ??
    (await trashedFileProblem(places, {
      trashedPath: record.trashedPath,
      infoPath: record.infoPath,
      original: record.path,
      ...(record.sessionId !== undefined ? { sessionId: record.sessionId } : {}),
      ...(record.size !== undefined ? { size: record.size } : {}),
    }))
  );
}

/**
 * Can `record` be undone now? `records` is the journal (for the state our latest write left each
 * file in). A delete batch is judged per record by the caller.
 */
export async function assessUndo(
  places: UndoPlaces,
  record: JournalRecord,
  records: readonly JournalRecord[],
): Promise<Assessment> {
  const ours = latestOwnStates(records);
  const blocked = (why: string | undefined): Assessment => ({ ...(why ? { blocked: why } : {}), changedSince: false });
  switch (record.kind) {
    case 'rename':
    case 'label':
    case 'branch':
    case 'fork': {
      const why = await ourFileProblem(places, record);
      if (why) return blocked(why);
      return { changedSince: await changedSince(record.path, ours.get(record.path)) };
    }
    case 'delete':
      return blocked(await restoreProblem(places, record));
    case 'slim': {
      // The copy may be gone (then only the original comes back); if it is there, it must be ours.
      const copyThere = await lstat(record.path).then(
        () => true,
        () => false,
      );
      const why =
        (copyThere ? await ourFileProblem(places, record) : undefined) ??
        (await restoreTargetProblem(places, record.source)) ??
        (await trashedFileProblem(places, {
          trashedPath: record.trashedPath,
          infoPath: record.infoPath,
          original: record.source,
          ...(record.sourceSessionId !== undefined ? { sessionId: record.sourceSessionId } : {}),
        }));
      if (why) return blocked(why);
      return { changedSince: copyThere && (await changedSince(record.path, ours.get(record.path))) };
    }
    case 'redact': {
      // The redacted copy holds the path (it moves to the trash first); the original must be in the trash.
      const why =
        (await ourFileProblem(places, record)) ??
        (await trashedFileProblem(places, {
          trashedPath: record.trashedPath,
          infoPath: record.infoPath,
          original: record.path,
          ...(record.sessionId !== undefined ? { sessionId: record.sessionId } : {}),
        }));
      if (why) return blocked(why);
      return { changedSince: await changedSince(record.path, ours.get(record.path)) };
    }
    case 'merge': {
      // The merged file holds the original's path (it moves to the trash first); every file merged must be in the trash, and each copy's path free.
      let why = await ourFileProblem(places, record);
      for (const source of record.sources) {
        why ??= source.path === record.path ? undefined : await restoreTargetProblem(places, source.path);
        why ??= await trashedFileProblem(places, {
          trashedPath: source.trashedPath,
          infoPath: source.infoPath,
          original: source.path,
          ...(record.sessionId !== undefined ? { sessionId: record.sessionId } : {}),
          size: source.size,
        });
      }
      if (why) return blocked(why);
      return { changedSince: await changedSince(record.path, ours.get(record.path)) };
    }
    default:
      return blocked('it is not a change (nothing to undo)');
  }
}
