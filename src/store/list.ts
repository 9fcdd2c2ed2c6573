/**
 * Listing sessions (session-format.md §1.5, §13): which files, in pi's order, streamed with
 * progress and cancellable. Unlike pi, a file with bad entries is listed with its problems, and a
 * file that is not a session is reported in `skipped` instead of vanishing.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { describeFsError } from './errors.js';
import { isPathWithin, type Locations } from './locations.js';
import { summarizeFile } from './summary.js';
import type { NotASession, SessionInfo } from './types.js';

/** `cwd`: this folder's sessions; `cwd-tree`: this folder and its sub-folders; `all`: every project. */
export type ListScope = 'cwd' | 'cwd-tree' | 'all';

export interface ListOptions {
  scope: ListScope;
  signal?: AbortSignal;
  /** Called for every session as soon as it is read (arrival order, not sorted). */
  onSession?: (info: SessionInfo) => void;
  onProgress?: (loaded: number, total: number) => void;
  /** Files read at once; reading overlaps I/O with parsing (default 4). */
  concurrency?: number;
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
  searched: string;
  dirProblem?: string;
  dirMissing?: boolean;
}

async function jsonlFilesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).map((name) => join(dir, name));
}

/** The candidate files, in pi's load order. */
export async function discoverSessionFiles(locations: Locations, scope: ListScope): Promise<Discovery> {
  const flat = scope === 'cwd' || locations.customDir;
  const searched = flat ? locations.sessionDir : locations.sessionsRoot;
  try {
    const info = await stat(searched);
    if (!info.isDirectory()) return { files: [], searched, dirProblem: `${searched} is not a directory` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { files: [], searched, dirMissing: true };
    return { files: [], searched, dirProblem: `cannot read ${searched}: ${describeFsError(error)}` };
  }
  try {
    if (flat) {
      // pi's `list`: names sorted descending (load order only; the result is sorted by time).
      const files = await jsonlFilesIn(searched);
      files.sort((a, b) => basename(b).localeCompare(basename(a)));
      return { files, searched };
    }
    const dirents = await readdir(searched, { withFileTypes: true });
    const dirs = dirents.filter((d) => d.isDirectory() || d.isSymbolicLink()).map((d) => join(searched, d.name));
    const perDir = await Promise.all(dirs.map((dir) => jsonlFilesIn(dir).catch(() => [] as string[])));
    const candidates = await Promise.all(
      perDir.flat().map(async (path) => ({ path, mtimeMs: await stat(path).then((s) => s.mtimeMs, () => Number.NEGATIVE_INFINITY) })),
    );
    // pi's `listAll`: newest mtime first, then basename descending.
    candidates.sort((a, b) => b.mtimeMs - a.mtimeMs || basename(b.path).localeCompare(basename(a.path)));
    return { files: candidates.map((c) => c.path), searched };
  } catch (error) {
    return { files: [], searched, dirProblem: `cannot read ${searched}: ${describeFsError(error)}` };
  }
}

function inScope(info: SessionInfo, locations: Locations, scope: ListScope): boolean {
  if (scope === 'all') return true;
  if (scope === 'cwd-tree') return info.cwd !== '' && isPathWithin(locations.cwd, info.cwd);
  // A flat custom dir mixes projects: keep the sessions whose header cwd is ours (pi 0.77+).
  if (!locations.customDir) return true;
  return info.cwd !== '' && resolve(info.cwd) === locations.cwd;
}

/** pi's sort: `modified` descending; Array.prototype.sort is stable, so ties keep load order. */
export function sortByModified(sessions: SessionInfo[]): SessionInfo[] {
  return sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

export async function listSessions(locations: Locations, options: ListOptions): Promise<ListResult> {
  const { scope, signal } = options;
  signal?.throwIfAborted();
  const discovery = await discoverSessionFiles(locations, scope);
  const { files } = discovery;
  const results: (SessionInfo | NotASession | undefined)[] = new Array(files.length);
  let next = 0;
  let loaded = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      signal?.throwIfAborted();
      const index = next++;
      const info = await summarizeFile(files[index]!, signal);
      results[index] = info;
      loaded++;
      if ('ok' in info) {
        // NotASession: reported in `skipped`.
      } else if (inScope(info, locations, scope)) {
        options.onSession?.(info);
      }
      options.onProgress?.(loaded, files.length);
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, files.length));
  await Promise.all(Array.from({ length: concurrency }, worker));
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
