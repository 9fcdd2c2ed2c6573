/**
 * `pi-sessions check`: an integrity and health audit of session files, read with the store's one
 * reader (read.ts) and tree builder (tree.ts), never written. What each problem means for pi is in
 * store/check/rules.ts. A FIFO, a device or a directory is reported from its `lstat` without being
 * opened; a file too large to hold one line of in memory is reported from its size.
 */
import { lstatSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { formatBytes, plural } from '../../format.js';
import { retainedTailOf } from '../context.js';
import { firstPrompt, usageFieldOf, usageOf } from '../entry.js';
import { describeFsError } from '../errors.js';
import {
  type ImplausibleValue,
  implausibleUsageValues,
  impossibleTimestamp,
  latestPlausibleMs,
} from '../implausible.js';
import type { Locations } from '../locations.js';
import { mapPath, type PathMap } from '../path-map.js';
import { type PathSuggestion, suggestPathMappings } from '../path-suggestions.js';
import { CURRENT_VERSION } from '../read/migrate.js';
import { SessionCollector } from '../read/read.js';
import { fileKind } from '../read/regular-file.js';
import { scanFromSync } from '../read/scan.js';
import { discoverSessionFiles, type ListScope } from '../summary/list.js';
import { conflictProblems, findConflictGroups } from '../sync/find.js';
import { buildTree } from '../tree.js';
import type { LoadedSession, SessionEntry } from '../types.js';
import {
  type CheckProblem,
  checkProblem,
  fromNotASession,
  fromReaderProblems,
  keepLargest,
  piListingFailure,
  type SessionHealth,
  SLOW_FOR_PI_BYTES,
  TOO_LARGE_TO_AUDIT_BYTES,
} from './rules.js';

export interface FileCheck {
  path: string;
  /** The header's id; null when the file is not a readable session. */
  sessionId: string | null;
  /** What a person calls it: its name, else its first prompt ('' when it has neither); null when unread. */
  title: string | null;
  /** The header's cwd as recorded ('' when it has none); null when unread. */
  cwd: string | null;
  problems: CheckProblem[];
  /** null when the file could not be read as a session. */
  health: SessionHealth | null;
}

/** What the audit asks of the world besides the file itself (tests answer for a machine that is not this one). */
export interface CheckEnvironment {
  /** Whether a folder or file exists (a session's cwd, a fork's parent session). */
  exists(path: string): boolean;
  /** The time now, for dates that lie impossibly in the future (implausible.ts); `Date.now()` when absent. */
  nowMs?: number;
  /** Other machines' path prefixes mapped to this one: a folder recorded there is looked for here. */
  pathMap?: PathMap;
  /** This machine's home, where a missing folder's tail is looked for (path suggestions); `homedir()` when absent. */
  home?: string;
}

export const FS_ENVIRONMENT: CheckEnvironment = {
  exists(path) {
    try {
      statSync(path);
      return true;
    } catch {
      return false;
    }
  },
};

/** Audits one file. Never throws for file problems, never writes. */
export function checkFile(path: string, env: CheckEnvironment = FS_ENVIRONMENT): FileCheck {
  let size: number;
  try {
    const stats = lstatSync(path);
    // A symlink is followed like pi follows it; only what it leads to is judged.
    const target = stats.isSymbolicLink() ? statSync(path) : stats;
    if (!target.isFile())
      return unread(path, checkProblem(path, 0, 'not-regular', `not a regular file (${fileKind(target)}); not opened`));
    size = target.size;
  } catch (error) {
    return unread(path, checkProblem(path, 0, 'unreadable', `cannot read: ${describeFsError(error)}`));
  }
  if (size > TOO_LARGE_TO_AUDIT_BYTES) {
    return unread(
      path,
      checkProblem(
        path,
        0,
        'too-large',
        `${formatBytes(size)}: too large to audit line by line (over ${formatBytes(TOO_LARGE_TO_AUDIT_BYTES)})`,
      ),
    );
  }
  // Bytes of each physical line (index = line number), for the health figures.
  const lineBytes: number[] = [];
  const collector = new SessionCollector({ lineBytes });
  const scanned = scanFromSync(path, collector.scanOptions());
  if ('ok' in scanned) return unread(path, fromNotASession(scanned));
  const result = collector.finish(path, scanned.size, scanned.mtimeMs, scanned.endsWithNewline, scanned);
  if (!result.ok) return unread(path, fromNotASession(result));
  return auditSession(result, lineBytes, env);
}

function unread(path: string, problem: CheckProblem): FileCheck {
  return { path, sessionId: null, title: null, cwd: null, problems: [problem], health: null };
}

/** The audit of a session already read (pure but for `env`). */
export function auditSession(session: LoadedSession, lineBytes: readonly number[], env: CheckEnvironment): FileCheck {
  const { path, header } = session;
  const tree = buildTree(session);
  const problems = fromReaderProblems(path, [...session.problems, ...tree.problems]);
  const latestMs = latestPlausibleMs(env.nowMs ?? Date.now(), session.mtimeMs);
  // The tree shows a self-parent as a root without complaint; pi's path walk loops on it forever.
  for (let i = 0; i < session.entries.length; i++) {
    const entry = session.entries[i]!;
    if (entry.parentId === entry.id)
      problems.push(checkProblem(path, session.entryLines[i] ?? 0, 'cycle', `${entry.id} is its own parent`));
    // A format feature, not damage; but pi 1.6.0 builds another context from it, and says nothing.
    const retained = entry.type === 'compaction' ? retainedTailOf(entry) : undefined;
    if (retained)
      problems.push(
        checkProblem(
          path,
          session.entryLines[i] ?? 0,
          'retained-tail',
          retained.length > 0
            ? `compaction ${entry.id} keeps ${plural(retained.length, 'message')} in retainedTail, which pi 1.6.0 leaves out of the model's context`
            : `compaction ${entry.id} has an empty retainedTail (keep nothing from before); pi 1.6.0 ignores it and keeps the entries from firstKeptEntryId`,
        ),
      );
    const hidden = piListingFailure(entry);
    if (hidden) problems.push(checkProblem(path, session.entryLines[i] ?? 0, 'hidden-by-pi', hidden));
    for (const value of impossibleValuesOf(entry, latestMs))
      problems.push(
        checkProblem(
          path,
          session.entryLines[i] ?? 0,
          'impossible-value',
          `${value.field} is ${value.value}: ${value.why}; left out of pi-sessions stats`,
        ),
      );
  }
  if (session.diskVersion < CURRENT_VERSION) {
    problems.push(
      checkProblem(
        path,
        1,
        'legacy-version',
        `format v${session.diskVersion}, not yet migrated to v${CURRENT_VERSION}`,
      ),
    );
  }
  const pathMap = env.pathMap ?? [];
  const parent = header.parentSession;
  if (typeof parent === 'string' && parent !== '') {
    const parentPath = isAbsolute(parent) ? mapPath(pathMap, parent) : join(dirname(path), parent);
    if (!env.exists(parentPath))
      problems.push(checkProblem(path, 1, 'parent-session-missing', `forked from ${parent}, which no longer exists`));
  }
  const cwd = typeof header.cwd === 'string' ? header.cwd : '';
  const localCwd = cwd === '' ? cwd : mapPath(pathMap, cwd);
  if (cwd !== '' && !env.exists(localCwd)) {
    const mapped = localCwd === cwd ? '' : ` (mapped to ${localCwd})`;
    problems.push(checkProblem(path, 1, 'cwd-missing', `its project folder ${cwd}${mapped} no longer exists`));
  }
  if (session.size > SLOW_FOR_PI_BYTES) {
    problems.push(
      checkProblem(
        path,
        0,
        'slow-for-pi',
        `${formatBytes(session.size)} (pi is slow past ${formatBytes(SLOW_FOR_PI_BYTES)})`,
      ),
    );
  }
  problems.sort((a, b) => a.line - b.line);
  const title = tree.sessionName ?? firstPrompt(session.entries);
  return { path, sessionId: header.id, title, cwd, problems, health: healthOf(session, lineBytes) };
}

/** An entry's impossible date and usage figures (what stats leaves out). */
function impossibleValuesOf(entry: SessionEntry, latestMs: number): ImplausibleValue[] {
  const time = impossibleTimestamp(entry.timestamp, latestMs);
  const usage = usageOf(entry);
  const figures = usage === undefined ? [] : implausibleUsageValues(usage, usageFieldOf(entry));
  return time ? [time, ...figures] : figures;
}

function healthOf(session: LoadedSession, lineBytes: readonly number[]): SessionHealth {
  let compactions = 0;
  let toolOutputBytes = 0;
  const largestEntries: SessionHealth['largestEntries'] = [];
  let previousLine = -1;
  for (let i = 0; i < session.entries.length; i++) {
    const entry = session.entries[i]!;
    const line = session.entryLines[i] ?? 0;
    // Glued entries share a line: its bytes are counted once, for the first of them.
    const bytes = line === previousLine ? 0 : (lineBytes[line] ?? 0);
    previousLine = line;
    if (entry.type === 'compaction') compactions++;
    const message = entry['message'];
    if (
      entry.type === 'message' &&
      message !== null &&
      typeof message === 'object' &&
      (message as { role?: unknown }).role === 'toolResult'
    )
      toolOutputBytes += bytes;
    keepLargest(largestEntries, { line, id: entry.id, type: entry.type, bytes });
  }
  return {
    size: session.size,
    entries: session.entries.length,
    compactions,
    toolOutputBytes,
    toolOutputShare: session.size > 0 ? Math.round((toolOutputBytes / session.size) * 1000) / 1000 : 0,
    largestEntries,
  };
}

export interface CheckReport {
  /** The folder searched, or the one session's path. */
  searched: string;
  files: FileCheck[];
  /** Set when the folder cannot be read: a one-line reason. */
  dirProblem?: string;
  /** Mappings worth making (`map-path`); absent for one session's check. */
  pathSuggestions?: PathSuggestion[];
}

/** The environment with the locations' path map (a caller's own map wins). */
function withPathMap(env: CheckEnvironment, locations: Locations): CheckEnvironment {
  return env.pathMap !== undefined || locations.pathMap === undefined ? env : { ...env, pathMap: locations.pathMap };
}

/** The mappings the files' recorded folders suggest (see path-suggestions.ts). */
function suggestionsOf(files: readonly FileCheck[], env: CheckEnvironment): PathSuggestion[] {
  return suggestPathMappings({
    sessions: files.flatMap((f) => (f.cwd === null ? [] : [{ project: dirname(f.path), cwd: f.cwd }])),
    home: env.home ?? homedir(),
    pathMap: env.pathMap ?? [],
    exists: (path) => env.exists(path),
  });
}

/** Audits every `.jsonl` file pi would look at: this folder's sessions, or every project's. */
export function checkStore(
  locations: Locations,
  scope: 'cwd' | 'all',
  given: CheckEnvironment = FS_ENVIRONMENT,
): CheckReport {
  const env = withPathMap(given, locations);
  const discovery = discoverSessionFiles(locations, scope);
  const report: CheckReport = {
    searched: discovery.searched,
    files: discovery.files.map((path) => checkFile(path, env)),
  };
  if (discovery.dirProblem) report.dirProblem = discovery.dirProblem;
  addConflictProblems(report.files);
  report.pathSuggestions = suggestionsOf(report.files, env);
  return report;
}

/**
 * Conflict copies are a fact about a folder, not one file: each group's warning goes on its
 * original (the copies are listed in it), among that file's own problems.
 */
export function addConflictProblems(files: FileCheck[]): void {
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const problem of conflictProblems(findConflictGroups(files.map((f) => f.path)))) {
    const file = byPath.get(problem.path);
    if (!file) continue;
    file.problems.push(problem);
    file.problems.sort((a, b) => a.line - b.line);
  }
}

/**
 * The audit of a picker scope (this folder, and sub-folders, or all projects), a file per
 * event-loop turn so a screen stays live while it runs; `onProgress` after each file. Stops
 * (resolving with what was checked) when `signal` aborts.
 */
export async function checkScope(
  locations: Locations,
  scope: ListScope,
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void; env?: CheckEnvironment } = {},
): Promise<CheckReport> {
  const env = withPathMap(options.env ?? FS_ENVIRONMENT, locations);
  const discovery = discoverSessionFiles(locations, scope);
  const report: CheckReport = { searched: discovery.searched, files: [] };
  if (discovery.dirProblem) report.dirProblem = discovery.dirProblem;
  for (const path of discovery.files) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (options.signal?.aborted) break;
    report.files.push(checkFile(path, env));
    options.onProgress?.(report.files.length, discovery.files.length);
  }
  if (!options.signal?.aborted) {
    addConflictProblems(report.files);
    report.pathSuggestions = suggestionsOf(report.files, env);
  }
  return report;
}
