/**
 * Every write pi-sessions makes to a session file (session-format.md §9–§12, §15 traps 12–19).
 * All are asynchronous: a write on a 100 MB session never blocks the screens for long.
 *
 * - Append-only: whole lines on an O_APPEND descriptor, compact JSON + `\n`, fsynced, rolled back
 *   to the old length if they could not all be written (fs-write.ts).
 * - The entry hangs under the file's real last line: the file is checked right before writing, and
 *   if it changed since it was scanned (pi appended meanwhile), only the new tail is read again.
 * - v1/v2 files are migrated in the same atomic rewrite that adds the new entries (temp file,
 *   fsync, rename; migrate-file.ts), keeping every line pi would drop; a file that is not a
 *   session is refused.
 * - Symlinks are followed to the real file; a fork (fork.ts) or a migration keeps the source's mode.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreError } from '../errors.js';
import { fileStateOf, recordChange } from '../journal/file.js';
import { aliasOf, boundedText, type FileState, preview } from '../journal/records.js';
import { type AppendPoint, bytesSource, scanForAppend } from '../read/append-scan.js';
import { CURRENT_VERSION } from '../read/migrate.js';
import { openSession, readWhole, realSessionPath } from '../read/session-file.js';
import type { JsonObject } from '../types.js';
import { type AppendView, viewOf } from './append-view.js';
import { appendOrRollback, removeStaleTemps, replaceAtomically } from './fs-write.js';
import { migratedText, refuseTooLargeMigration } from './migrate-file.js';
import {
  checkNote,
  type Journalled,
  journalled,
  outcomeOf,
  sessionFacts,
  type TextSource,
  textFrom,
  type WriteNote,
} from './note.js';

export type { AppendView } from './append-view.js';
export type { Journalled, TextSource, WriteNote } from './note.js';

/** 8 lowercase hex characters, unique among `taken` (pi's generateId, without the UUID fallback need). */
export function newEntryId(taken: { has(id: string): boolean }): string {
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!taken.has(id)) return id;
  }
}

/** A UUIDv7 (what pi 0.67.1+ uses for session ids). */
export function uuidv7(nowMs = Date.now()): string {
  const bytes = randomBytes(16);
  let ms = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** pi's session-name sanitising: runs of CR/LF become one space, then trim (0.80+). */
export function sanitizeSessionName(name: string): string {
  return name.replace(/[\r\n]+/g, ' ').trim();
}

const APPEND_ATTEMPTS = 12;

/** Builds the new entries from the current state of the file; may throw StoreError. */
export type EntryPlanner = (view: AppendView) => JsonObject[] | Promise<JsonObject[]>;

export interface AppendResult {
  /** Ids of the appended entries, in order. */
  entryIds: string[];
  /** The real path written to. */
  path: string;
  /** The file as our write left it (for the journal). */
  after: FileState;
}

/** The entries as JSONL; after a last line without `\n`, a newline first (pi does the same on open). */
function linesOf(entries: JsonObject[], afterNewline: boolean): Buffer {
  return Buffer.from((afterNewline ? '' : '\n') + entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
}

/**
 * Appends the planned entries as whole lines, fsynced, never blocking the event loop for long:
 * - the file is scanned for ids and its leaf (append-scan.ts); a v1/v2 file is migrated in the same
 *   atomic rewrite that adds the entries;
 * - right before the write, the open file must still be the one scanned (same device, inode, size
 *   and mtime) and still be at the path; if pi appended meanwhile, only the new tail is read, the
 *   plan is made again and the write retried after a growing, jittered pause (pi writes in bursts);
 * - a failed write is rolled back to the old length (fs-write.ts).
 */
export async function appendPlanned(
  path: string,
  plan: EntryPlanner,
  keep: readonly string[] = [],
): Promise<AppendResult> {
  const wanted = new Set(keep);
  const real = await realSessionPath(path);
  await removeStaleTemps(dirname(real));
  let point: AppendPoint | undefined;
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));
    const { handle, stats } = await openSession(real, constants.O_RDWR | constants.O_APPEND);
    try {
      const resumable = point && point.dev === stats.dev && point.ino === stats.ino && stats.size >= point.size;
      point = await scanForAppend(handle, real, resumable ? point : undefined, { keep: wanted });
      if (point.diskVersion < CURRENT_VERSION) {
        // v1/v2: migrate and append in one atomic rewrite, so a failure leaves the file as it was.
        refuseTooLargeMigration(real, point.tooLarge);
        const original = await readWhole(handle, real, point.size);
        const migrated = migratedText(original, real);
        const scannedMigrated = await scanForAppend(bytesSource(migrated, stats), real, undefined, { keep: wanted });
        const entries = await plan(viewOf(real, scannedMigrated));
        const unchanged = (now: Stats): boolean =>
          now.dev === stats.dev &&
          now.ino === stats.ino &&
          now.size === original.length &&
          now.mtimeMs === stats.mtimeMs;
        if (!unchanged(await handle.stat())) {
          point = undefined;
          continue; // pi wrote meanwhile: read it again
        }
        await replaceAtomically(real, stats, Buffer.concat([migrated, linesOf(entries, true)]), unchanged, 'migrate');
        return { entryIds: entries.map((e) => e['id'] as string), path: real, after: fileStateOf(await stat(real)) };
      }
      const scanned = point;
      const entries = await plan(viewOf(real, scanned));
      const now = await handle.stat();
      const atPath = await stat(real).catch(() => undefined);
      if (!atPath || atPath.dev !== now.dev || atPath.ino !== now.ino) {
        point = undefined; // replaced or removed meanwhile: start over from the path
        continue;
      }
      if (now.size !== scanned.size || now.mtimeMs !== scanned.mtimeMs) continue; // pi wrote: read the tail, plan again
      await appendOrRollback(handle, real, linesOf(entries, scanned.endsWithNewline), scanned.size);
      return { entryIds: entries.map((e) => e['id'] as string), path: real, after: fileStateOf(await handle.stat()) };
    } finally {
      await handle.close();
    }
  }
  throw new StoreError('write-failed', `${real}: the file keeps changing (is pi writing to it?); nothing was written`);
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** Appends a `session_info` under the leaf. An empty name clears it (pi 0.59+). */
export async function renameSession(
  path: string,
  name: TextSource,
  note?: WriteNote,
): Promise<{ entryId: string; name: string | undefined } & Journalled> {
  let sanitized = '';
  let previous: { text: string | null; ref?: string } = { text: null };
  let facts: ReturnType<typeof sessionFacts> | undefined;
  const written = await appendPlanned(
    path,
    (view) => {
      checkNote(view, note);
      sanitized = sanitizeSessionName(textFrom(view, name, 'name') ?? '');
      previous = boundedText(view.name, view.nameEntryId);
      facts = sessionFacts(view, sanitized || undefined);
      return [
        { type: 'session_info', id: newEntryId(view.ids), parentId: view.leafId, timestamp: nowIso(), name: sanitized },
      ];
    },
    typeof name === 'string' ? [] : [name.fromEntry],
  );
  const entryId = written.entryIds[0]!;
  const recorded = await recordChange({
    kind: 'rename',
    path: written.path,
    time: nowIso(),
    after: written.after,
    entryId,
    previousName: previous.text,
    ...(previous.ref !== undefined ? { previousNameEntry: previous.ref } : {}),
    name: preview(sanitized),
    ...facts,
    ...aliasOf(path, written.path),
    ...journalled(note),
  });
  return { entryId, name: sanitized || undefined, ...outcomeOf(recorded) };
}

/** Appends a `label` under the leaf; no label (or "") clears it, written with `label` omitted. */
export async function setLabel(
  path: string,
  targetId: string,
  label?: TextSource,
  note?: WriteNote,
): Promise<{ entryId: string; label: string | undefined } & Journalled> {
  let clean: string | undefined;
  let previous: { text: string | null; ref?: string } = { text: null };
  let facts: ReturnType<typeof sessionFacts> | undefined;
  const sourceEntry = label !== undefined && typeof label !== 'string' ? [label.fromEntry] : [];
  const written = await appendPlanned(
    path,
    (view) => {
      checkNote(view, note);
      if (!view.ids.has(targetId)) throw new StoreError('no-entry', `no entry ${targetId} in ${path}`);
      const text = label === undefined ? undefined : textFrom(view, label, 'label');
      clean = text === undefined ? undefined : text.replace(/[\r\n]+/g, ' ').trim() || undefined;
      previous = boundedText(view.labels.get(targetId), view.labelEntryIds.get(targetId));
      facts = sessionFacts(view, view.name);
      const entry: JsonObject = {
        type: 'label',
        id: newEntryId(view.ids),
        parentId: view.leafId,
        timestamp: nowIso(),
        targetId,
      };
      if (clean !== undefined) entry['label'] = clean;
      return [entry];
    },
    sourceEntry,
  );
  const entryId = written.entryIds[0]!;
  const recorded = await recordChange({
    kind: 'label',
    path: written.path,
    time: nowIso(),
    after: written.after,
    entryId,
    targetId,
    previousLabel: previous.text,
    ...(previous.ref !== undefined ? { previousLabelEntry: previous.ref } : {}),
    label: clean === undefined ? null : preview(clean),
    ...facts,
    ...aliasOf(path, written.path),
    ...journalled(note),
  });
  return { entryId, label: clean, ...outcomeOf(recorded) };
}
