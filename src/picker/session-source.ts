/**
 * The one module of the picker that talks to the session store. The screen receives a
 * `SessionSource` (tests inject a fake one), so everything above this file is store-agnostic.
 *
 * - Listing streams: sessions are batched and published newest-first at most every
 *   PUBLISH_INTERVAL_MS (the first one at once, so the first rows paint early). Reading stands
 *   aside while the user types (src/terminal/key-pause.ts).
 * - Listing is stale-while-revalidate over the catalogue (src/catalog): its rows are published at
 *   once, then corrected as files are checked (changed rows replaced by path, deleted ones
 *   dropped). Unchanged rows stay the same objects, so text already prepared for search is kept.
 * - The preview reads a whole session file; results are kept in a small LRU keyed by path, size
 *   and mtime, so moving the cursor back and forth never re-reads a file. Files above
 *   PREVIEW_MAX_BYTES are not read at all (parsing them would stall input on the one JS thread).
 */
import { listSessionsCached } from '../catalog/list.js';
import { scanStoreSecretsCached } from '../catalog/secrets.js';
import { type ExportOutcome, exportToFile } from '../export/run.js';
import type { ExportRequestBody } from '../state/export-dialog.js';
import type { RedoRequest, UndoRequest } from '../state/journal-undo.js';
import {
  buildContext,
  buildTree,
  type ConflictAdds,
  type ConflictGroup,
  type ConflictMergePlan,
  type ConflictMergeResult,
  describeConflictAdds,
  isAsWeLeftIt,
  isGoneSync,
  type JsonObject,
  type Locations,
  loadOwnStates,
  mergeConflictGroup,
  planConflictMerge,
  planSlim,
  type RedoStep,
  readSession,
  redoStep,
  renameSession,
  type SessionInfo,
  type SlimPlan,
  type SlimResult,
  slimSession,
  type TrashOutcome,
  trashSessions,
  type UndoStep,
  undoStep,
} from '../store/index.js';
import { keyPauseMs } from '../terminal/key-pause.js';
import { markedOwnWrite } from './own-write.js';
import type { Scope } from './reducer.js';

export interface ListSummary {
  sessions: SessionInfo[];
  searched: string;
  dirMissing?: boolean;
  problem?: string;
  skipped: number;
}

export interface PreviewTurn {
  role: 'user' | 'assistant';
  text: string;
}

export interface PreviewData {
  /** The last turns of the active path, oldest first. */
  turns: PreviewTurn[];
  /** Why turns are missing (large file, unreadable), if they are. */
  note?: string;
}

export interface SessionSource {
  /**
   * Lists a scope; `onSessions` gets the growing list (newest first) while it loads. It may return
   * a promise that settles once that list is on the screen: the first one (a warm start's rows)
   * is waited for before the files are checked.
   */
  list(
    scope: Scope,
    onSessions: (sessions: SessionInfo[], loaded: number, total: number) => void | Promise<void>,
    signal: AbortSignal,
  ): Promise<ListSummary>;
  /** Returns the name as stored ("" clears: undefined), the journal record's id, and the journal's warning when the rename could not be recorded. */
  rename(path: string, name: string): Promise<{ name: string | undefined; changeId?: string; journalWarning?: string }>;
  trash(paths: string[], permanent: boolean): Promise<TrashOutcome>;
  /** Ctrl+Z: the journal's latest change (store undoStep, over this source's sessions folders). */
  undoStep(request: UndoRequest): Promise<UndoStep>;
  /** Ctrl+Y: the latest undo (store redoStep). */
  redoStep(request: RedoRequest): Promise<RedoStep>;
  /** "Keep only the active branch": measured first, then made (store slim.ts). */
  planSlim(path: string): Promise<SlimPlan>;
  slim(path: string): Promise<SlimResult>;
  preview(info: SessionInfo): Promise<PreviewData>;
  /**
   * A row's conflict copies (store sync/): what each file alone holds, for the preview; the merge
   * measured, then made. Without them (a test's source), nothing can be merged.
   */
  conflictAdds?(group: ConflictGroup, files: readonly SessionInfo[]): Promise<ConflictAdds>;
  planMerge?(group: ConflictGroup): Promise<ConflictMergePlan>;
  merge?(group: ConflictGroup): Promise<ConflictMergeResult>;
  /**
   * Whether a listed session's file was deleted or moved since it was listed (checked before
   * every action on it). Without it (a test's source), nothing is ever gone.
   */
  isGone?(path: string): boolean;
  /**
   * `has:secret`: the secret scan of a scope (as `check --secrets`, the catalogue answering for
   * unchanged files), as the number of findings by path of every file scanned. Without it (a
   * test's source), nothing has a secret.
   */
  scanSecrets?(
    scope: Scope,
    onProgress: (scanned: number, total: number) => void,
    signal: AbortSignal,
  ): Promise<Map<string, number>>;
  /**
   * The export of a session's active branch to a new file, as `pi-sessions export` makes it:
   * scanned first, and not written when it holds a secret and `secrets` is 'stop'. Without it (a
   * test's source), nothing can be exported.
   */
  exportSession?(request: ExportRequestBody): Promise<ExportOutcome>;
}

/** Redraws while a list loads: a few per second, so loading never competes with keys for frames. */
export const PUBLISH_INTERVAL_MS = 250;
/** The first paint from the catalogue: a screenful of the newest rows, before the whole list is sorted and laid out. */
export const FIRST_PAINT_ROWS = 100;
export const PREVIEW_MAX_BYTES = 24 * 1024 * 1024;
const PREVIEW_TURNS = 6;
const PREVIEW_CACHE_SIZE = 24;

const byModified = (a: SessionInfo, b: SessionInfo): number => b.modified.getTime() - a.modified.getTime();

/** Text blocks of a user/assistant message (thinking, tool calls and images left out). */
export function messageText(message: JsonObject): string {
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text)
    .join('\n');
}

/** A tiny LRU (Map keeps insertion order; a hit is re-inserted at the end). */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }
}

async function loadPreview(info: SessionInfo): Promise<PreviewData> {
  if (info.size > PREVIEW_MAX_BYTES)
    return { turns: [], note: 'Last turns not shown: the file is too large to read while browsing' };
  const read = await readSession(info.path);
  if (!read.ok) return { turns: [], note: `Cannot read the session: ${read.message}` };
  const context = buildContext(buildTree(read));
  const turns: PreviewTurn[] = [];
  for (let i = context.messages.length - 1; i >= 0 && turns.length < PREVIEW_TURNS; i--) {
    const message = context.messages[i];
    const role = message?.['role'];
    if (!message || (role !== 'user' && role !== 'assistant')) continue;
    const text = messageText(message).trim();
    if (text !== '') turns.unshift({ role, text });
  }
  return { turns };
}

export interface StoreSourceOptions {
  /** false (`--no-cache`): list without the catalogue, never touching the cache folder. */
  cache?: boolean;
}

/** The real source over the store at `locations`. */
export function createStoreSource(locations: Locations, options: StoreSourceOptions = {}): SessionSource {
  const previews = new Lru<string, Promise<PreviewData>>(PREVIEW_CACHE_SIZE);
  const conflictAdds = new Lru<string, Promise<ConflictAdds>>(PREVIEW_CACHE_SIZE);
  return {
    async list(scope, onSessions, signal) {
      const ours = await loadOwnStates();
      // A row whose file is as our last journalled write left it is marked, on a copy: the
      // catalogue keeps the reader's objects.
      const mark = (info: SessionInfo): SessionInfo =>
        isAsWeLeftIt(ours.get(info.path), info) ? markedOwnWrite(info) : info;
      // By path: a revalidated row replaces its cached one in place (Map keeps the first position).
      const arrived = new Map<string, SessionInfo>();
      let loaded = 0;
      let total = 0;
      let timer: NodeJS.Timeout | undefined;
      let published = false;
      const publish = (): void => {
        timer = undefined;
        published = true;
        onSessions([...arrived.values()].sort(byModified), loaded, total);
      };
      const changed = (): void => {
        if (!published) publish();
        else timer ??= setTimeout(publish, PUBLISH_INTERVAL_MS);
      };
      try {
        const result = await listSessionsCached(locations, {
          scope,
          signal,
          cache: options.cache ?? true,
          pause: keyPauseMs,
          onCached: (sessions, partial) => {
            for (const info of sessions) arrived.set(info.path, mark(info));
            if (sessions.length === 0) return;
            // The newest rows were painted from the catalogue's head: every row follows as below.
            if (published && !partial) {
              timer ??= setTimeout(publish, PUBLISH_INTERVAL_MS);
              return;
            }
            // `sessions` is newest first: a screenful paints at once (listSessionsCached lets it
            // render before revalidating). The whole list comes with the end of the load, or after
            // PUBLISH_INTERVAL_MS if that takes longer: laying out every row is what a key typed
            // right after the first rows would otherwise wait for.
            published = true;
            const painted = onSessions(
              sessions.slice(0, FIRST_PAINT_ROWS).map((info) => arrived.get(info.path)!),
              loaded,
              total,
            );
            if (sessions.length > FIRST_PAINT_ROWS && !partial) timer ??= setTimeout(publish, PUBLISH_INTERVAL_MS);
            return painted;
          },
          onSession: (info) => {
            arrived.set(info.path, mark(info));
            changed();
          },
          onRemove: (path) => {
            if (arrived.delete(path)) changed();
          },
          onProgress: (done, all) => {
            loaded = done;
            total = all;
          },
        });
        // The catalogue is saved in the background; a failed save only costs the next start time.
        void result.saved;
        const summary: ListSummary = {
          sessions: result.sessions.map(mark),
          searched: result.searched,
          skipped: result.skipped.length,
        };
        if (result.dirMissing) summary.dirMissing = true;
        if (result.dirProblem) summary.problem = result.dirProblem;
        return summary;
      } finally {
        if (timer) clearTimeout(timer);
      }
    },
    async rename(path, name) {
      const result = await renameSession(path, name);
      return {
        name: result.name,
        changeId: result.changeId,
        ...(result.journalWarning ? { journalWarning: result.journalWarning } : {}),
      };
    },
    trash: (paths, permanent) => trashSessions(paths, { permanent }),
    undoStep: (request) => undoStep({ locations }, request),
    redoStep: (request) => redoStep({ locations }, request),
    planSlim: (path) => planSlim(path),
    slim: (path) => slimSession(path),
    planMerge: (group) => planConflictMerge(group),
    merge: (group) => mergeConflictGroup(group),
    conflictAdds(group, files) {
      // Keyed by every file's path, size and mtime: a copy that changed is read again.
      const key = files.map((info) => `${info.path}\u0000${info.size}\u0000${info.mtimeMs}`).join('\u0000');
      let pending = conflictAdds.get(key);
      if (!pending) {
        pending = describeConflictAdds(group);
        conflictAdds.set(key, pending);
      }
      return pending;
    },
    isGone: isGoneSync,
    exportSession: exportToFile,
    async scanSecrets(scope, onProgress, signal) {
      const report = await scanStoreSecretsCached(locations, scope, {
        cache: options.cache ?? true,
        signal,
        onProgress,
      });
      // Saved in the background: a failed save only costs the next scan its time.
      void report.saved;
      return new Map(report.files.filter((f) => !f.problem).map((f) => [f.path, f.findings.length]));
    },
    preview(info) {
      const key = `${info.path}\u0000${info.size}\u0000${info.mtimeMs}`;
      let pending = previews.get(key);
      if (!pending) {
        pending = loadPreview(info).catch((error: unknown) => ({
          turns: [],
          note: `Cannot read the session: ${error instanceof Error ? error.message : String(error)}`,
        }));
        previews.set(key, pending);
      }
      return pending;
    },
  };
}
