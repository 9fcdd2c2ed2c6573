/**
 * The journal of every change pi-sessions makes, the pure part: what one record
 * holds, how it is written and read back, and what it tells the picker. One JSON line per change,
 * with what an undo needs to reverse it the append-only way pi would (the previous name, label or
 * leaf; the fork's file; where the trash put a deleted file) and the state our write left the file
 * in, so a later pi write can be told apart from ours. The I/O is in journal-file.ts.
 */
import { resolve as resolvePath } from 'node:path';
import { isObject } from './entry.js';

export const JOURNAL_FORMAT = 1;

/** What our write left on disk (after the fsync): a later write by anyone changes size or mtime. */
export interface FileState {
  size: number;
  mtimeMs: number;
  ino: number;
}

interface RecordBase {
  /** The real path changed (symlinks followed); for a fork, the new file. */
  path: string;
  /** ISO time of the change. */
  time: string;
  /** Given when recorded (8 hex): what an undo names. */
  id?: string;
  /** Set on the change an undo made: the id of the change it undid (it is not itself offered for undo). */
  undoes?: string;
  /** The path as it was given, when a symlink made it differ from `path` (the picker lists that one). */
  alias?: string;
  /** Shared by the records of one delete of several sessions: undone together. */
  batch?: string;
}

/** What a write passes on to its journal record. */
export interface JournalNote {
  undoes: string;
}

export type JournalRecord =
  | (RecordBase & { kind: 'rename'; after: FileState; entryId: string; previousName: string | null })
  | (RecordBase & { kind: 'label'; after: FileState; entryId: string; targetId: string; previousLabel: string | null })
  | (RecordBase & { kind: 'branch'; after: FileState; entryId: string; previousLeafId: string | null })
  | (RecordBase & { kind: 'fork'; after: FileState; source: string })
  | (RecordBase & { kind: 'delete'; how: 'trash' | 'deleted'; trashedPath: string | null; infoPath: string | null })
  | (RecordBase & { kind: 'restore'; after: FileState })
  /**
   * "Keep only the active branch": `path` is the slim copy (a fork of the active path), `source`
   * the original, moved to the trash (`trashedPath`, `infoPath`: where). Undone in one go: the
   * original restored, the copy trashed.
   */
  | (RecordBase & {
      kind: 'slim';
      after: FileState;
      source: string;
      trashedPath: string | null;
      infoPath: string | null;
      sizeBefore: number;
    });

export type JournalKind = JournalRecord['kind'];

/** The journal is trimmed to its newest half once it would grow past this. */
export const JOURNAL_MAX_BYTES = 1024 * 1024;

/** One record as its journal line (`\n`-terminated; JSON escapes any newline inside a value). */
export function journalLine(record: JournalRecord): string {
  return `${JSON.stringify({ v: JOURNAL_FORMAT, ...record })}\n`;
}

function isFileState(value: unknown): value is FileState {
  return (
    isObject(value) &&
    typeof value['size'] === 'number' &&
    typeof value['mtimeMs'] === 'number' &&
    typeof value['ino'] === 'number'
  );
}

const KINDS: readonly string[] = ['rename', 'label', 'branch', 'fork', 'delete', 'restore', 'slim'];

/** The records of a journal's text, oldest first; lines that are not ours (torn, foreign, newer format) are skipped. */
export function parseJournal(text: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (
      !isObject(value) ||
      value['v'] !== JOURNAL_FORMAT ||
      typeof value['path'] !== 'string' ||
      typeof value['time'] !== 'string'
    )
      continue;
    if (!KINDS.includes(value['kind'] as string)) continue;
    if (value['kind'] !== 'delete' && !isFileState(value['after'])) continue;
    const { v: _format, ...record } = value;
    records.push(record as unknown as JournalRecord);
  }
  return records;
}

/**
 * Per path, the state our latest journalled write left it in. A delete removes the path (a file
 * there later is not ours); a fork's new file is ours until someone writes to it.
 */
export function latestOwnStates(records: readonly JournalRecord[]): Map<string, FileState> {
  const states = new Map<string, FileState>();
  for (const record of records) {
    for (const path of record.alias === undefined ? [record.path] : [record.path, record.alias]) {
      if (record.kind === 'delete') states.delete(path);
      else states.set(path, record.after);
    }
    if (record.kind === 'slim') states.delete(record.source); // in the trash: a file there later is not ours
  }
  return states;
}

/** The changes an undo can still take back, newest first: not made by an undo, not undone yet. */
export function undoableChanges(records: readonly JournalRecord[]): JournalRecord[] {
  const undone = new Set(records.flatMap((r) => (r.undoes === undefined ? [] : [r.undoes])));
  return records
    .filter((r) => r.undoes === undefined && r.kind !== 'restore' && r.id !== undefined && !undone.has(r.id))
    .reverse();
}

/** `{ alias }` when `given` (resolved) is not the real path written, else nothing. */
export function aliasOf(given: string, real: string): { alias?: string } {
  const absolute = resolvePath(given);
  return absolute === real ? {} : { alias: absolute };
}

/** Whether the file is exactly as our last write left it (same size and mtime): nobody wrote after us. */
export function isAsWeLeftIt(ours: FileState | undefined, now: { size: number; mtimeMs: number }): boolean {
  return ours !== undefined && ours.size === now.size && ours.mtimeMs === now.mtimeMs;
}

/** The newest whole lines of `text` that fit in `maxBytes` (the journal trimmed, oldest dropped). */
export function newestLines(text: string, maxBytes: number): string {
  const lines = text.split('\n').filter((line) => line !== '');
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const size = Buffer.byteLength(lines[i]!) + 1;
    if (bytes + size > maxBytes) break;
    kept.push(lines[i]!);
    bytes += size;
  }
  return kept
    .reverse()
    .map((line) => `${line}\n`)
    .join('');
}
