/**
 * Listing sessions (session-format.md §1.5, §13): which files, in pi's order, streamed with
 * progress and cancellable. Unlike pi, a file with bad entries is listed with its problems, and a
 * file that is not a session is reported in `skipped` instead of vanishing.
 */

import { readdirSync, type Stats, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describeFsError } from '../errors.js';
import { cwdSessionDirs, isPathWithin, type Locations, localCwd } from '../locations.js';
import { isSyncTempName } from '../sync/conflict-names.js';
import type { NotASession, SessionInfo } from '../types.js';
import { type SearchFieldsMode, summarizeFileSync } from './summary.js';

/** Longest stretch of synchronous reading before yielding to the event loop. */
const SLICE_MS = 12;

/**
 * How long background work should still stand aside (ms; 0: go on). The picker passes one that
 * is non-zero for a moment after each key, so reading files never delays a key's frame.
 */
export type PauseFn = () => number;

/** Waits while `pause` asks to (at once when it does not, or when there is none). */
export async function waitWhilePaused(pause: PauseFn | undefined): Promise<void> {
  if (!pause) return;
  for (let ms = pause(); ms > 0; ms = pause()) await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Files are read synchronously (about a millisecond each) in slices of a few milliseconds; the
 * returned function yields to the event loop when the current slice is used up, so a screen
 * stays responsive while a listing runs, and stands aside while `pause` asks it to. `await` it
 * between files.
 */
export function createSlicer(sliceMs = SLICE_MS, pause?: PauseFn): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    const paused = pause !== undefined && pause() > 0;
    if (!paused && performance.now() - sliceStart <= sliceMs) return undefined;
    return (paused ? waitWhilePaused(pause) : new Promise<void>((resolve) => setImmediate(resolve))).then(() => {
      sliceStart = performance.now();
    });
  };
}

/** `cwd`: this folder's sessions; `cwd-tree`: this folder and its sub-folders; `all`: every project. */
export type ListScope = 'cwd' | 'cwd-tree' | 'all';

export interface ListOptions {
  scope: ListScope;
  signal?: AbortSignal;
  /** Called for every session as soon as it is read (arrival order, not sorted). */
  onSession?: (info: SessionInfo) => void;
  onProgress?: (loaded: number, total: number) => void;
  /** Background reading stands aside while this asks it to (see `PauseFn`). */
  pause?: PauseFn;
  /** Default `with-listing`; `on-demand` for a listing that only prints rows or finds a session (summary.ts). */
  searchFields?: SearchFieldsMode;
}

export interface ListResult {
  /** pi's order: `modified` newest first, ties in discovery order. */
  sessions: SessionInfo[];
  skipped: NotASession[];
  /** The folder that was searched. */
  searched: string;
  /** Set when that folder is missing or cannot be read: a one-line reason. */
  dirProblem?: string;
  dirMissing?: boolean;
}

interface Discovery {
  files: string[];
  /**
   * The `stat` of each file where discovery already took one (the tree scopes sort by mtime), so
   * the catalogue can validate its rows without a second `stat` per file.
   */
  stats?: Map<string, Stats>;
  searched: string;
  dirProblem?: string;
  dirMissing?: boolean;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The session files of a folder: `*.jsonl`, without the temp files of a sync in progress (some end in `.jsonl`). */
function jsonlFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl') && !isSyncTempName(name))
    .map((name) => join(dir, name));
}

/**
 * The candidate files, in pi's load order. Synchronous on purpose: a few thousand `stat` calls
 * take milliseconds, while the thread-pool round trips of async ones cost a tenth of a second.
 */
/** Files stat'ed between two points where the sliced discovery may yield. */
const DISCOVERY_STEP = 256;

/**
 * Discovery as steps: it yields between folders and every DISCOVERY_STEP files, so the sliced
 * form can let keys in while 10,000 files are stat'ed (~50 ms of synchronous calls).
 */
function* discoverySteps(locations: Locations, scope: ListScope): Generator<void, Discovery> {
  const flat = scope === 'cwd' || locations.customDir;
  const searched = flat ? locations.sessionDir : locations.sessionsRoot;
  // The folders another machine's pi made for paths mapped to this cwd count as this folder's.
  const mappedDirs = scope === 'cwd' ? cwdSessionDirs(locations).slice(1).filter(isDirectory) : [];
  try {
    const info = statSync(searched);
    if (!info.isDirectory()) return { files: [], searched, dirProblem: `${searched} is not a directory` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && mappedDirs.length === 0) return { files: [], searched, dirMissing: true };
    if (code !== 'ENOENT')
      return { files: [], searched, dirProblem: `cannot read ${searched}: ${describeFsError(error)}` };
  }
  try {
    if (flat) {
      // pi's `list`: names sorted descending (load order only; the result is sorted by time).
      const files = isDirectory(searched) ? jsonlFilesIn(searched) : [];
      for (const dir of mappedDirs) {
        try {
          files.push(...jsonlFilesIn(dir));
        } catch {
          // An unreadable mapped folder: pi's own folder still lists.
        }
      }
      files.sort((a, b) => basename(b).localeCompare(basename(a)));
      return { files, searched };
    }
    const dirents = readdirSync(searched, { withFileTypes: true });
    const dirs = dirents.filter((d) => d.isDirectory() || d.isSymbolicLink()).map((d) => join(searched, d.name));
    const candidates: { path: string; mtimeMs: number }[] = [];
    const stats = new Map<string, Stats>();
    for (const dir of dirs) {
      yield;
      let files: string[];
      try {
        files = jsonlFilesIn(dir);
      } catch {
        continue; // a symlink loop, a dangling link or an unreadable folder: pi skips it too
      }
      for (const [i, path] of files.entries()) {
        if (i > 0 && i % DISCOVERY_STEP === 0) yield;
        let mtimeMs = Number.NEGATIVE_INFINITY;
        try {
          const stat = statSync(path);
          stats.set(path, stat);
          mtimeMs = stat.mtimeMs;
        } catch {
          // Vanished since readdir: it will be reported when read.
        }
        candidates.push({ path, mtimeMs });
      }
    }
    // pi's `listAll`: newest mtime first, then basename descending.
    candidates.sort((a, b) => b.mtimeMs - a.mtimeMs || basename(b.path).localeCompare(basename(a.path)));
    return { files: candidates.map((c) => c.path), searched, stats };
  } catch (error) {
    return { files: [], searched, dirProblem: `cannot read ${searched}: ${describeFsError(error)}` };
  }
}

export function discoverSessionFiles(locations: Locations, scope: ListScope): Discovery {
  const steps = discoverySteps(locations, scope);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** `discoverSessionFiles`, standing aside for `slice` (a `createSlicer`) between its steps. */
export async function discoverSessionFilesSliced(
  locations: Locations,
  scope: ListScope,
  slice: () => Promise<void> | undefined,
): Promise<Discovery> {
  const steps = discoverySteps(locations, scope);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slice();
  }
}

/** Whether a listed session belongs to the scope (the header cwd decides where folders cannot). */
export function inScope(info: SessionInfo, locations: Locations, scope: ListScope): boolean {
  if (scope === 'all') return true;
  // A cwd recorded on another machine counts where the path map puts it here.
  if (scope === 'cwd-tree') return info.cwd !== '' && isPathWithin(locations.cwd, localCwd(locations, info.cwd));
  // A flat custom dir mixes projects: keep the sessions whose header cwd is ours (pi 0.77+).
  if (!locations.customDir) return true;
  return info.cwd !== '' && resolve(localCwd(locations, info.cwd)) === locations.cwd;
}

/** pi's sort: `modified` descending; Array.prototype.sort is stable, so ties keep load order. */
export function sortByModified(sessions: SessionInfo[]): SessionInfo[] {
  return sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

export async function listSessions(locations: Locations, options: ListOptions): Promise<ListResult> {
  const { scope, signal } = options;
  signal?.throwIfAborted();
  const discovery = discoverSessionFiles(locations, scope);
  const { files } = discovery;
  const results: (SessionInfo | NotASession)[] = [];
  const slice = createSlicer(undefined, options.pause);
  for (let index = 0; index < files.length; index++) {
    await slice();
    signal?.throwIfAborted();
    const info = summarizeFileSync(files[index]!, options.searchFields);
    results.push(info);
    if (!('ok' in info) && inScope(info, locations, scope)) options.onSession?.(info);
    options.onProgress?.(index + 1, files.length);
  }
  const sessions: SessionInfo[] = [];
  const skipped: NotASession[] = [];
  for (const result of results) {
    if (!result) continue;
    if ('ok' in result) skipped.push(result);
    else if (inScope(result, locations, scope)) sessions.push(result);
  }
  const out: ListResult = { sessions: sortByModified(sessions), skipped, searched: discovery.searched };
  if (discovery.dirProblem) out.dirProblem = discovery.dirProblem;
  if (discovery.dirMissing) out.dirMissing = true;
  return out;
}
