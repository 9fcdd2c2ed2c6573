/**
 * Moving a session file where a rename may not reach (the trash on another file system, and
 * back), without ever losing a byte: link + unlink (or rename) when source and target share a
 * file system; otherwise copy, check the copy byte for byte, and only then unlink the source.
 *
 * The source may be live (pi appends a line per entry, opening the file by path each time):
 * - if it grew or changed while it was copied, the copy is removed and the source kept;
 * - a line pi appends between that check and the unlink lands in the inode we still hold open:
 *   it is read after the unlink and appended to the copy, so the copy holds every byte.
 * (A line appended after the unlink creates a new file at the old path: pi's own doing.)
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, link, lstat, open, readlink, rename, symlink, unlink } from 'node:fs/promises';
import { describeFsError, StoreError } from '../errors.js';
import { READ_CHUNK_BYTES } from '../read/lines.js';
import { openRegular } from '../read/regular-file.js';
import { writeFully } from '../write/fs-write.js';

export type MoveHow = 'renamed' | 'copied';

/** The move did not happen: the source is where it was and no target is left. */
export class MoveError extends StoreError {
  constructor(
    message: string,
    /** True when the target's side (its folder, its file system) failed, not the source's. */
    readonly targetSide: boolean,
  ) {
    super('write-failed', message);
  }
}

/** Copies `from` (at `start`, to its end) into `to` at the same offset; returns the end and a hash of the bytes. */
async function copyRange(
  from: FileHandle,
  to: FileHandle,
  start: number,
  hash: ReturnType<typeof createHash>,
): Promise<number> {
  const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let position = start;
  for (;;) {
    const { bytesRead } = await from.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) return position;
    hash.update(chunk.subarray(0, bytesRead));
    await writeFully(to, chunk.subarray(0, bytesRead), position);
    position += bytesRead;
  }
}

async function hashOf(handle: FileHandle, length: number): Promise<{ digest: string; bytes: number }> {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, length + 1 - position), position);
    if (bytesRead === 0) break;
    hash.update(chunk.subarray(0, bytesRead));
    position += bytesRead;
    if (position > length) break;
  }
  return { digest: hash.digest('hex'), bytes: position };
}

/**
 * Copies `source` to the new file `target` (created exclusively, with the source's mode),
 * checks it, and unlinks `source`. Throws a MoveError with nothing changed on any failure.
 */
async function copyThenUnlink(source: string, target: string): Promise<void> {
  const { handle: from, stats: before } = await openRegular(source);
  let to: FileHandle | undefined;
  let targetCreated = false;
  const fail = async (message: string, targetSide: boolean): Promise<never> => {
    await to?.close().catch(() => undefined);
    to = undefined;
    if (targetCreated) await unlink(target).catch(() => undefined);
    throw new MoveError(message, targetSide);
  };
  try {
    try {
      to = await open(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      targetCreated = true;
      // The source's mode exactly (the umask applies to open's mode, not to fchmod).
      await to.chmod(before.mode & 0o7777);
    } catch (error) {
      return await fail(`cannot create ${target}: ${describeFsError(error)}`, true);
    }
    const hash = createHash('sha256');
    let copied: number;
    try {
      copied = await copyRange(from, to, 0, hash);
      await to.sync();
    } catch (error) {
      return await fail(`cannot copy to ${target}: ${describeFsError(error)}`, true);
    }
    // Verify: what the target's file system holds now is what was read, byte for byte.
    const check = await open(target, 'r');
    const written = await hashOf(check, copied).finally(() => check.close());
    if (written.bytes !== copied || written.digest !== hash.copy().digest('hex'))
      return await fail(`the copy in ${target} does not match the file`, true);
    const now = await from.stat();
    const atPath = await lstat(source).catch(() => undefined);
    if (now.size !== copied || now.mtimeMs !== before.mtimeMs || atPath?.ino !== before.ino) {
      return await fail(
        'it changed while it was being copied (is pi still writing to it?); kept it, nothing was deleted',
        false,
      );
    }
    try {
      await unlink(source);
    } catch (error) {
      return await fail(
        `cannot remove it from its folder: ${describeFsError(error)}; kept it, nothing was deleted`,
        false,
      );
    }
    // A writer that opened the path just before the unlink wrote into the inode we hold: keep those bytes too.
    try {
      const end = await copyRange(from, to, copied, hash);
      if (end > copied) await to.sync();
    } catch (error) {
      throw new StoreError(
        'write-failed',
        `moved to ${target}, but what was written to it during the move could not be added to the copy: ${describeFsError(error)}`,
      );
    }
  } finally {
    await to?.close().catch(() => undefined);
    await from.close();
  }
}

/**
 * A symlink moved across file systems: the same link (its text as written, relative or not) made
 * at `target`, exclusively, then the source link removed. The file it leads to is never touched.
 */
async function relinkThenUnlink(source: string, target: string): Promise<void> {
  try {
    await symlink(await readlink(source), target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MoveError(
      code === 'EEXIST' ? `${target} exists already` : `cannot create ${target}: ${describeFsError(error)}`,
      true,
    );
  }
  try {
    await unlink(source);
  } catch (error) {
    await unlink(target).catch(() => undefined);
    throw new MoveError(
      `cannot remove it from its folder: ${describeFsError(error)}; kept it, nothing was deleted`,
      false,
    );
  }
}

/**
 * Moves a regular file, or a symlink (the link itself), to `target`, which must not exist (and is
 * never replaced: a file that appears there meanwhile wins). Resolves how it went; on failure the
 * source is where it was and no target is left behind.
 */
export async function moveFileSafely(source: string, target: string): Promise<MoveHow> {
  // A hard link, then the unlink: unlike rename() it fails instead of replacing a target that
  // exists, and a line appended meanwhile lands in the same inode either way.
  try {
    await link(source, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new MoveError(`${target} exists already`, true);
    if (code === 'EXDEV') {
      // link(2) moves a symlink itself (Linux does not follow it); across devices it is made anew.
      if ((await lstat(source)).isSymbolicLink()) await relinkThenUnlink(source, target);
      else await copyThenUnlink(source, target);
      return 'copied';
    }
    // No hard links here (a file system without them, or protected_hardlinks): rename, after a check.
    if (
      await lstat(target).then(
        () => true,
        () => false,
      )
    )
      throw new MoveError(`${target} exists already`, true);
    await rename(source, target);
    return 'renamed';
  }
  try {
    await unlink(source);
  } catch (error) {
    await unlink(target).catch(() => undefined);
    throw error;
  }
  return 'renamed';
}
