/**
 * Slimming, "keep only the active branch": the active path is forked into a new file (fork.ts,
 * pi's createBranchedSession), then the original goes to the trash; never a rewrite in place. Both
 * steps are one journal record (`slim`), so one undo puts the original back and trashes the copy.
 * A failure at any step leaves the original where it was and no copy behind.
 *
 * A session listed through a symlink (a file kept elsewhere, linked into the store, or a link to
 * another session of the store) is slimmed as pi lists it: the copy goes beside the link, in the
 * store where pi finds it, and the link goes to the trash. The file behind the link is the user's
 * own: it is never moved, so nothing outside the store changes, and undo puts the same link back.
 */
import { constants } from 'node:fs';
import { lstat, stat, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describeFsError, StoreError } from '../errors.js';
import { fileStateOf, recordChange } from '../journal/file.js';
import { isAsWeLeftIt, type JournalNote, PATH_TEXT_MAX } from '../journal/records.js';
import { openSession, realSessionPath } from '../read/session-file.js';
import { type TrashFunction, trashSessions } from '../trash/trash.js';
import { forkSession, pathTo, scanWithLinks } from './fork.js';

/** What slimming a session would do, measured without writing anything (for the confirmation). */
export interface SlimPlan {
  /** The session's path as listed (absolute; a symlink stays the link). */
  path: string;
  /** When `path` is a symlink: the file it leads to, which slimming leaves as it is. */
  linkTarget?: string;
  sizeBefore: number;
  /** Entries in the file (after the header) and on the active branch. */
  entries: number;
  branchEntries: number;
  /** The branch's lines in bytes, plus the header: the copy's size to within its rechained ids and re-created labels. */
  estimatedAfter: number;
  /** The source's own `parentSession` (the copy keeps it), null when none. */
  parentSession: string | null;
  /** The source's session id (its header's). */
  sessionId: string;
}

/** Whether `path` itself (not a folder above it) is a symbolic link. */
async function isSymlink(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isSymbolicLink() === true;
}

/** Measures the active branch of `path` (a v1/v2 file as migrated in memory, like a fork reads it). */
export async function planSlim(path: string): Promise<SlimPlan> {
  const listed = resolve(path);
  const real = await realSessionPath(listed);
  const link = await isSymlink(listed);
  const { handle, stats } = await openSession(real, constants.O_RDONLY);
  try {
    const { point } = await scanWithLinks(handle, stats, real);
    const links = point.links!;
    if (point.leafId === null)
      throw new StoreError('no-entry', `${real}: nothing to slim (the session has no entries)`);
    // A parent cycle: the fork cuts it where the tree view does; the estimate counts every entry.
    const branch = pathTo(links, point.leafId) ?? [...links.keys()];
    let bytes = Buffer.byteLength(`${JSON.stringify(point.header)}\n`);
    for (const id of branch) bytes += links.get(id)!.end - links.get(id)!.start;
    const parent = point.header['parentSession'];
    return {
      // A link is what pi lists, so it is what slimming replaces; anything else by its real path.
      path: link ? listed : real,
      ...(link ? { linkTarget: real } : {}),
      sizeBefore: stats.size,
      entries: links.size,
      branchEntries: branch.length,
      estimatedAfter: bytes,
      parentSession: typeof parent === 'string' ? parent : null,
      sessionId: point.header['id'] as string,
    };
  } finally {
    await handle.close();
  }
}

export interface SlimResult {
  /** The original (now in the trash; a symlink: the link) and the slim copy that replaces it. */
  path: string;
  slimPath: string;
  /** When the original was a symlink: the file it led to, left where it is. */
  linkTarget?: string;
  sizeBefore: number;
  sizeAfter: number;
  entriesBefore: number;
  entriesAfter: number;
  /** The journal record's id. */
  changeId?: string;
  /** Set when the slim could not be recorded in the journal (it was made all the same, but cannot be undone by pi-sessions). */
  journalWarning?: string;
}

/** Removes the copy a failed slim made; the message says what is left when that fails too. */
async function dropCopy(copy: string, why: string): Promise<never> {
  try {
    await unlink(copy);
  } catch (error) {
    throw new StoreError(
      'write-failed',
      `${why}; the original is untouched, but its slim copy ${copy} could not be removed (${describeFsError(error)})`,
    );
  }
  throw new StoreError('write-failed', `${why}; nothing changed`);
}

/**
 * Keeps only the active branch of `path`: the copy is written next to it (a new file, the source's
 * mode and parent), then the original is moved to the trash (a symlink: the link, not its file).
 * Refused when every entry is already on the active branch. `trash` replaces the system trash (tests).
 */
export async function slimSession(
  path: string,
  options: { trash?: TrashFunction; note?: JournalNote } = {},
): Promise<SlimResult> {
  const plan = await planSlim(path);
  // The listed path: the copy is written beside it and it goes to the trash (a link: the link).
  const real = plan.path;
  if (plan.branchEntries >= plan.entries)
    throw new StoreError('no-entry', `${real}: nothing to slim: every entry is on the active branch`);
  const before = await stat(real);
  const fork = await forkSession(real, undefined, {
    position: 'at',
    journal: false,
    parentSession: plan.parentSession,
  });
  // pi may have appended while the copy was written: its new entries would be in the trash only.
  const now = await stat(real).catch(() => undefined);
  if (!now || !isAsWeLeftIt(fileStateOf(before), now))
    await dropCopy(fork.path, `cannot slim ${real}: it changed while it was being copied (pi is writing to it?)`);
  const outcome = await trashSessions([real], { journal: false, ...(options.trash ? { trash: options.trash } : {}) });
  const failure = outcome.failed[0];
  if (failure) {
    // The original is no longer at its path although the trash failed: the copy may be all that is left of it.
    if (failure.kept === false)
      throw new StoreError('write-failed', `${real}: ${failure.error}; its slim copy is kept at ${fork.path}`);
    await dropCopy(fork.path, `cannot slim ${real}: ${failure.error}`);
  }
  const trashed = outcome.trashed[0]!;
  const after = await stat(fork.path);
  const result: SlimResult = {
    path: real,
    slimPath: fork.path,
    sizeBefore: before.size,
    sizeAfter: after.size,
    entriesBefore: plan.entries,
    entriesAfter: fork.entries,
    ...(plan.linkTarget ? { linkTarget: plan.linkTarget } : {}),
  };
  const recorded = await recordChange({
    kind: 'slim',
    path: fork.path,
    time: new Date().toISOString(),
    after: fileStateOf(after),
    source: real,
    trashedPath: trashed.trashedPath ?? null,
    infoPath: trashed.infoPath ?? null,
    ...(trashed.trash ? { trash: trashed.trash } : {}),
    sizeBefore: before.size,
    sessionId: fork.id,
    sourceSessionId: plan.sessionId,
    ...(fork.title !== undefined ? { title: fork.title } : {}),
    ...(fork.cwd.length <= PATH_TEXT_MAX ? { cwd: fork.cwd } : {}),
    ...options.note,
  });
  result.changeId = recorded.id;
  if (recorded.warning) result.journalWarning = recorded.warning;
  return result;
}
