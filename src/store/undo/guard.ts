/**
 * What undo (and redo) may touch, checked against the disk before anything is done: a journal
 * record is a claim, never an order. Every answer is undefined (allowed) or one line saying why
 * not, and nothing here writes.
 *
 *   - A session file must be a `*.jsonl` regular file (not a symlink) whose folder, by real path,
 *     is one pi-sessions resolves: a project folder directly under pi's sessions root, or the
 *     custom sessions folder (`--session-dir`, PI_CODING_AGENT_SESSION_DIR, the sessionDir
 *     setting). A file to restore must have such a folder too (a missing project folder directly
 *     under the root, or the configured custom folder, may be created again), and nothing at its path.
 *   - A trashed file must be in the freedesktop home trash this process uses (XDG_DATA_HOME):
 *     `files/<name>` by real path, a regular file (or the symlink a linked session was listed
 *     through, leading to one), with its `.trashinfo` (when named) in `info/`
 *     under the same name; the trash's `files` and `info` must not be symbolic links. On a
 *     platform whose trash (the `trash` package: macOS, Windows, WSL) never says where a file
 *     went, a record naming trash paths did not come from us: it is refused.
 *   - The file must still be the one the record is about: its header's session id equals the
 *     record's `sessionId`; records of older versions, without one, are judged by what they have
 *     (the inode our write left for a file we appended to or forked; for a trashed file, the
 *     trash's own `.trashinfo` saying it came from the record's path), and refused when that is
 *     not there.
 */
import { lstat, readFile, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { describeFsError } from '../errors.js';
import type { FileState } from '../journal/records.js';
import type { Locations } from '../locations.js';
import { readSessionHead } from '../read/session-head.js';
import { homeTrashDir, symlinkedTrashFolder, USES_HOME_TRASH } from '../trash/freedesktop-trash.js';

export interface UndoPlaces {
  /** pi's sessions root as configured, and its real path (undefined: it does not exist). */
  rootPath: string;
  root: string | undefined;
  /** The custom sessions folder as configured, and its real path. */
  customPath: string | undefined;
  custom: string | undefined;
  /** The home trash's folders (real paths), or why it cannot be used; null: this platform's trash gives no paths. */
  trash: { dir: string; files: string | undefined; info: string | undefined; problem?: string } | null;
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

/** The folders undo may touch, resolved now (real paths, symlinks followed). */
export async function resolveUndoPlaces(
  locations: Locations,
  env: NodeJS.ProcessEnv = process.env,
): Promise<UndoPlaces> {
  const rootPath = resolve(locations.sessionsRoot);
  const customPath = locations.customDir ? resolve(locations.sessionDir) : undefined;
  let trash: UndoPlaces['trash'] = null;
  if (USES_HOME_TRASH) {
    const dir = homeTrashDir(env);
    const problem = await symlinkedTrashFolder(dir);
    trash = {
      dir,
      files: await realOrUndefined(join(dir, 'files')),
      info: await realOrUndefined(join(dir, 'info')),
      ...(problem ? { problem: `the trash ${problem}` } : {}),
    };
  }
  return {
    rootPath,
    root: await realOrUndefined(rootPath),
    customPath,
    custom: customPath === undefined ? undefined : await realOrUndefined(customPath),
    trash,
  };
}

/** Where pi-sessions looks for sessions, for messages. */
function foldersText(places: UndoPlaces): string {
  return places.customPath === undefined ? places.rootPath : `${places.rootPath} or ${places.customPath}`;
}

/** Whether `realFolder` (a real path) is a folder sessions live in. */
function isSessionFolder(places: UndoPlaces, realFolder: string): boolean {
  if (places.custom !== undefined && realFolder === places.custom) return true;
  return places.root !== undefined && realFolder !== places.root && dirname(realFolder) === places.root;
}

/** A path as a journal may name it: absolute, normalised, a `*.jsonl` name that is not hidden. */
function plainSessionPath(path: string): string | undefined {
  if (!isAbsolute(path) || resolve(path) !== path || path.includes('\0')) return 'not a plain absolute path';
  const name = basename(path);
  if (!name.endsWith('.jsonl') || name.startsWith('.')) return 'not a session file name (*.jsonl)';
  return undefined;
}

/** Why the session file at `path` is not one undo may change (undefined: it may). */
export async function sessionFileProblem(places: UndoPlaces, path: string): Promise<string | undefined> {
  const plain = plainSessionPath(path);
  if (plain) return `${path} is ${plain}`;
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? `${path} is not there any more`
      : `${path} cannot be read (${describeFsError(error)})`;
  }
  if (stats.isSymbolicLink()) return `${path} is a symbolic link (undo only changes session files themselves)`;
  if (!stats.isFile()) return `${path} is not a regular file`;
  const folder = await realOrUndefined(dirname(path));
  if (folder === undefined || !isSessionFolder(places, folder))
    return `${path} is outside the sessions folders (${foldersText(places)})`;
  return undefined;
}

/** Why a file cannot be put back at `path` (undefined: it can; its folder exists or may be created). */
export async function restoreTargetProblem(places: UndoPlaces, path: string): Promise<string | undefined> {
  const plain = plainSessionPath(path);
  if (plain) return `${path} is ${plain}`;
  if (
    await lstat(path).then(
      () => true,
      () => false,
    )
  )
    return `a file is at ${path} again`;
  const folder = dirname(path);
  const real = await realOrUndefined(folder);
  if (real !== undefined) {
    if (!isSessionFolder(places, real)) return `${path} is outside the sessions folders (${foldersText(places)})`;
    return undefined;
  }
  // Its folder is gone: only a project folder right under the root, or the configured custom folder, is made again.
  if (folder === places.customPath) return undefined;
  const parent = await realOrUndefined(dirname(folder));
  if (parent !== undefined && parent === places.root) return undefined;
  return `${path} is outside the sessions folders (${foldersText(places)})`;
}

/** `%xx` escapes of a `.trashinfo` Path as UTF-8 (what the specification and every trash tool write). */
function percentDecoded(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '%' ? text.slice(i + 1, i + 3) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The original path a `.trashinfo` names, or undefined when it is missing or says none. */
async function trashInfoPath(infoPath: string): Promise<string | undefined> {
  try {
    const stats = await lstat(infoPath);
    if (!stats.isFile() || stats.size > 64 * 1024) return undefined;
    const match = /^Path=(.*)$/m.exec(await readFile(infoPath, 'utf8'));
    return match ? percentDecoded(match[1]!.trim()) : undefined;
  } catch {
    return undefined;
  }
}

export interface TrashedFile {
  trashedPath: string | null;
  infoPath: string | null;
  /** Where it was deleted from (and goes back to). */
  original: string;
  sessionId?: string;
  size?: number;
}

/** Why the trashed file cannot be taken out of the trash (undefined: it can). */
export async function trashedFileProblem(places: UndoPlaces, file: TrashedFile): Promise<string | undefined> {
  if (file.trashedPath === null) return 'the trash did not say where it went (restore it from the trash by hand)';
  const trash = places.trash;
  if (trash === null)
    return "this platform's trash does not say where files go, so a record naming a place in it was not written here: restore it from the trash by hand";
  if (trash.problem) return trash.problem;
  const { trashedPath, infoPath } = file;
  const name = basename(trashedPath);
  if (!isAbsolute(trashedPath) || resolve(trashedPath) !== trashedPath || name.startsWith('.'))
    return `${trashedPath} is not a plain path in the trash`;
  const folder = await realOrUndefined(dirname(trashedPath));
  if (folder === undefined || trash.files === undefined || folder !== trash.files) {
    // The trash's own folder missing (emptied whole) is bad luck; any other folder is not the trash.
    return folder === undefined && resolve(dirname(trashedPath)) === join(trash.dir, 'files')
      ? 'it is no longer in the trash: the trash was emptied'
      : `${trashedPath} is not in the trash pi-sessions uses (${trash.dir})`;
  }
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(trashedPath);
  } catch {
    return 'it is no longer in the trash: the trash was emptied, or it was restored by hand';
  }
  // A session listed through a symlink is deleted (or slimmed) by trashing the link alone, never
  // the file behind it: such a link comes back as the link it was (moved, never written through)
  // when, from the folder it goes back to (its text may be relative), it still leads to a regular
  // file; that file's header is checked below like any other.
  let readable = trashedPath;
  if (stats.isSymbolicLink()) {
    readable = await readlink(trashedPath).then(
      (text) => resolve(dirname(file.original), text),
      () => '',
    );
    const target = readable === '' ? undefined : await stat(readable).catch(() => undefined);
    if (!target?.isFile()) return `${trashedPath} in the trash is a symbolic link that leads to no session file`;
  } else if (!stats.isFile()) return `${trashedPath} in the trash is not a regular file`;
  let fromPath: string | undefined;
  if (infoPath !== null) {
    const infoFolder = await realOrUndefined(dirname(infoPath));
    // The trash's info folder gone (emptied by hand) leaves no record to check: judged without it.
    const infoGone = infoFolder === undefined && resolve(dirname(infoPath)) === join(trash.dir, 'info');
    const isOurs = infoFolder !== undefined && infoFolder === trash.info;
    if ((!isOurs && !infoGone) || basename(infoPath) !== `${name}.trashinfo`)
      return `${infoPath} is not the trash's record of ${trashedPath}`;
    fromPath = infoGone ? undefined : await trashInfoPath(infoPath);
    if (fromPath !== undefined && fromPath !== file.original)
      return `the trash says ${trashedPath} came from ${fromPath}, not from ${file.original}`;
  }
  const head = await readSessionHead(readable);
  if (head?.sessionId === undefined) return `${trashedPath} in the trash is not a pi session`;
  if (file.sessionId !== undefined) {
    if (head.sessionId !== file.sessionId)
      return `the file in the trash is another session (${head.sessionId}, not ${file.sessionId})`;
  } else if (fromPath === undefined)
    return "it was recorded by an older pi-sessions without the session's id, and the trash no longer says where the file came from: restore it from the trash by hand";
  if (file.size !== undefined && stats.size !== file.size)
    return `the file in the trash has changed since it was deleted (${stats.size} bytes, not ${file.size})`;
  return undefined;
}

/**
 * Why the file at `path` is not the session the record is about: its header's id must be
 * `sessionId`; without one (an older record), its inode must be the one our write left.
 */
export async function identityProblem(
  path: string,
  expected: { sessionId?: string | undefined; after?: FileState | undefined },
): Promise<string | undefined> {
  if (expected.sessionId !== undefined) {
    const head = await readSessionHead(path);
    if (head?.sessionId === expected.sessionId) return undefined;
    return head?.sessionId === undefined
      ? `${path} is not a pi session any more`
      : `${path} is another session now (${head.sessionId}, not ${expected.sessionId})`;
  }
  const now = await lstat(path).catch(() => undefined);
  if (expected.after !== undefined && now?.ino === expected.after.ino) return undefined;
  return `${path} has been replaced since (another file at that path), and the record, from an older pi-sessions, has no session id to tell`;
}
