/**
 * Opening a session file for a write: the path as writes see it (symlinks followed to the real
 * file, so a link stays a link), regular files only (a FIFO fails at once instead of hanging), and
 * every failure as a one-line StoreError.
 */
import type { Stats } from 'node:fs';
import { type FileHandle, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describeFsError, StoreError } from '../errors.js';
import { readAt } from './read-at.js';
import { openRegular } from './regular-file.js';

/** A session path as writes see it: absolute, symlinks followed to the real file (a link stays a link). */
export async function realSessionPath(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new StoreError('not-found', `${absolute}: no such session file`);
    throw new StoreError('write-failed', `${absolute}: cannot write: ${describeFsError(error)}`);
  }
}

/** Opens `path` with `flags`; a FIFO or device fails at once, every failure is a StoreError. */
export async function openSession(path: string, flags: number): Promise<{ handle: FileHandle; stats: Stats }> {
  try {
    return await openRegular(path, flags);
  } catch (error) {
    if (error instanceof StoreError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new StoreError('not-found', `${path}: no such session file`);
    throw new StoreError('write-failed', `${path}: cannot write: ${describeFsError(error)}`);
  }
}

/** Reads up to `size` bytes from the start of `handle` (fewer if the file shrank meanwhile). */
export async function readWhole(handle: FileHandle, path: string, size: number): Promise<Buffer> {
  try {
    return await readAt(handle, 0, size);
  } catch (error) {
    throw new StoreError('write-failed', `${path}: cannot read: ${describeFsError(error)}`);
  }
}
