/**
 * `check --secrets`: every session file of a scope scanned for credentials, one file per
 * event-loop turn (a screen stays live). A file that cannot be read is reported, never thrown.
 * `cache` (the catalogue's) answers for a file unchanged since it was scanned.
 */
import { stat } from 'node:fs/promises';
import type { Locations } from '../locations.js';
import { readSession, readSessionLines } from '../read/read.js';
import { discoverSessionFiles, type ListScope } from '../summary/list.js';
import { rawLineMayHoldSecret } from './markers.js';
import { type SecretFinding, type SecretScanOptions, scanSession } from './secrets.js';

export interface FileSecrets {
  path: string;
  sessionId: string | null;
  findings: SecretFinding[];
  /** Why the file could not be scanned. */
  problem?: string;
}

export interface SecretReport {
  searched: string;
  files: FileSecrets[];
  dirProblem?: string;
}

/** What a file was when it was scanned: the same size, mtime and inode mean the same findings. */
export interface ScannedState {
  size: number;
  mtimeMs: number;
  ino: number;
  /** When it was stat'ed, just before the scan read it (a file modified moments before may change again unseen). */
  statAtMs: number;
}

/** A store of earlier scan results (the catalogue's), by path and file state. */
export interface SecretCache {
  get(path: string, state: ScannedState): FileSecrets | undefined;
  set(path: string, state: ScannedState, result: FileSecrets): void;
}

/**
 * One file scanned (a result that names why when it cannot be read). With the prefilter (the
 * default) only lines holding a rule's marker are parsed, and only their strings holding one are
 * linted: most of a store is tool output and prose that no rule could match.
 */
export async function scanFileSecrets(path: string, options: SecretScanOptions = {}): Promise<FileSecrets> {
  const session =
    options.prefilter === false ? await readSession(path) : await readSessionLines(path, rawLineMayHoldSecret);
  if (!session.ok) return { path, sessionId: null, findings: [], problem: session.message };
  const { findings } = await scanSession(session, options);
  return { path, sessionId: session.header.id, findings };
}

export interface StoreScanOptions {
  cache?: SecretCache;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Scans one file (default `scanFileSecrets`; tests count the files read through it). */
  scanFile?: (path: string) => Promise<FileSecrets>;
}

export async function scanStoreSecrets(
  locations: Locations,
  scope: ListScope,
  options: StoreScanOptions = {},
): Promise<SecretReport> {
  const scanFile = options.scanFile ?? ((path: string) => scanFileSecrets(path));
  const discovery = discoverSessionFiles(locations, scope);
  const report: SecretReport = { searched: discovery.searched, files: [] };
  if (discovery.dirProblem) report.dirProblem = discovery.dirProblem;
  let done = 0;
  for (const path of discovery.files) {
    if (options.signal?.aborted) break;
    const state = await stat(path).then(
      (s): ScannedState => ({ size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, statAtMs: Date.now() }),
      () => undefined,
    );
    const cached = state ? options.cache?.get(path, state) : undefined;
    const result = cached ?? (await scanFile(path));
    if (!cached && state && !result.problem) options.cache?.set(path, state, result);
    report.files.push(result);
    options.onProgress?.(++done, discovery.files.length);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return report;
}
