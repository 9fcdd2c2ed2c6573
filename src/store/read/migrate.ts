/**
 * pi's v1 → v2 → v3 migration (session-format.md §6), applied in memory only.
 *
 * pi gives v1 entries random ids on every load; we derive them from the header id and the entry's
 * position instead, so the same file shows the same ids on every run and a later explicit
 * migration (before a write) persists exactly the ids the user saw.
 */
import type { JsonObject, Problem, SessionEntry, SessionHeader } from '../types.js';

export const CURRENT_VERSION = 3;

export interface Migrated {
  header: SessionHeader;
  entries: SessionEntry[];
  entryLines: number[];
  /** True when the file is v1/v2 and the entries were changed in memory. */
  changed: boolean;
}

/** 8 lowercase hex characters from a string (FNV-1a, 32 bit). */
function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Stable ids for migrated v1 entries: unique within the file. */
export function migrationId(seed: string, index: number, taken: Set<string>): string {
  let salt = 0;
  let id = hash8(`${seed}:${index}`);
  while (taken.has(id)) id = hash8(`${seed}:${index}:${++salt}`);
  taken.add(id);
  return id;
}

/**
 * `objects[0]` is the header. Mutates the parsed objects (they are ours, never written back by
 * reading) and returns the entries with their line numbers.
 */
export function migrateInMemory(
  objects: JsonObject[],
  lines: number[],
  diskVersion: number,
  problems: Problem[],
): Migrated {
  const header = objects[0] as SessionHeader;
  const changed = diskVersion < CURRENT_VERSION;
  if (diskVersion < 2) migrateV1ToV2(objects);
  if (diskVersion < 3) migrateV2ToV3(objects);

  const entries: SessionEntry[] = [];
  const entryLines: number[] = [];
  for (let i = 1; i < objects.length; i++) {
    const entry = entryOf(objects[i]!, lines[i]!, problems);
    if (!entry) continue;
    entries.push(entry);
    entryLines.push(lines[i]!);
  }
  return { header, entries, entryLines, changed };
}

/**
 * The entry a (migrated) object after the header is, or undefined with the reason pushed to
 * `problems`: the one rule of the reader and of the live watcher's appended lines.
 */
export function entryOf(object: JsonObject, line: number, problems: Problem[]): SessionEntry | undefined {
  if (object['type'] === 'session') {
    problems.push({
      line,
      kind: 'duplicate-header',
      message: 'a second session header (pi before 0.55.2); ignored like pi',
    });
    return undefined;
  }
  if (typeof object['id'] !== 'string' || object['id'] === '') {
    problems.push({
      line,
      kind: 'missing-id',
      message: `entry${typeof object['type'] === 'string' ? ` of type "${object['type']}"` : ''} has no id; skipped`,
    });
    return undefined;
  }
  if (typeof object['type'] !== 'string') {
    problems.push({ line, kind: 'missing-id', message: 'entry has no type; skipped' });
    return undefined;
  }
  const parentId = object['parentId'];
  if (parentId !== null && typeof parentId !== 'string') {
    if (parentId !== undefined) {
      problems.push({ line, kind: 'bad-parent', message: `parentId is ${typeof parentId}; treated as a root` });
    }
    object['parentId'] = null;
  }
  if (object['type'] === 'message') {
    const message = object['message'];
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      problems.push({
        line,
        kind: 'bad-message',
        message: 'message entry without a message object (pi 1.6 hides this session)',
      });
    }
  }
  return object as SessionEntry;
}

function migrateV1ToV2(objects: JsonObject[]): void {
  const header = objects[0]!;
  const seed = typeof header['id'] === 'string' ? header['id'] : '';
  const taken = new Set<string>();
  let previousId: string | null = null;
  for (let i = 0; i < objects.length; i++) {
    const object = objects[i]!;
    if (object['type'] === 'session') {
      object['version'] = 2;
      continue;
    }
    const id = migrationId(seed, i, taken);
    object['id'] = id;
    object['parentId'] = previousId;
    previousId = id;
    if (object['type'] === 'compaction' && typeof object['firstKeptEntryIndex'] === 'number') {
      // The index addresses the parsed lines with the header at 0. Later entries do not have
      // their ids yet, so resolve after the loop (pi resolves forward indexes to undefined too,
      // because their ids are not assigned yet when it looks them up).
      const target = objects[object['firstKeptEntryIndex']];
      if (target && target['type'] !== 'session' && typeof target['id'] === 'string') {
        object['firstKeptEntryId'] = target['id'];
      }
      delete object['firstKeptEntryIndex'];
    }
  }
}

function migrateV2ToV3(objects: JsonObject[]): void {
  for (const object of objects) {
    if (object['type'] === 'session') {
      object['version'] = 3;
      continue;
    }
    if (object['type'] === 'message') {
      const message = object['message'];
      if (message && typeof message === 'object' && (message as JsonObject)['role'] === 'hookMessage') {
        (message as JsonObject)['role'] = 'custom';
      }
    }
  }
}
