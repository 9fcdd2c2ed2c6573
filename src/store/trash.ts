/**
 * Deleting sessions: to the system trash (the `trash` package), never silently permanent.
 * On Linux the freedesktop trash records the original path and `trash` tells us where each file
 * went, so a batch can be restored; elsewhere undo says plainly that it cannot.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, rename, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { describeFsError, StoreError } from './errors.js';

export interface TrashedSession {
  /** The session's path before deletion. */
  path: string;
  /** `trash`: in the system trash; `deleted`: unlinked for good (only when asked). */
  how: 'trash' | 'deleted';
  /** Where the file sits in the trash and its `.trashinfo`, when the platform tells us. */
  trashedPath?: string;
  infoPath?: string;
}

export interface TrashFailure {
  path: string;
  error: string;
  /** True when the system trash refused the file: only a permanent delete (asked for) can remove it. */
  trashUnavailable?: boolean;
}

export interface TrashOutcome {
  trashed: TrashedSession[];
  failed: TrashFailure[];
}

/** What the `trash` package resolves to on Linux: one record per path. */
type TrashRecord = { path: string; info: string };
export type TrashFunction = (paths: string[], options: { glob: false }) => Promise<unknown>;

async function defaultTrash(paths: string[], options: { glob: false }): Promise<unknown> {
  const { default: trash } = await import('trash');
  return trash(paths, options);
}

function isTrashRecord(value: unknown): value is TrashRecord {
  return typeof value === 'object' && value !== null && typeof (value as TrashRecord).path === 'string' && typeof (value as TrashRecord).info === 'string';
}

/**
 * Moves each file to the trash, one at a time so a failure names its file. With `permanent`,
 * unlinks instead (the caller must have asked the user explicitly).
 */
export async function trashSessions(paths: string[], options: { permanent?: boolean; trash?: TrashFunction } = {}): Promise<TrashOutcome> {
  const trash = options.trash ?? defaultTrash;
  const outcome: TrashOutcome = { trashed: [], failed: [] };
  for (const input of paths) {
    const path = resolve(input);
    try {
      const info = await lstat(path);
      if (!info.isFile()) throw new StoreError('bad-input', 'not a regular file');
    } catch (error) {
      outcome.failed.push({ path, error: error instanceof StoreError ? error.message : describeFsError(error) });
      continue;
    }
    if (options.permanent) {
      try {
        await unlink(path);
        outcome.trashed.push({ path, how: 'deleted' });
      } catch (error) {
        outcome.failed.push({ path, error: describeFsError(error) });
      }
      continue;
    }
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
      outcome.trashed.push(trashed);
    } catch (error) {
      outcome.failed.push({ path, error: `could not move to the trash: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, trashUnavailable: true });
    }
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
      outcome.failed.push({ path: item.path, error: "this platform's trash does not say where the file went; restore it from the trash by hand" });
      continue;
    }
    if (existsSync(item.path)) {
      outcome.failed.push({ path: item.path, error: 'a file with that name exists again; left in the trash' });
      continue;
    }
    try {
      await mkdir(dirname(item.path), { recursive: true });
      await rename(item.trashedPath, item.path);
      if (item.infoPath) await unlink(item.infoPath).catch(() => undefined);
      outcome.restored.push(item.path);
    } catch (error) {
      outcome.failed.push({ path: item.path, error: `cannot restore: ${describeFsError(error)}` });
    }
  }
  return outcome;
}
