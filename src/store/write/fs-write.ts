/**
 * Byte-level write primitives of the store: every byte a write promises is on disk, or the file
 * is as it was. `write()` may write fewer bytes than asked (a file-size limit, a nearly full disk)
 * and then fail on the next call (ENOSPC, EFBIG under `ulimit -f`: Node ignores SIGXFSZ, EDQUOT,
 * EIO), so every write loops until done and every failure undoes what was written:
 * - an append is truncated back to the old length;
 * - a rewrite goes to a temp file that is renamed over the original only once complete and
 *   fsynced, and is removed otherwise;
 * - a new file that could not be written whole is removed.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describeFsError, StoreError } from '../errors.js';
import { openRegular } from '../read/regular-file.js';

/** Writes all of `bytes` at `position` (null: the current position / O_APPEND), looping on short writes. */
export async function writeFully(
  handle: FileHandle,
  bytes: Buffer,
  position: number | null,
  progress?: { written: number },
): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(
      bytes,
      offset,
      bytes.length - offset,
      position === null ? null : position + offset,
    );
    // A zero-byte write would loop forever; the kernel reports a full disk as an error, not as 0.
    if (bytesWritten <= 0) throw Object.assign(new Error('no progress writing'), { code: 'EIO' });
    offset += bytesWritten;
    if (progress) progress.written += bytesWritten;
  }
}

/** The mode bits and owner a copy of `source` gets (a 0600 session stays 0600). */
async function copyOwnership(handle: FileHandle, source: Stats): Promise<void> {
  // fchmod, not the open mode: the umask would widen nothing but could narrow 0644 to 0600 or worse.
  await handle.chmod(source.mode & 0o7777);
  if (process.getuid?.() === 0 && (source.uid !== 0 || source.gid !== 0)) {
    // Root editing a user's session: the copy stays theirs. Best effort: some file systems refuse.
    await handle.chown(source.uid, source.gid).catch(() => undefined);
  }
}

/**
 * Appends `bytes` to the file open as `handle` (O_APPEND), then fsyncs. `sizeBefore` is the size
 * the caller checked right before. On failure the file is truncated back to `sizeBefore` when
 * nothing but our bytes were added meanwhile, and the error says whether it was.
 */
export async function appendOrRollback(
  handle: FileHandle,
  path: string,
  bytes: Buffer,
  sizeBefore: number,
): Promise<void> {
  const progress = { written: 0 };
  try {
    await writeFully(handle, bytes, null, progress);
    await handle.sync();
  } catch (error) {
    let undone = progress.written === 0;
    if (!undone) {
      try {
        // Only our bytes at the end: cut them off. Anything else (pi appended meanwhile) stays.
        if ((await handle.stat()).size === sizeBefore + progress.written) {
          await handle.truncate(sizeBefore);
          await handle.sync();
          undone = true;
        }
      } catch {
        undone = false;
      }
    }
    throw new StoreError(
      'write-failed',
      undone
        ? `${path}: write failed: ${describeFsError(error)}; the file is unchanged`
        : `${path}: write failed: ${describeFsError(error)}; the partial line could not be removed (the file changed meanwhile)`,
    );
  }
}

/** `.<name>.<pid>.<6 hex>.tmp` next to `path`: the names `removeStaleTemps` recognises. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`);
}

/** Temp files of ours: `.<name>.<pid>.<6 hex>.tmp` (sessions) and `<file>.<pid>.<base36>.tmp` (catalogue). */
const OUR_TEMP =
  /^(?:\.(?<session>.+\.jsonl)\.(?<pid>\d+)\.[0-9a-f]{6}|(?<catalogue>catalogue-[0-9a-f]{16}\.bin)\.(?<cpid>\d+)\.[0-9a-z]+)\.tmp$/;
/** A temp file older than this was left by a crash even if its pid now belongs to a live process. */
export const STALE_TEMP_MS = 60 * 60 * 1000;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temp files a killed writer left in `dir` (only names we create; only when their writer
 * is gone or they are old, so a live writer's temp file is never touched). Best effort: a leftover
 * costs only disk space, and never fails the write that triggered the clean-up.
 */
export async function removeStaleTemps(dir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = OUR_TEMP.exec(name);
    if (!match?.groups) continue;
    const pid = Number(match.groups['pid'] ?? match.groups['cpid']);
    const path = join(dir, name);
    try {
      const stats = await stat(path);
      if (!stats.isFile()) continue;
      const old = now - stats.mtimeMs > STALE_TEMP_MS;
      if (!old && (pid === process.pid || pidAlive(pid))) continue;
      await unlink(path);
      removed.push(path);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
  return removed;
}

/**
 * Replaces `path` (a regular file whose stats were `before`) with `bytes` (or the chunks of an
 * async iterable, written as they come), atomically: temp file
 * with the original's mode and owner, every byte written, fsync, a last check that the original
 * is still the file we read (`unchanged`), rename, fsync of the folder. The original is never
 * touched when anything fails, and the temp file is removed.
 */
export async function replaceAtomically(
  path: string,
  before: Stats,
  bytes: Buffer | AsyncIterable<Buffer>,
  unchanged: (now: Stats) => boolean,
  what: string,
): Promise<void> {
  const temp = tempPathFor(path);
  let handle: FileHandle;
  try {
    ({ handle } = await openRegular(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
  } catch (error) {
    throw new StoreError(
      'write-failed',
      `${path}: cannot ${what}: creating a temp file: ${describeFsError(error)}; the file is unchanged`,
    );
  }
  let renamed = false;
  try {
    try {
      await copyOwnership(handle, before);
      if (Buffer.isBuffer(bytes)) await writeFully(handle, bytes, 0);
      else {
        // Streamed (a trim of a large journal): never the whole content in memory.
        let position = 0;
        for await (const chunk of bytes) {
          await writeFully(handle, chunk, position);
          position += chunk.length;
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    const now = await stat(path);
    if (!unchanged(now))
      throw new StoreError(
        'write-failed',
        `${path}: the file changed while it was being rewritten; nothing was written`,
      );
    await rename(temp, path);
    renamed = true;
    await syncDir(dirname(path));
  } catch (error) {
    if (!renamed) await unlink(temp).catch(() => undefined);
    if (error instanceof StoreError) throw error;
    throw new StoreError(
      'write-failed',
      renamed
        ? `${path}: rewritten, but syncing its folder failed: ${describeFsError(error)}`
        : `${path}: cannot ${what}: ${describeFsError(error)}; the file is unchanged`,
    );
  }
}

/**
 * Creates `path` (which must not exist) holding the `chunks` in order, with the mode and owner of
 * `like`; on any failure the new file is removed, so a failed fork leaves nothing behind. Chunks
 * are produced one at a time between writes, so a big file is never one long block of work.
 */
export async function createWhole(
  path: string,
  chunks: Iterable<Buffer> | AsyncIterable<Buffer>,
  like: Stats,
): Promise<void> {
  let handle: FileHandle;
  try {
    ({ handle } = await openRegular(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
  } catch (error) {
    throw new StoreError('write-failed', `cannot create ${path}: ${describeFsError(error)}`);
  }
  try {
    try {
      await copyOwnership(handle, like);
      let position = 0;
      for await (const chunk of chunks) {
        await writeFully(handle, chunk, position);
        position += chunk.length;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await syncDir(dirname(path));
  } catch (error) {
    await unlink(path).catch(() => undefined);
    if (error instanceof StoreError) throw error;
    throw new StoreError('write-failed', `cannot write ${path}: ${describeFsError(error)}; nothing was created`);
  }
}

/** Makes a rename or a new name durable. Folders that cannot be opened or synced are skipped. */
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems cannot fsync a folder (EINVAL); the data itself is already synced.
    if ((error as NodeJS.ErrnoException).code === 'EIO') throw error;
  } finally {
    await handle.close();
  }
}
