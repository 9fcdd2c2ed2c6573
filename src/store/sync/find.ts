/**
 * Finding conflict copies in the store and saying what each adds: the names (conflict-names.ts)
 * confirmed by the session id in each header, for `check`, `merge-conflicts` and the picker.
 * Reads only; the headers in bounded memory, a group's files whole when its copies are described.
 */
import { closeSync, constants, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CheckProblem } from '../check/rules.js';
import { checkProblem } from '../check/rules.js';
import { StoreError } from '../errors.js';
import type { Locations } from '../locations.js';
import { readSessionSync } from '../read/read.js';
import { readAtSync } from '../read/read-at.js';
import { openRegularSync } from '../read/regular-file.js';
import { headOf } from '../read/session-head.js';
import { discoverSessionFiles, type ListScope } from '../summary/list.js';
import {
  type ConflictCopy,
  type ConflictGroup,
  confirmGroups,
  conflictGroups,
  isSyncTempName,
} from './conflict-names.js';

/** Bytes of a file's start read for its header id (a header line is far shorter). */
const HEADER_BYTES = 64 * 1024;

/** The header's session id of `path`; undefined when it cannot be read or is not a session. */
export function sessionIdSync(path: string): string | undefined {
  let opened: ReturnType<typeof openRegularSync>;
  try {
    opened = openRegularSync(path, constants.O_RDONLY);
  } catch {
    return undefined;
  }
  try {
    const bytes = readAtSync(opened.fd, 0, Math.min(HEADER_BYTES, opened.stats.size));
    return headOf(bytes.toString('utf8')).sessionId;
  } catch {
    return undefined;
  } finally {
    closeSync(opened.fd);
  }
}

/** The confirmed conflict groups among `paths` (session files of one or more folders). */
export function findConflictGroups(paths: readonly string[]): ConflictGroup[] {
  const ids = new Map<string, string | undefined>();
  const idOf = (path: string): string | undefined => {
    if (!ids.has(path)) ids.set(path, sessionIdSync(path));
    return ids.get(path);
  };
  return confirmGroups(conflictGroups(paths), idOf);
}

/** The conflict groups of a scope of the store (`cwd`: this folder's sessions, `all`: every project's), and the folder searched. */
export function storeConflictGroups(
  locations: Locations,
  scope: ListScope,
): { groups: ConflictGroup[]; searched: string; dirProblem?: string } {
  const discovery = discoverSessionFiles(locations, scope);
  return {
    groups: findConflictGroups(discovery.files),
    searched: discovery.searched,
    ...(discovery.dirProblem !== undefined ? { dirProblem: discovery.dirProblem } : {}),
  };
}

/** The session files of `dir` (as discovery lists them: `*.jsonl`, no sync temp files). */
function sessionFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl') && !isSyncTempName(name))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** The group `path` belongs to, as the original or as one of its copies; throws a one-line StoreError when none. */
export function conflictGroupOf(path: string): ConflictGroup {
  const absolute = resolve(path);
  const group = findConflictGroups(sessionFilesIn(dirname(absolute))).find(
    (g) => g.original === absolute || g.copies.some((c) => c.path === absolute),
  );
  if (!group)
    throw new StoreError(
      'no-entry',
      `nothing to merge: ${absolute} has no conflict copy beside it (a copy is named like ${basename(absolute, '.jsonl')}.sync-conflict-…jsonl and holds the same session id)`,
    );
  return group;
}

/** Who wrote a copy and when, as its name says: "device ABCDEFG, 2026-01-05T09:15:00". */
export function copyOrigin(copy: ConflictCopy): string {
  return [copy.device !== undefined ? `device ${copy.device}` : undefined, copy.time]
    .filter((part) => part !== undefined)
    .join(', ');
}

/** What a copy adds to the original, from both files read whole: entries the original lacks. */
function addedEntries(original: Set<string> | undefined, copy: string): number | undefined {
  const read = readSessionSync(copy);
  if (!read.ok || original === undefined) return undefined;
  return read.entries.filter((e) => !original.has(e.id)).length;
}

/** One warning per group, on the original: its copies, what each adds (entries, device). */
export function conflictProblems(groups: readonly ConflictGroup[]): CheckProblem[] {
  return groups.map((group) => {
    const read = readSessionSync(group.original);
    const ids = read.ok ? new Set(read.entries.map((e) => e.id)) : undefined;
    const parts = group.copies.map((copy) => {
      const added = addedEntries(ids, copy.path);
      const origin = copyOrigin(copy);
      const adds = added === undefined ? 'cannot be read' : `adds ${added} ${added === 1 ? 'entry' : 'entries'}`;
      return `${basename(copy.path)} ${adds}${origin !== '' ? ` (${origin})` : ''}`;
    });
    const count = group.copies.length;
    return checkProblem(
      group.original,
      0,
      'conflict-copy',
      `${count === 1 ? 'a conflict copy' : `${count} conflict copies`} of this session: ${parts.join('; ')}`,
    );
  });
}
