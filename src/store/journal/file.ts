/**
 * The journal on disk: `$XDG_STATE_HOME/pi-sessions/journal.jsonl` (default
 * `~/.local/state/pi-sessions/`), folder 0700, file 0600. Every update runs under the journal's
 * lock (store/journal/lock.ts): a record is appended a whole line at a time with the store's write
 * primitives, after a torn last line (a crash mid-append) is terminated so the new record is never
 * glued onto it, and the journal is trimmed in bounded memory (store/journal/trim.ts) once it would pass
 * JOURNAL_MAX_BYTES. Recording never fails the change it records: it answers a one-line warning
 * instead (the change is made; only its undo and the picker's "not live" are lost).
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { chmod, type FileHandle, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describeFsError, StoreError } from '../errors.js';
import { readAt } from '../read/read-at.js';
import { openRegular } from '../read/regular-file.js';
import { appendOrRollback } from '../write/fs-write.js';
import { latestOwnStates } from './history.js';
import { withJournalLock } from './lock.js';
import {
  type FileState,
  JOURNAL_MAX_BYTES,
  type JournalRecord,
  journalLine,
  parseJournal,
  RECORD_MAX_BYTES,
} from './records.js';
import { trimJournal } from './trim.js';

/** `$XDG_STATE_HOME/pi-sessions`, else `~/.local/state/pi-sessions` (a relative XDG value is ignored, per the spec). */
export function journalDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env['XDG_STATE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'state'), 'pi-sessions');
}

export function journalPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(journalDir(env), 'journal.jsonl');
}

/** What a file is now, as the journal records it. */
export function fileStateOf(stats: Stats): FileState {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

/** A new record id (8 hex). */
export function newChangeId(): string {
  return randomBytes(4).toString('hex');
}

/** Creates the journal's folder (0700; an existing one is made private: it holds paths and names). */
async function ensureJournalDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (((await stat(dir)).mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** Opens the journal for reading and appending (created 0600; a file readable by others is made private). */
async function openJournal(path: string): Promise<{ handle: FileHandle; stats: Stats }> {
  const opened = await openRegular(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
  if ((opened.stats.mode & 0o077) !== 0) {
    try {
      await opened.handle.chmod(0o600);
    } catch (error) {
      await opened.handle.close();
      throw error;
    }
  }
  return opened;
}

/**
 * Runs `fn` holding the journal's lock (the folder is created first). Undo and redo use it to
 * claim a record and append theirs in one step; recordChange takes it on its own.
 */
export async function withJournal<T>(env: NodeJS.ProcessEnv, fn: () => Promise<T>): Promise<T> {
  const dir = journalDir(env);
  try {
    await ensureJournalDir(dir);
  } catch (error) {
    throw new StoreError('write-failed', `the journal's folder ${dir} cannot be used: ${describeFsError(error)}`);
  }
  return withJournalLock(dir, fn);
}

/** Appends `line` under the lock: torn tail terminated first, trimmed first when it would pass the bound. */
async function appendLine(path: string, line: Buffer): Promise<void> {
  let opened = await openJournal(path);
  try {
    if (opened.stats.size + line.length > JOURNAL_MAX_BYTES) {
      await trimJournal(path, opened.handle, opened.stats);
      await opened.handle.close();
      opened = await openJournal(path); // the trimmed file (a new inode)
    }
    const { handle, stats } = opened;
    // A crash mid-append leaves a last line without its `\n`: terminate it (it stays unreadable,
    // and is skipped) so our record starts on a line of its own, as the session writer does.
    const torn = stats.size > 0 && (await readAt(handle, stats.size - 1, 1))[0] !== 0x0a;
    await appendOrRollback(handle, path, torn ? Buffer.concat([Buffer.from('\n'), line]) : line, stats.size);
  } finally {
    await opened.handle.close();
  }
}

export interface RecordOutcome {
  /** The record's id (what undo and the screens name it by). */
  id: string;
  /** Set when it could not be recorded (one line): the change is made but cannot be undone. */
  warning?: string;
}

/** Appends one record under the journal's lock; returns its id. Throws a one-line StoreError when it cannot. */
export async function appendRecord(record: JournalRecord, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const id = record.id ?? newChangeId();
  const path = journalPath(env);
  const line = Buffer.from(journalLine({ ...record, id }));
  if (line.length > RECORD_MAX_BYTES) throw new StoreError('write-failed', `${path}: the record is too large`);
  try {
    await withJournal(env, () => appendLine(path, line));
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError('write-failed', `${path}: ${describeFsError(error)}`);
  }
  return id;
}

/** Appends one record under the journal's lock. Never throws: the change it records is already made. */
export async function recordChange(
  record: JournalRecord,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RecordOutcome> {
  const id = record.id ?? newChangeId();
  const path = journalPath(env);
  try {
    await appendRecord({ ...record, id }, env);
    return { id };
  } catch (error) {
    const why = error instanceof StoreError ? error.message : `${path}: ${describeFsError(error)}`;
    return {
      id,
      warning: `the change was made but not recorded in the journal (${why}), so it cannot be undone with pi-sessions undo`,
    };
  }
}

/**
 * Past this size the journal was not written by us (we trim it at JOURNAL_MAX_BYTES): only its
 * newest JOURNAL_MAX_BYTES are read, so a runaway file never stalls a screen.
 */
export const JOURNAL_READ_MAX_BYTES = 4 * JOURNAL_MAX_BYTES;

export interface JournalRead {
  /** The readable records, oldest first. */
  records: JournalRecord[];
  /** Why some or all of the journal could not be read (one line); absent when there is no journal yet. */
  warning?: string;
  /** Only the journal's newest part was read (it is larger than we let it grow). */
  partial?: boolean;
}

/** The journal's records, and a warning when it cannot be read (or only in part): the screens and the CLI show it. */
export async function readJournalChecked(env: NodeJS.ProcessEnv = process.env): Promise<JournalRead> {
  const path = journalPath(env);
  let opened: { handle: FileHandle; stats: Stats };
  try {
    opened = await openRegular(path, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [] };
    const why = error instanceof StoreError ? error.message : describeFsError(error);
    return { records: [], warning: `the journal ${path} cannot be read (${why}): nothing can be undone` };
  }
  const { handle, stats } = opened;
  try {
    if (stats.size <= JOURNAL_READ_MAX_BYTES)
      return { records: parseJournal((await readAt(handle, 0, stats.size)).toString('utf8')) };
    const tail = (await readAt(handle, stats.size - JOURNAL_MAX_BYTES, JOURNAL_MAX_BYTES)).toString('utf8');
    // The first line of the tail is cut: parseJournal would skip it anyway, it is dropped to be plain.
    const records = parseJournal(tail.slice(tail.indexOf('\n') + 1));
    return {
      records,
      partial: true,
      warning: `the journal ${path} is ${Math.round(stats.size / 1024 / 1024)} MiB, larger than pi-sessions lets it grow: only its newest changes were read`,
    };
  } catch (error) {
    return {
      records: [],
      warning: `the journal ${path} cannot be read (${describeFsError(error)}): nothing can be undone`,
    };
  } finally {
    await handle.close();
  }
}

/** Every readable record, oldest first (none when there is no journal yet or it cannot be read). */
export async function readJournal(env: NodeJS.ProcessEnv = process.env): Promise<JournalRecord[]> {
  return (await readJournalChecked(env)).records;
}

/** Per path, the state our latest journalled write left it in (what the picker needs to tell our writes from pi's). */
export async function loadOwnStates(env: NodeJS.ProcessEnv = process.env): Promise<Map<string, FileState>> {
  return latestOwnStates(await readJournal(env));
}
