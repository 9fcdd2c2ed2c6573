/**
 * Conflict copies a sync tool leaves beside a session, told from their names (pure). When two
 * machines append to one session between syncs, the tool keeps both: one under the session's
 * name, the other renamed. pi lists the renamed one as a session of its own with the same id;
 * store/sync/merge.ts puts the two back together.
 *
 * The names recognised (`<name>` is the original's name without `.jsonl`):
 *   Syncthing   `<name>.sync-conflict-<YYYYMMDD>-<HHMMSS>-<device>.jsonl`, the device being the
 *               first 7 characters of its id (upper-case letters and digits);
 *   Dropbox     `<name> (conflicted copy).jsonl`, `<name> (<who>'s conflicted copy <YYYY-MM-DD>).jsonl`
 *               (Nextcloud and ownCloud write `<name> (conflicted copy <YYYY-MM-DD> <HHMMSS>).jsonl`);
 *   others      `<name>.conflict-<anything>.jsonl` (Unison, Resilio and scripts).
 * Temp files of a sync in progress are never sessions (`isSyncTempName`).
 */
import { basename, dirname, join } from 'node:path';

export type ConflictTool = 'syncthing' | 'dropbox' | 'other';

/** What a conflict copy's name says: the original's name, and where known the device and the time. */
export interface ConflictName {
  /** The original's file name (`<name>.jsonl`). */
  original: string;
  tool: ConflictTool;
  /** The machine that wrote it, as the tool names it (Syncthing: a short device id). */
  device?: string;
  /** When the conflict was found, in the local time of the machine that found it: `YYYY-MM-DDTHH:MM:SS` or `YYYY-MM-DD`. */
  time?: string;
}

const SYNCTHING = /^(?<name>.+)\.sync-conflict-(?<date>\d{8})-(?<clock>\d{6})-(?<device>[A-Z0-9]{7})\.jsonl$/;
const DROPBOX =
  /^(?<name>.+) \((?:(?<who>[^()]+?)'s )?conflicted copy(?: (?<date>\d{4}-\d{2}-\d{2})(?: (?<clock>\d{6}))?)?\)\.jsonl$/;
const OTHER = /^(?<name>.+)\.conflict-(?<tail>[^/]+)\.jsonl$/;
/** A date-time in a free-form tail: `20260105-091500`, `2026-01-05`, `2026-01-05T09:15:00`. */
const TAIL_TIME = /(?<date>\d{4}-?\d{2}-?\d{2})(?:[-T_ ](?<clock>\d{2}:?\d{2}:?\d{2}))?/;

function isoDate(digits: string): string | undefined {
  const d = digits.replaceAll('-', '');
  if (d.length !== 8) return undefined;
  const month = Number(d.slice(4, 6));
  const day = Number(d.slice(6, 8));
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
}

function isoClock(digits: string): string | undefined {
  const c = digits.replaceAll(':', '');
  if (c.length !== 6 || Number(c.slice(0, 2)) > 23 || Number(c.slice(2, 4)) > 59 || Number(c.slice(4, 6)) > 60)
    return undefined;
  return `${c.slice(0, 2)}:${c.slice(2, 4)}:${c.slice(4, 6)}`;
}

function timeOf(date: string | undefined, clock: string | undefined): string | undefined {
  const day = date === undefined ? undefined : isoDate(date);
  if (day === undefined) return undefined;
  const at = clock === undefined ? undefined : isoClock(clock);
  return at === undefined ? day : `${day}T${at}`;
}

/** What a file name says when it is a conflict copy's; undefined for any other name. */
export function parseConflictName(name: string): ConflictName | undefined {
  if (isSyncTempName(name)) return undefined;
  const syncthing = SYNCTHING.exec(name)?.groups;
  if (syncthing) {
    const time = timeOf(syncthing['date'], syncthing['clock']);
    // A name that only looks like Syncthing's (a date that is no date) is a session's own name.
    if (time === undefined || !time.includes('T')) return undefined;
    return { original: `${syncthing['name']}.jsonl`, tool: 'syncthing', device: syncthing['device']!, time };
  }
  const dropbox = DROPBOX.exec(name)?.groups;
  if (dropbox) {
    const time = timeOf(dropbox['date'], dropbox['clock']);
    if (dropbox['date'] !== undefined && time === undefined) return undefined;
    return {
      original: `${dropbox['name']}.jsonl`,
      tool: 'dropbox',
      ...(dropbox['who'] !== undefined ? { device: dropbox['who'] } : {}),
      ...(time !== undefined ? { time } : {}),
    };
  }
  const other = OTHER.exec(name)?.groups;
  if (other) {
    const found = TAIL_TIME.exec(other['tail']!)?.groups;
    const time = found ? timeOf(found['date'], found['clock']) : undefined;
    return { original: `${other['name']}.jsonl`, tool: 'other', ...(time !== undefined ? { time } : {}) };
  }
  return undefined;
}

/**
 * Whether a name is a temp file of a sync in progress, never a session: Syncthing's
 * `.syncthing.<name>.tmp` and `~syncthing~<name>.tmp` (Windows), a partial download
 * (`*.partial`, `*.part`, `*.crdownload`), a hidden temp file (`.*.tmp`, ours included), and
 * Dropbox's `.~<name>`. Some of them end in `.jsonl` while they are written.
 */
export function isSyncTempName(name: string): boolean {
  return (
    name.startsWith('.syncthing.') ||
    name.startsWith('~syncthing~') ||
    name.startsWith('.~') ||
    /\.(?:partial|part|crdownload)$/.test(name) ||
    (name.startsWith('.') && name.endsWith('.tmp'))
  );
}

export interface ConflictCopy {
  path: string;
  tool: ConflictTool;
  device?: string;
  time?: string;
}

/** An original session and the conflict copies of it found beside it. */
export interface ConflictGroup {
  original: string;
  copies: ConflictCopy[];
}

/**
 * The conflict groups among `paths` (files of one or more folders): each conflict copy whose
 * original is among them too, grouped by original, copies in name order. A copy whose original is
 * gone is an ordinary session (there is nothing to merge it with). Names only: `confirmGroups`
 * checks the session ids.
 */
export function conflictGroups(paths: readonly string[]): ConflictGroup[] {
  const present = new Set(paths);
  const groups = new Map<string, ConflictCopy[]>();
  for (const path of [...paths].sort()) {
    const parsed = parseConflictName(basename(path));
    if (!parsed) continue;
    const original = join(dirname(path), parsed.original);
    if (!present.has(original) || parseConflictName(parsed.original)) continue;
    const copy: ConflictCopy = {
      path,
      tool: parsed.tool,
      ...(parsed.device !== undefined ? { device: parsed.device } : {}),
      ...(parsed.time !== undefined ? { time: parsed.time } : {}),
    };
    groups.set(original, [...(groups.get(original) ?? []), copy]);
  }
  return [...groups].map(([original, copies]) => ({ original, copies }));
}

/**
 * The groups whose copies hold the original's session (same header id): a copy with another id,
 * or none, is a session of its own that happens to have such a name, and is left out (a group
 * with no copy left is dropped). `sessionIdOf` reads a file's header id (undefined: unreadable).
 */
export function confirmGroups(
  groups: readonly ConflictGroup[],
  sessionIdOf: (path: string) => string | undefined,
): ConflictGroup[] {
  const confirmed: ConflictGroup[] = [];
  for (const group of groups) {
    const id = sessionIdOf(group.original);
    if (id === undefined) continue;
    const copies = group.copies.filter((copy) => sessionIdOf(copy.path) === id);
    if (copies.length > 0) confirmed.push({ original: group.original, copies });
  }
  return confirmed;
}
