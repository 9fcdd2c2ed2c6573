/**
 * The journal on disk: `$XDG_STATE_HOME/pi-sessions/journal.jsonl` (default
 * `~/.local/state/pi-sessions/`), folder 0700, file 0600, appended a whole line at a time with the
 * store's write primitives and trimmed to its newest half past JOURNAL_MAX_BYTES. Recording never
 * fails the change it records: it answers a one-line warning instead (the change is made; only
 * its undo and the picker's "not live" are lost).
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { chmod, type FileHandle, mkdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { readAt } from './append-scan.js';
import { describeFsError, StoreError } from './errors.js';
import { appendOrRollback, replaceAtomically } from './fs-write.js';
import {
  type FileState,
  JOURNAL_MAX_BYTES,
  type JournalRecord,
  journalLine,
  latestOwnStates,
  newestLines,
  parseJournal,
} from './journal.js';
import { openRegular } from './regular-file.js';

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

/** Rewrites the journal as its newest half (appending `lineBytes` more would pass the bound). */
async function trimIfFull(path: string, before: Stats, lineBytes: number): Promise<void> {
  if (before.size + lineBytes <= JOURNAL_MAX_BYTES) return;
  const bytes = await readFile(path);
  const unchanged = (now: Stats): boolean => now.ino === before.ino && now.size === bytes.length;
  await replaceAtomically(
    path,
    before,
    Buffer.from(newestLines(bytes.toString('utf8'), JOURNAL_MAX_BYTES / 2)),
    unchanged,
    'trim the journal',
  );
}

/** Opens the journal for appending (created 0600; a file readable by others is made private). */
async function openJournal(path: string): Promise<{ handle: FileHandle; stats: Stats }> {
  const opened = await openRegular(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
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
 * Appends one record. Returns undefined when it was recorded, else a one-line warning (never
 * throws: the change it records is already made).
 */
export async function recordChange(
  record: JournalRecord,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const dir = journalDir(env);
  const path = join(dir, 'journal.jsonl');
  const line = Buffer.from(journalLine({ ...record, id: record.id ?? randomBytes(4).toString('hex') }));
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // An existing folder keeps whatever mode it had: it holds paths and names, so it is made private.
    if (((await stat(dir)).mode & 0o077) !== 0) await chmod(dir, 0o700);
    let opened = await openJournal(path);
    if (opened.stats.size + line.length > JOURNAL_MAX_BYTES) {
      try {
        await trimIfFull(path, opened.stats, line.length);
      } finally {
        await opened.handle.close();
      }
      opened = await openJournal(path); // the trimmed file (a new inode)
    }
    const { handle, stats } = opened;
    try {
      await appendOrRollback(handle, path, line, stats.size);
      return undefined;
    } finally {
      await handle.close();
    }
  } catch (error) {
    const why = error instanceof StoreError ? error.message : `${path}: ${describeFsError(error)}`;
    return `the change was made but not recorded in the journal (${why}), so it cannot be undone with pi-sessions undo`;
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
