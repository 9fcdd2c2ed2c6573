/**
 * Opening only regular files. `open()` on a FIFO blocks until a writer appears, and a device or
 * a directory is never a session: every open of a session, a catalogue or a settings file goes
 * through here. `O_NONBLOCK` makes the open itself return at once whatever the path is (it has
 * no effect on reads of a regular file), and the `fstat` of the opened descriptor, not a `stat`
 * of the path before it, decides, so a path swapped between the two cannot slip through.
 */
import { closeSync, constants, fstatSync, openSync, type Stats, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { StoreError } from '../errors.js';

/** A path that exists but is not a regular file; `what` is the reason without the path. */
export class NotRegularFileError extends StoreError {
  constructor(
    path: string,
    readonly what: string,
  ) {
    super('not-regular', `${path}: ${what}`);
  }
}

/** The error for a path that exists but is not a regular file (FIFO, socket, device, directory). */
export function notRegularFile(path: string, stats: Stats): StoreError {
  return new NotRegularFileError(path, `not a regular file (${fileKind(stats)})`);
}

/** What a non-regular file is, for messages: "a FIFO", "a directory"… */
export function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** `flags` may include O_WRONLY, O_APPEND, O_CREAT… as numbers; O_NONBLOCK is added. */
export function openRegularSync(
  path: string,
  flags: number = constants.O_RDONLY,
  mode?: number,
): { fd: number; stats: Stats } {
  const fd = openSync(path, flags | constants.O_NONBLOCK, mode);
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!stats.isFile()) {
    closeSync(fd);
    throw notRegularFile(path, stats);
  }
  return { fd, stats };
}

export async function openRegular(
  path: string,
  flags: number = constants.O_RDONLY,
  mode?: number,
): Promise<{ handle: FileHandle; stats: Stats }> {
  const handle = await open(path, flags | constants.O_NONBLOCK, mode);
  let stats: Stats;
  try {
    stats = await handle.stat();
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (!stats.isFile()) {
    await handle.close();
    throw notRegularFile(path, stats);
  }
  return { handle, stats };
}

/**
 * Whether the session at `path` is gone: nothing there any more (ENOENT, or a folder on the way
 * that is gone or no longer one), or a symlink that leads nowhere now. A file that is there but
 * cannot be read is not gone: the action on it says why it fails.
 */
export function isGoneSync(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}
