/**
 * Merging a session with its conflict copies in the store, the way slim and redact change files:
 * never a rewrite in place. The merged file (merge-plan.ts) is written beside the original as a
 * temp file, every file merged (the original and its copies) goes to the trash, then the merged
 * file takes the original's name. One `merge` journal record, so one undo puts every file back
 * byte for byte and the merged one in the trash. A failure at any step leaves the files as they
 * were and no temp file behind.
 */

import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { link, lstat, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { firstPrompt } from '../entry.js';
import { describeFsError, StoreError } from '../errors.js';
import { fileStateOf, recordChange } from '../journal/file.js';
import {
  isAsWeLeftIt,
  type JournalNote,
  type MergedSource,
  PATH_TEXT_MAX,
  preview,
  RECORD_MAX_BYTES,
} from '../journal/records.js';
import { readSessionFromBuffer } from '../read/read.js';
import { openSession, readWhole } from '../read/session-file.js';
import { sessionTitle } from '../summary/title.js';
import { restoreSessions, type TrashFunction, trashSessions } from '../trash/trash.js';
import { buildTree } from '../tree.js';
import { createWhole, removeStaleTemps, tempPathFor } from '../write/fs-write.js';
import type { ConflictCopy, ConflictGroup } from './conflict-names.js';
import { type MergeInput, planMerge } from './merge-plan.js';

/** One file of a merge, as the confirmation shows it. */
export interface MergeFile {
  path: string;
  /** Absent for the original. */
  copy?: ConflictCopy;
  size: number;
  mtimeMs: number;
  entries: number;
  /** Entries no other file of the group holds (what it adds). */
  own: number;
}

export interface ConflictMergePlan {
  original: string;
  sessionId: string;
  /** The original first, then its copies. */
  files: MergeFile[];
  /** Entries in the merged file, and the file whose leaf becomes its leaf (the one modified last). */
  entries: number;
  leafFrom: string;
  sizeBefore: number;
  sizeAfter: number;
}

/** At most this many files in one merge: the journal record names each of them three times. */
export const MERGE_MAX_FILES = 16;

/** A file of a group read whole for a merge, with its stats as read. */
export interface ReadFile {
  input: MergeInput;
  stats: Stats;
}

async function readFile(path: string): Promise<ReadFile> {
  // The files themselves: a link would put the merged file where the link is, and trash only the link.
  const link = await lstat(path).catch((error: unknown) => {
    throw new StoreError('not-found', `${path}: ${describeFsError(error)}`);
  });
  if (link.isSymbolicLink())
    throw new StoreError('bad-input', `cannot merge ${path}: it is a symbolic link (merge the file it leads to)`);
  const { handle, stats } = await openSession(path, constants.O_RDONLY);
  try {
    const bytes = await readWhole(handle, path, stats.size);
    const session = readSessionFromBuffer(path, bytes, stats.mtimeMs);
    if (!session.ok) throw new StoreError('not-a-session', `cannot merge ${path}: ${session.message}`);
    return { input: { path, bytes, session, mtimeMs: stats.mtimeMs }, stats };
  } finally {
    await handle.close();
  }
}

/** The files of `group` read whole, the original first; refused (a one-line StoreError) as a merge would refuse them. */
export async function readGroupFiles(group: ConflictGroup): Promise<ReadFile[]> {
  const paths = [group.original, ...group.copies.map((c) => c.path)].map((p) => resolve(p));
  if (paths.length > MERGE_MAX_FILES)
    throw new StoreError(
      'bad-input',
      `cannot merge ${paths.length} files at once (at most ${MERGE_MAX_FILES}); nothing was merged`,
    );
  const pathBytes = paths.reduce((n, p) => n + Buffer.byteLength(p), 0);
  if (pathBytes * 3 > RECORD_MAX_BYTES / 2)
    throw new StoreError('bad-input', 'cannot merge: the paths are too long to record for undo; nothing was merged');
  const files: ReadFile[] = [];
  for (const path of paths) files.push(await readFile(path));
  const id = files[0]!.input.session.header.id;
  for (const file of files.slice(1))
    if (file.input.session.header.id !== id)
      throw new StoreError(
        'bad-input',
        `cannot merge ${file.input.path}: it is another session (${file.input.session.header.id}, not ${id}); nothing was merged`,
      );
  return files;
}

async function readGroup(group: ConflictGroup): Promise<{ files: ReadFile[]; plan: ReturnType<typeof planMerge> }> {
  const files = await readGroupFiles(group);
  return { files, plan: planMerge(files.map((f) => f.input)) };
}

/** What merging `group` would do, measured without writing (refused as the merge would be). */
export async function planConflictMerge(group: ConflictGroup): Promise<ConflictMergePlan> {
  const { files, plan } = await readGroup(group);
  return describePlan(group, files, plan);
}

function describePlan(group: ConflictGroup, files: ReadFile[], plan: ReturnType<typeof planMerge>): ConflictMergePlan {
  const copies = new Map(group.copies.map((c) => [resolve(c.path), c]));
  return {
    original: files[0]!.input.path,
    sessionId: files[0]!.input.session.header.id,
    files: files.map(({ input, stats }) => {
      const copy = copies.get(input.path);
      return {
        path: input.path,
        ...(copy ? { copy } : {}),
        size: stats.size,
        mtimeMs: stats.mtimeMs,
        entries: input.session.entries.length,
        own: plan.own.get(input.path) ?? 0,
      };
    }),
    entries: plan.entries,
    leafFrom: plan.leafFrom,
    sizeBefore: files.reduce((n, f) => n + f.stats.size, 0),
    sizeAfter: plan.bytes.length,
  };
}

/**
 * Gives the temp file a lasting name beside the original, `<name>.merged-<hex>.jsonl` (never over
 * a file: a hard link, then the temp name removed); its temp path when even that fails.
 */
async function keepMerged(temp: string, original: string): Promise<string> {
  const target = join(
    dirname(original),
    `${basename(original, '.jsonl')}.merged-${randomBytes(3).toString('hex')}.jsonl`,
  );
  try {
    await link(temp, target);
    await unlink(temp).catch(() => undefined);
    return target;
  } catch {
    return temp;
  }
}

export interface ConflictMergeResult extends ConflictMergePlan {
  changeId?: string;
  journalWarning?: string;
}

/**
 * Merges `group` into one file at the original's path (see the header); `trash` replaces the
 * system trash (tests). Refused, with nothing written, when a copy disagrees about an entry.
 */
export async function mergeConflictGroup(
  group: ConflictGroup,
  options: { trash?: TrashFunction; note?: JournalNote } = {},
): Promise<ConflictMergeResult> {
  const { files, plan } = await readGroup(group);
  const planned = describePlan(group, files, plan);
  const original = files[0]!.input.path;
  const paths = files.map((f) => f.input.path);
  await removeStaleTemps(dirname(original));
  const temp = tempPathFor(original);
  await createWhole(temp, [plan.bytes], files[0]!.stats);
  const dropTemp = async (why: string): Promise<never> => {
    await unlink(temp).catch(() => undefined);
    throw new StoreError('write-failed', `${why}; nothing changed`);
  };
  // pi (or the sync tool) may have written meanwhile: what it wrote would be in the trash only.
  for (const { input, stats } of files) {
    const now = await stat(input.path).catch(() => undefined);
    if (!now || !isAsWeLeftIt(fileStateOf(stats), now))
      await dropTemp(
        `cannot merge: ${input.path} changed while the merge was written (pi or a sync is writing to it?)`,
      );
  }
  const outcome = await trashSessions(paths, { journal: false, ...(options.trash ? { trash: options.trash } : {}) });
  const failure = outcome.failed[0];
  if (failure) {
    const back = await restoreSessions(outcome.trashed);
    if (failure.kept === false || back.failed.length > 0) {
      // A file may now be only in the merged one: keep it under a name no clean-up of temp files removes.
      const kept = await keepMerged(temp, original);
      throw new StoreError(
        'write-failed',
        `cannot merge: ${failure.path}: ${failure.error}; the merged file is kept at ${kept}${back.failed.length > 0 ? ` and ${back.failed.map((f) => f.path).join(', ')} stayed in the trash` : ''}`,
      );
    }
    await dropTemp(`cannot merge: ${failure.path}: ${failure.error}`);
  }
  try {
    await rename(temp, original);
  } catch (error) {
    const back = await restoreSessions(outcome.trashed);
    await unlink(temp).catch(() => undefined);
    throw new StoreError(
      'write-failed',
      back.failed.length === 0
        ? `cannot merge into ${original}: ${describeFsError(error)}; nothing changed`
        : `cannot merge into ${original}: ${describeFsError(error)}; ${back.failed.map((f) => f.path).join(', ')} stayed in the trash`,
    );
  }
  const after = await stat(original);
  const byPath = new Map(outcome.trashed.map((t) => [t.path, t]));
  const sources: MergedSource[] = files.map(({ input, stats }) => {
    const trashed = byPath.get(input.path);
    return {
      path: input.path,
      trashedPath: trashed?.trashedPath ?? null,
      infoPath: trashed?.infoPath ?? null,
      ...(trashed?.trash ? { trash: trashed.trash } : {}),
      size: stats.size,
    };
  });
  const merged = readSessionFromBuffer(original, plan.bytes);
  const title = merged.ok
    ? sessionTitle({ name: buildTree(merged).sessionName, firstMessage: firstPrompt(merged.entries) })
    : undefined;
  const cwd = files[0]!.input.session.header.cwd;
  const recorded = await recordChange({
    kind: 'merge',
    path: original,
    time: new Date().toISOString(),
    after: fileStateOf(after),
    sources,
    sizeBefore: planned.sizeBefore,
    sessionId: planned.sessionId,
    ...(title !== undefined && title !== '' ? { title: preview(title) } : {}),
    ...(typeof cwd === 'string' && cwd.length <= PATH_TEXT_MAX ? { cwd } : {}),
    ...options.note,
  });
  return {
    ...planned,
    sizeAfter: after.size,
    changeId: recorded.id,
    ...(recorded.warning ? { journalWarning: recorded.warning } : {}),
  };
}
