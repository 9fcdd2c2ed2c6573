/**
 * The freedesktop.org home trash (`$XDG_DATA_HOME/Trash`, else `~/.local/share/Trash`), written
 * by us on Linux instead of by the `trash` package, whose Linux backend loses data in two ways
 * we cannot reach from outside it: across file systems it copies then deletes with no check
 * (lines pi appends meanwhile are lost), and it writes the `.trashinfo` before the move without
 * removing it when the move fails. The package stays for macOS, Windows and WSL.
 *
 * Per the specification: the `.trashinfo` is created first with O_EXCL (it reserves the name),
 * then the file is moved to `files/<name>`; here the move is `moveFileSafely` (rename, or copy,
 * verify, unlink across file systems), and any failure removes the `.trashinfo` again, so the
 * trash never lists what it does not hold. Every file goes to the home trash (the specification
 * allows that for other file systems too; it costs a copy there instead of a rename).
 */
import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, unlink } from 'node:fs/promises';
import { homedir, release } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { describeFsError, StoreError } from '../errors.js';
import { MoveError, type MoveHow, moveFileSafely } from './safe-move.js';

/**
 * Whether this platform's deletes go to the freedesktop home trash (written here, so the paths it
 * gives are known): Linux, but not WSL, whose users expect the Windows recycle bin (the `trash`
 * package's, which says nothing of where a file went).
 */
export const USES_HOME_TRASH = process.platform === 'linux' && !/microsoft/i.test(release());

export function homeTrashDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env['XDG_DATA_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share'), 'Trash');
}

export interface HomeTrashed {
  /** Where the file is now, and its `.trashinfo`. */
  path: string;
  info: string;
  how: MoveHow;
}

/**
 * A trash failure: `targetSide` when the trash could not take the file, else the source refused
 * to go. `sourceGone` only when the file did reach the trash but not whole (see safe-move.ts).
 */
export class TrashError extends Error {
  constructor(
    message: string,
    readonly targetSide: boolean,
    readonly sourceGone = false,
  ) {
    super(message);
  }
}

/** Local time as the specification wants it: YYYY-MM-DDThh:mm:ss. */
function deletionDate(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Creates `info/<name>.trashinfo` exclusively under the first free name; returns the name. */
async function reserveName(infoDir: string, filesDir: string, original: string, contents: string): Promise<string> {
  const base = basename(original);
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}.${n}`;
    // A file left in files/ without its info (another tool crashed) must not be overwritten either.
    if (
      await lstat(join(filesDir, name)).then(
        () => true,
        () => false,
      )
    )
      continue;
    let handle: FileHandle;
    try {
      handle = await open(
        join(infoDir, `${name}.trashinfo`),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
        0o600,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    try {
      await handle.writeFile(contents);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(join(infoDir, `${name}.trashinfo`)).catch(() => undefined);
      throw error;
    }
    await handle.close();
    return name;
  }
}

/**
 * Why the trash's `files` or `info` folder cannot be trusted (it is a symlink, so what goes in or
 * comes out would be somewhere else), or undefined. `Trash` itself may be a link (a trash moved to
 * another disk): everything is compared by real path.
 */
export async function symlinkedTrashFolder(trash: string): Promise<string | undefined> {
  for (const folder of [join(trash, 'files'), join(trash, 'info')]) {
    const stats = await lstat(folder).catch(() => undefined);
    if (stats?.isSymbolicLink())
      return `its folder ${folder} is a symbolic link (pi-sessions does not use a trash that points elsewhere)`;
  }
  return undefined;
}

/** Moves `path` (absolute, a regular file) to the home trash. Throws a TrashError with nothing changed. */
export async function moveToHomeTrash(path: string, env: NodeJS.ProcessEnv = process.env): Promise<HomeTrashed> {
  const trash = homeTrashDir(env);
  const filesDir = join(trash, 'files');
  const infoDir = join(trash, 'info');
  let name: string;
  try {
    await mkdir(filesDir, { recursive: true, mode: 0o700 });
    await mkdir(infoDir, { recursive: true, mode: 0o700 });
    const linked = await symlinkedTrashFolder(trash);
    if (linked) throw new TrashError(`the trash cannot take it: ${linked}; nothing was deleted`, true);
    name = await reserveName(
      infoDir,
      filesDir,
      path,
      `[Trash Info]\nPath=${encodeURI(path)}\nDeletionDate=${deletionDate(new Date())}\n`,
    );
  } catch (error) {
    if (error instanceof TrashError) throw error;
    throw new TrashError(`the trash (${trash}) cannot take it: ${describeFsError(error)}`, true);
  }
  const info = join(infoDir, `${name}.trashinfo`);
  const target = join(filesDir, name);
  try {
    const how = await moveFileSafely(path, target);
    return { path: target, info, how };
  } catch (error) {
    if (error instanceof MoveError) {
      await unlink(info).catch(() => undefined);
      throw new TrashError(error.message, error.targetSide);
    }
    // The file is in the trash but the bytes written during the move are not: keep its info.
    if (error instanceof StoreError) throw new TrashError(error.message, true, true);
    await unlink(info).catch(() => undefined);
    // rename() failing for another reason than EXDEV: the source's folder refused (read-only, permissions).
    throw new TrashError(`cannot move it out of its folder: ${describeFsError(error)}; nothing was deleted`, false);
  }
}
