/**
 * Deleting sessions: to the system trash, never silently permanent. On Linux the freedesktop
 * home trash is written here (freedesktop-trash.ts: the `trash` package's Linux backend loses
 * lines across file systems and leaves `.trashinfo` files behind on failure); on macOS, Windows
 * and WSL the `trash` package does it. On Linux each batch can be restored, across file systems
 * too; elsewhere undo says plainly that it cannot.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { lstat, mkdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { describeFsError, firstLineOf, StoreError } from '../errors.js';
import { recordChange } from '../journal/file.js';
import { type JournalNote, PATH_TEXT_MAX, preview, type TrashBackend } from '../journal/records.js';
import { readSessionHead, type SessionHead } from '../read/session-head.js';
import { moveToHomeTrash, TrashError, USES_HOME_TRASH } from './freedesktop-trash.js';
import { moveFileSafely } from './safe-move.js';

export interface TrashedSession {
  /** The session's path before deletion. */
  path: string;
  /** `trash`: in the system trash; `deleted`: unlinked for good (only when asked). */
  how: 'trash' | 'deleted';
  /** Where the file sits in the trash and its `.trashinfo`, when the platform tells us. */
  trashedPath?: string;
  infoPath?: string;
  /** `home`: those paths are the freedesktop home trash's (written by us); its size there. */
  trash?: TrashBackend;
  size?: number;
}

export interface TrashFailure {
  path: string;
  error: string;
  /** True when the system trash refused the file: only a permanent delete (asked for) can remove it. */
  trashUnavailable?: boolean;
  /** False when the file is no longer at its path although the delete failed (the error says where it is). */
  kept?: boolean;
}

export interface TrashOutcome {
  trashed: TrashedSession[];
  failed: TrashFailure[];
  /** The journal records' ids, one per file trashed (none when not journalled). */
  changeIds: string[];
  /** Set when a delete could not be recorded in the journal (the file was deleted all the same). */
  journalWarning?: string;
}

/** What the `trash` package resolves to on Linux: one record per path. */
type TrashRecord = { path: string; info: string };
export type TrashFunction = (paths: string[], options: { glob: false }) => Promise<unknown>;

async function packageTrash(paths: string[], options: { glob: false }): Promise<unknown> {
  const { default: trash } = await import('trash');
  return trash(paths, options);
}

function isTrashRecord(value: unknown): value is TrashRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as TrashRecord).path === 'string' &&
    typeof (value as TrashRecord).info === 'string'
  );
}

/** Through a trash function (the package, or a test's): its record, when it gives one. */
async function throughFunction(path: string, trash: TrashFunction): Promise<TrashedSession | TrashFailure> {
  try {
    const result = await trash([path], { glob: false });
    // pi counts a delete as done when trash succeeded or the file is gone afterwards.
    if (existsSync(path)) throw new Error('the file is still there');
    const record = Array.isArray(result) && isTrashRecord(result[0]) ? result[0] : undefined;
    const trashed: TrashedSession = { path, how: 'trash' };
    if (record) {
      trashed.trashedPath = record.path;
      trashed.infoPath = record.info;
    }
    return trashed;
  } catch (error) {
    // Never "nothing was deleted" when the file is gone: the library may have failed half-way.
    if (!existsSync(path))
      return {
        path,
        error: `the trash reported an error (${firstLineOf(error)}) but the file is no longer here: look for it in the trash`,
        kept: false,
      };
    return { path, error: `could not move to the trash: ${firstLineOf(error)}`, trashUnavailable: true, kept: true };
  }
}

async function throughHomeTrash(path: string): Promise<TrashedSession | TrashFailure> {
  try {
    const moved = await moveToHomeTrash(path);
    const size = (await lstat(moved.path).catch(() => undefined))?.size;
    return {
      path,
      how: 'trash',
      trashedPath: moved.path,
      infoPath: moved.info,
      trash: 'home',
      ...(size !== undefined ? { size } : {}),
    };
  } catch (error) {
    if (!(error instanceof TrashError))
      return {
        path,
        error: `could not move to the trash: ${firstLineOf(error)}`,
        trashUnavailable: true,
        kept: existsSync(path),
      };
    if (error.sourceGone) return { path, error: error.message, kept: false };
    const failure: TrashFailure = {
      path,
      error: error.targetSide ? `could not move to the trash: ${error.message}` : error.message,
      kept: true,
    };
    if (error.targetSide) failure.trashUnavailable = true;
    return failure;
  }
}

/**
 * The path a file is known by whatever the way it was named (symlinked folders, `..`): for
 * deduplication. A symlink is its own file here (its folder resolved, its name kept): deleting a
 * link and the session it leads to are two deletes.
 */
function identity(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? join(realpathSync(dirname(path)), basename(path)) : realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Moves each file to the trash, one at a time so a failure names its file; the same file named
 * twice (by path and by id) is deleted once. With `permanent`, unlinks instead (the caller must
 * have asked the user explicitly).
 */
export async function trashSessions(
  paths: string[],
  options: {
    permanent?: boolean;
    trash?: TrashFunction;
    note?: JournalNote;
    /** Per path (resolved), the note of its record instead of `note` (a redo of a delete batch). */
    notes?: ReadonlyMap<string, JournalNote>;
    journal?: boolean;
  } = {},
): Promise<TrashOutcome> {
  const outcome: TrashOutcome = { trashed: [], failed: [], changeIds: [] };
  const seen = new Set<string>();
  // What the journal says of each session, read (bounded) before it goes: undo checks the id.
  const heads = new Map<string, SessionHead>();
  for (const input of paths) {
    const path = resolve(input);
    const key = identity(path);
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      // A symlink to a session is listed like one, and deleting it moves the link, never its file.
      const info = await lstat(path);
      if (!(info.isSymbolicLink() ? await stat(path) : info).isFile())
        throw new StoreError('bad-input', 'not a regular file');
    } catch (error) {
      outcome.failed.push({ path, error: error instanceof StoreError ? error.message : describeFsError(error) });
      continue;
    }
    if (options.journal !== false) {
      const head = await readSessionHead(path);
      if (head) heads.set(path, head);
    }
    if (options.permanent) {
      try {
        await unlink(path);
        outcome.trashed.push({ path, how: 'deleted' });
      } catch (error) {
        outcome.failed.push({ path, error: describeFsError(error), kept: true });
      }
      continue;
    }
    const result =
      options.trash || !USES_HOME_TRASH
        ? await throughFunction(path, options.trash ?? packageTrash)
        : await throughHomeTrash(path);
    if ('how' in result) outcome.trashed.push(result);
    else outcome.failed.push(result);
  }
  // journal false: the caller journals the delete as part of a larger change (slim.ts).
  const batch = outcome.trashed.length > 1 ? { batch: randomBytes(4).toString('hex') } : {};
  for (const item of options.journal === false ? [] : outcome.trashed) {
    const time = new Date().toISOString();
    const head = heads.get(item.path);
    const recorded = await recordChange({
      kind: 'delete',
      path: item.path,
      time,
      how: item.how,
      trashedPath: item.trashedPath ?? null,
      infoPath: item.infoPath ?? null,
      ...(item.trash ? { trash: item.trash } : {}),
      ...(item.size !== undefined ? { size: item.size } : {}),
      ...(head?.sessionId !== undefined ? { sessionId: head.sessionId } : {}),
      ...(head?.title !== undefined ? { title: preview(head.title) } : {}),
      ...(head?.cwd !== undefined && head.cwd.length <= PATH_TEXT_MAX ? { cwd: head.cwd } : {}),
      ...batch,
      ...(options.notes?.get(item.path) ?? options.note),
    });
    outcome.changeIds.push(recorded.id);
    outcome.journalWarning ??= recorded.warning;
  }
  return outcome;
}

export interface RestoreOutcome {
  restored: string[];
  failed: TrashFailure[];
}

/** Puts trashed sessions back where they were (never over an existing file). */
export async function restoreSessions(trashed: TrashedSession[]): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = { restored: [], failed: [] };
  for (const item of trashed) {
    if (item.how === 'deleted') {
      outcome.failed.push({ path: item.path, error: 'deleted permanently; cannot be restored' });
      continue;
    }
    if (!item.trashedPath) {
      outcome.failed.push({
        path: item.path,
        error: "this platform's trash does not say where the file went; restore it from the trash by hand",
      });
      continue;
    }
    if (existsSync(item.path)) {
      outcome.failed.push({ path: item.path, error: 'a file with that name exists again; left in the trash' });
      continue;
    }
    try {
      await mkdir(dirname(item.path), { recursive: true });
      // Across file systems too (the trash may be on another one): never over an existing file.
      await moveFileSafely(item.trashedPath, item.path);
      if (item.infoPath) await unlink(item.infoPath).catch(() => undefined);
      outcome.restored.push(item.path);
    } catch (error) {
      outcome.failed.push({
        path: item.path,
        error: `cannot restore: ${error instanceof StoreError ? error.message : describeFsError(error)}`,
      });
    }
  }
  return outcome;
}
