/**
 * The journal of every change pi-sessions makes, the pure part: what one record holds and how it
 * is written and read back. The journal is `$XDG_STATE_HOME/pi-sessions/journal.jsonl`, one JSON
 * line per record, `{"v":1, "kind": …, …}`. The I/O is in store/journal/file.ts, what the records mean
 * together (what can be undone, redone) in store/journal/history.ts.
 *
 * The record format (version 1; every field but `v`, `kind`, `path` and `time` may be missing in
 * records an older pi-sessions wrote, and undo judges those by what they have):
 *
 *   common     `path` (the real path changed, symlinks followed; a fork or slim: the new file),
 *              `time` (ISO), `id` (8 hex: what undo, redo and skip name), `alias` (the path as
 *              given, when a symlink made it differ), `batch` (shared by the records of one delete
 *              of several sessions), `undoes` (set on the records an undo wrote: the change it took
 *              back), `redoes` (set on a redo's records: the change it re-applied),
 *              `sessionId` (the header id of the file at `path` after the change; a delete: of the
 *              trashed file), `title` (the session's name or first message, at most TITLE_MAX
 *              characters), `cwd` (its project, from the header; left out when longer than
 *              PATH_TEXT_MAX).
 *   rename     `after`, `entryId` (our session_info), `previousName` (null: none), `name` (the new
 *              name); both bounded: see `boundedText`.
 *   label      `after`, `entryId`, `targetId`, `previousLabel`, `label` (null: cleared); bounded.
 *   branch     `after`, `entryId` (our entry, pi's leaf after the branch), `previousLeafId`.
 *   fork       `after`, `source` (the session forked).
 *   delete     `how` ('trash' | 'deleted'), `trashedPath` + `infoPath` (where the trash put it and
 *              its .trashinfo; null when the platform did not say), `trash` ('home': the
 *              freedesktop home trash gave those paths), `size` (the trashed file's size).
 *   restore    `after` (a file put back from the trash by an undo or a redo).
 *   slim       `after`, `source` (the original, moved to the trash), `trashedPath`, `infoPath`,
 *              `trash`, `sizeBefore`, `sourceSessionId` (the original's header id).
 *   redact     `after` (the redacted file, at the same path, same session id), `trashedPath`,
 *              `infoPath`, `trash` (where the original went), `sizeBefore`, `secrets` (how many).
 *   merge      `after` (the merged file, at the original's path, same session id), `sources` (every
 *              file merged, the original first: `path`, `trashedPath`, `infoPath`, `trash`, `size`
 *              where each went in the trash), `sizeBefore` (their sizes together).
 *   skip       `skips` (the change passed over: it stays as it is, older changes become reachable),
 *              `reason` (why it could not be undone, when it could not).
 *   trimmed    written first by a trim: older records were dropped (`time`: when).
 *
 * Texts are bounded so that one record stays small whatever the user typed: a name or label
 * longer than TEXT_INLINE_MAX is stored as a preview plus `previousNameEntry` / `previousLabelEntry`,
 * the id of the entry in the session file that holds it whole (session files are append-only, so
 * it can be read again when the undo needs it).
 */
import { resolve as resolvePath } from 'node:path';
import { isObject } from '../entry.js';

export const JOURNAL_FORMAT = 1;

/** What our write left on disk (after the fsync): a later write by anyone changes size or mtime. */
export interface FileState {
  size: number;
  mtimeMs: number;
  ino: number;
}

interface RecordBase {
  path: string;
  time: string;
  id?: string;
  undoes?: string;
  redoes?: string;
  alias?: string;
  batch?: string;
  sessionId?: string;
  title?: string;
  cwd?: string;
}

/** What a write passes on to its journal record: that it is an undo or a redo of another change. */
export interface JournalNote {
  undoes?: string;
  redoes?: string;
}

/** One file a merge moved to the trash: where it was, and where the trash put it. */
export interface MergedSource {
  path: string;
  trashedPath: string | null;
  infoPath: string | null;
  trash?: TrashBackend;
  size: number;
}

/** Which trash gave a record's trash paths: only those of the freedesktop home trash are ever trusted. */
export type TrashBackend = 'home';

export type JournalRecord =
  | (RecordBase & {
      kind: 'rename';
      after: FileState;
      entryId: string;
      previousName: string | null;
      previousNameEntry?: string;
      name?: string;
    })
  | (RecordBase & {
      kind: 'label';
      after: FileState;
      entryId: string;
      targetId: string;
      previousLabel: string | null;
      previousLabelEntry?: string;
      label?: string | null;
    })
  | (RecordBase & { kind: 'branch'; after: FileState; entryId: string; previousLeafId: string | null })
  | (RecordBase & { kind: 'fork'; after: FileState; source: string })
  | (RecordBase & {
      kind: 'delete';
      how: 'trash' | 'deleted';
      trashedPath: string | null;
      infoPath: string | null;
      trash?: TrashBackend;
      size?: number;
    })
  | (RecordBase & { kind: 'restore'; after: FileState })
  | (RecordBase & {
      kind: 'slim';
      after: FileState;
      source: string;
      trashedPath: string | null;
      infoPath: string | null;
      trash?: TrashBackend;
      sizeBefore: number;
      sourceSessionId?: string;
    })
  | (RecordBase & {
      kind: 'redact';
      after: FileState;
      trashedPath: string | null;
      infoPath: string | null;
      trash?: TrashBackend;
      sizeBefore: number;
      secrets: number;
    })
  | (RecordBase & { kind: 'merge'; after: FileState; sources: MergedSource[]; sizeBefore: number })
  | (RecordBase & { kind: 'skip'; skips: string; reason?: string })
  | (RecordBase & { kind: 'trimmed' });

export type JournalKind = JournalRecord['kind'];

/** The kinds that are changes a user made (undoable); the rest is the journal's own bookkeeping. */
export const CHANGE_KINDS: readonly JournalKind[] = [
  'rename',
  'label',
  'branch',
  'fork',
  'delete',
  'slim',
  'redact',
  'merge',
];

/** The journal is trimmed once it would grow past this (store/journal/trim.ts). */
export const JOURNAL_MAX_BYTES = 1024 * 1024;
/** A trim keeps the newest records up to this many bytes… */
export const JOURNAL_KEEP_BYTES = JOURNAL_MAX_BYTES / 2;
/** …and never fewer than this many records, whatever their size. */
export const JOURNAL_KEEP_RECORDS = 200;
/**
 * No record pi-sessions writes comes near this (texts are bounded; six paths of PATH_MAX make
 * 24 KiB): a longer line is not ours (an older version's, or foreign) and is neither parsed nor kept.
 */
export const RECORD_MAX_BYTES = 64 * 1024;
/** A name or label up to this many characters is stored whole; a longer one as a preview and a reference. */
export const TEXT_INLINE_MAX = 1024;
/** A title or preview is cut to this many characters. */
export const TITLE_MAX = 80;
/** A cwd longer than this (a hostile header) is not recorded. */
export const PATH_TEXT_MAX = 4096;

/** `text` cut to `max` characters (code points), with `…` when it was cut. */
export function preview(text: string, max = TITLE_MAX): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * A previous name or label for a record: whole when short, else a preview and the entry that
 * holds it (`ref`); `null` stays null. Without an entry to point at, a long text is kept as its
 * preview (the undo then says it cannot restore it whole).
 */
export function boundedText(
  text: string | null | undefined,
  entryId: string | undefined,
): { text: string | null; ref?: string } {
  if (text === undefined || text === null) return { text: null };
  if (text.length <= TEXT_INLINE_MAX) return { text };
  return entryId === undefined ? { text: preview(text, TITLE_MAX) } : { text: preview(text, TITLE_MAX), ref: entryId };
}

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

const KINDS: readonly string[] = [...CHANGE_KINDS, 'restore', 'skip', 'trimmed'];

const OPTIONAL_STRINGS = ['id', 'undoes', 'redoes', 'alias', 'batch', 'sessionId', 'title', 'cwd'] as const;

/** Whether the fields undo and redo rely on have the types they must have (a hand-edited line may not). */
function wellTyped(value: Record<string, unknown>): boolean {
  for (const key of OPTIONAL_STRINGS) if (value[key] !== undefined && typeof value[key] !== 'string') return false;
  const stringOrNull = (key: string): boolean => value[key] === null || typeof value[key] === 'string';
  switch (value['kind']) {
    case 'rename':
      return typeof value['entryId'] === 'string' && stringOrNull('previousName');
    case 'label':
      return (
        typeof value['entryId'] === 'string' && typeof value['targetId'] === 'string' && stringOrNull('previousLabel')
      );
    case 'branch':
      return typeof value['entryId'] === 'string' && stringOrNull('previousLeafId');
    case 'fork':
      return typeof value['source'] === 'string';
    case 'delete':
      return (
        (value['how'] === 'trash' || value['how'] === 'deleted') &&
        stringOrNull('trashedPath') &&
        stringOrNull('infoPath')
      );
    case 'slim':
      return (
        typeof value['source'] === 'string' &&
        stringOrNull('trashedPath') &&
        stringOrNull('infoPath') &&
        typeof value['sizeBefore'] === 'number'
      );
    case 'redact':
      return stringOrNull('trashedPath') && stringOrNull('infoPath') && typeof value['sizeBefore'] === 'number';
    case 'merge':
      return (
        typeof value['sizeBefore'] === 'number' &&
        Array.isArray(value['sources']) &&
        value['sources'].length > 1 &&
        value['sources'].every(
          (source: unknown) =>
            isObject(source) &&
            typeof source['path'] === 'string' &&
            (source['trashedPath'] === null || typeof source['trashedPath'] === 'string') &&
            (source['infoPath'] === null || typeof source['infoPath'] === 'string') &&
            typeof source['size'] === 'number',
        )
      );
    case 'skip':
      return typeof value['skips'] === 'string';
    default:
      return true;
  }
}

/** One journal line as a record, or undefined when it is not one of ours (torn, foreign, newer format, too long). */
export function parseJournalLine(line: string): JournalRecord | undefined {
  if (line.trim() === '' || line.length > RECORD_MAX_BYTES) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (
    !isObject(value) ||
    value['v'] !== JOURNAL_FORMAT ||
    typeof value['path'] !== 'string' ||
    typeof value['time'] !== 'string'
  )
    return undefined;
  const kind = value['kind'];
  if (typeof kind !== 'string' || !KINDS.includes(kind)) return undefined;
  if (!['delete', 'skip', 'trimmed'].includes(kind) && !isFileState(value['after'])) return undefined;
  if (!wellTyped(value)) return undefined;
  const { v: _format, ...record } = value;
  return record as unknown as JournalRecord;
}

/** The records of a journal's text, oldest first; lines that are not ours are skipped. */
export function parseJournal(text: string): JournalRecord[] {
  const records: JournalRecord[] = [];
  for (const line of text.split('\n')) {
    const record = parseJournalLine(line);
    if (record) records.push(record);
  }
  return records;
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
