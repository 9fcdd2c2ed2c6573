/**
 * `listSessionsCached`: the listing of `listSessions` (same sessions, same order, same skipped
 * files), served stale-while-revalidate from the catalogue.
 *
 * 1. Paint: the catalogue's rows for the scope go out at once (`onCached`), before any `stat`:
 *    first those of its head (the newest records of the store, meta-pieces.ts) when they fill a
 *    screen, or for one project those of its folder's pieces, while the rest is parsed; then all.
 * 2. Revalidate: discovery stats every file (the tree scopes already do for pi's order); a file
 *    whose size, mtime and inode match its record keeps its row (the same object), a deleted one
 *    is removed (`onRemove`), a file that only grew is resumed from its last line (reading only
 *    the new bytes), anything else is read in full (`onSession` for each new or changed row).
 * 3. Save: when anything changed, the catalogue is rewritten in the background (`saved`).
 *
 * With `cache: false` it is `listSessions` itself and the cache folder is never touched.
 */
import { type Stats, statSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  createSlicer,
  cwdSessionDirs,
  discoverSessionFilesSliced,
  type FileIo,
  inScope,
  type ListOptions,
  type ListResult,
  type Locations,
  listSessions,
  type NotASession,
  nodeIo,
  type SessionInfo,
  type Summarised,
  sortByModified,
  summarizeAppended,
  summarizeFull,
} from '../store/index.js';
import { type Catalogue, catalogueDir, catalogueFile, openCatalogue } from './file.js';
import { type CatalogueRecord, RACY_MS, secretsOfFile, toSessionRecord } from './format.js';
import { CatalogueSink, copyOf, type PlannedRecord } from './writer.js';

export interface CachedListOptions extends ListOptions {
  /** false: no catalogue at all (`--no-cache`); nothing under the cache folder is read or written. */
  cache?: boolean;
  /** Where catalogues live (default `catalogueDir(env)`). */
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
  /** The file reader for session files (tests and the bench count bytes through it). */
  io?: FileIo;
  /**
   * The catalogue's rows for the scope, newest first, before anything is checked. A painter may
   * return a promise that settles once the rows are on the screen: checking waits for it (at most
   * PAINT_WAIT_MS), since stat'ing every file blocks the event loop for tens of milliseconds.
   * `partial`: the rows of what is parsed of the catalogue so far (the newest of the store, at least
   * HEAD_PAINT_ROWS of them, or a project's folder), while the rest is parsed; the call with every
   * row follows.
   */
  onCached?: (sessions: SessionInfo[], partial: boolean) => void | Promise<void>;
  /** A row delivered earlier (by `onCached` or `onSession`) is gone: deleted, no longer a session, out of scope. */
  onRemove?: (path: string) => void;
}

export interface RefreshStats {
  /** 'off': --no-cache; 'missing': none or unusable (rebuilt); 'loaded': a valid catalogue was used. */
  catalogue: 'off' | 'missing' | 'loaded';
  /** Rows painted from the catalogue before checking. */
  cached: number;
  unchanged: number;
  /** Files that only grew and were resumed from their last line. */
  appended: number;
  /** Files in the catalogue read again in full (shrunk, rewritten, replaced, unresumable). */
  reread: number;
  /** Files not in the catalogue. */
  added: number;
  /** Catalogue rows whose file is gone. */
  removed: number;
  /** Records of the catalogue left out as untrustworthy (edited, malformed): their files are read like new ones. */
  dropped: number;
}

export interface CachedListResult extends ListResult {
  stats: RefreshStats;
  /** Settles when the catalogue has been written: true if it was, false if nothing changed or it could not be. Never rejects. */
  saved: Promise<boolean>;
}

/** The longest a listing waits for its painter (a paint that never comes must not stall it). */
const PAINT_WAIT_MS = 100;
/**
 * The fewest rows of the scope in the catalogue's head for a paint from it alone: a tall terminal's
 * screenful. The head holds the newest sessions of the whole store, so a scope's rows in it are its
 * newest; a project's may be too few, and then its rows paint from its folder's pieces.
 */
export const HEAD_PAINT_ROWS = 64;

/** Waits for a paint (at most PAINT_WAIT_MS), or for a turn of the event loop when there is nothing to wait for. */
async function painted(paint: void | Promise<void>): Promise<void> {
  if (paint) await Promise.race([paint, new Promise<void>((resolve) => setTimeout(resolve, PAINT_WAIT_MS))]);
  else await new Promise<void>((resolve) => setImmediate(resolve));
}

function isSession(value: SessionInfo | NotASession): value is SessionInfo {
  return !('ok' in value);
}

function recordOf(s: Summarised, readAtMs: number): CatalogueRecord {
  const record: CatalogueRecord = { p: s.result.path, z: s.size, m: s.mtimeMs, i: s.ino };
  if (readAtMs - s.mtimeMs < RACY_MS) record.y = 1;
  if (isSession(s.result)) record.s = toSessionRecord(s.result);
  else record.x = { reason: s.result.reason, message: s.result.message };
  return record;
}

/** Whether a record's listing still holds (a record of a secret scan alone has no listing). */
function unchanged(record: CatalogueRecord, stat: Stats | undefined): boolean {
  return (
    (record.s !== undefined || record.x !== undefined) &&
    stat?.isFile() === true &&
    record.y === undefined &&
    record.z === stat.size &&
    record.m === stat.mtimeMs &&
    record.i === stat.ino
  );
}

/** Re-reads one changed or new file: resumed when it only grew, else in full. */
function refresh(
  path: string,
  record: CatalogueRecord | undefined,
  stat: Stats | undefined,
  cat: Catalogue | undefined,
  io: FileIo,
): { s: Summarised; appended: boolean } {
  if (cat && record?.s && record.r && stat && stat.ino === record.i && stat.size > record.z) {
    const point = cat.resumePoint(record);
    const previous = cat.info(record);
    if (point && isSession(previous)) {
      const s = summarizeAppended(path, previous, point, record.i, io);
      if (s) return { s, appended: true };
    }
  }
  return { s: summarizeFull(path, io), appended: false };
}

export async function listSessionsCached(locations: Locations, options: CachedListOptions): Promise<CachedListResult> {
  const { scope, signal } = options;
  signal?.throwIfAborted();
  const stats: RefreshStats = {
    catalogue: 'off',
    cached: 0,
    unchanged: 0,
    appended: 0,
    reread: 0,
    added: 0,
    removed: 0,
    dropped: 0,
  };
  if (options.cache === false) {
    const result = await listSessions(locations, options);
    return { ...result, stats, saved: Promise.resolve(false) };
  }
  const io = options.io ?? nodeIo;
  // One catalogue per root: the picker's three scopes share it, a custom dir has its own.
  const root = locations.customDir ? locations.sessionDir : locations.sessionsRoot;
  const file = catalogueFile(options.cacheDir ?? catalogueDir(options.env), root);
  const cat = openCatalogue(file, root);
  stats.catalogue = cat ? 'loaded' : 'missing';
  // Keeps the catalogue's file open until the save has copied the unchanged bytes from it.
  cat?.hold();
  /** The new catalogue, written as files are read (opened on the first change; null: it cannot be). */
  let sink: CatalogueSink | undefined | null;
  const openSink = (): CatalogueSink | undefined => {
    if (sink === undefined) sink = CatalogueSink.open(file, root) ?? null;
    return sink ?? undefined;
  };
  try {
    return await revalidate();
  } catch (error) {
    cat?.release();
    sink?.abandon();
    throw error;
  }

  async function save(wanted: boolean, plan: PlannedRecord[]): Promise<boolean> {
    if (!wanted) {
      sink?.abandon();
      return false;
    }
    return openSink()?.finish(plan, cat, options.pause) ?? false;
  }

  async function revalidate(): Promise<CachedListResult> {
    const flat = scope === 'cwd' || locations.customDir;
    const searched = flat ? locations.sessionDir : locations.sessionsRoot;
    // The files discovery can return; catalogue rows elsewhere are kept untouched.
    const flatDirs = scope === 'cwd' ? cwdSessionDirs(locations) : [searched];
    const inSearched = (path: string): boolean =>
      flat ? flatDirs.includes(dirname(path)) : dirname(dirname(path)) === searched;

    // 1. Paint: from the head while the rest of the catalogue is parsed, when it holds a screenful
    // of the scope; then every row.
    const delivered = new Set<string>();
    // Turns of the event loop for keys, but no standing aside while they come: until every row is
    // in, a search only sees the head's.
    const paintSlice = createSlicer();
    const rowsOfScope = async (records: Iterable<CatalogueRecord>, into: SessionInfo[]): Promise<void> => {
      for (const record of records) {
        if (!cat || !record.s || !inSearched(record.p)) continue;
        await paintSlice();
        const info = cat.info(record);
        if (isSession(info) && inScope(info, locations, scope)) {
          into.push(info);
          delivered.add(record.p);
        } else {
          cat.discard(info);
        }
      }
    };
    if (cat && options.onCached && !cat.complete) {
      let first: SessionInfo[] = [];
      await rowsOfScope(cat.records.values(), first);
      // One project: its own folder's pieces hold its rows, whatever the head has of them.
      const ownFolders = first.length < HEAD_PAINT_ROWS && scope === 'cwd' && !locations.customDir;
      if (ownFolders) {
        cat.loadFolders(flatDirs);
        first = [];
        await rowsOfScope(cat.records.values(), first);
      }
      if (first.length >= HEAD_PAINT_ROWS || (ownFolders && first.length > 0))
        await painted(options.onCached(sortByModified(first), true));
      signal?.throwIfAborted();
    }
    await cat?.loadRest(paintSlice);
    stats.dropped = cat?.dropped ?? 0;
    if (cat && options.onCached) {
      const rows: SessionInfo[] = [];
      await rowsOfScope(cat.records.values(), rows);
      stats.cached = rows.length;
      // The caller paints these rows before every file is stat'ed. A turn of the event loop is
      // not enough: React schedules the render after whatever is queued now (first rows of 10,000
      // sessions came at ~540 ms, after the stat'ing, instead of ~360 ms).
      await painted(options.onCached(sortByModified(rows), false));
      signal?.throwIfAborted();
    }

    // 2. Revalidate.
    // Sliced: keys typed at the first rows are not held up by stat'ing every file.
    const discovery = await discoverSessionFilesSliced(locations, scope, createSlicer(undefined, options.pause));
    const { files } = discovery;
    const found = new Set(files);
    const plan: PlannedRecord[] = [];
    // Dropped records are rewritten from their files: the catalogue must be saved again.
    let changed = !cat || cat.dropped > 0;
    if (cat) {
      for (const record of cat.records.values()) {
        if (!inSearched(record.p)) {
          // Not ours to check in this scope: carried over as it is (its bytes are copied).
          plan.push(copyOf(record));
        } else if (!found.has(record.p)) {
          stats.removed++;
          changed = true;
          if (delivered.delete(record.p)) {
            cat.discard(cat.info(record));
            options.onRemove?.(record.p);
          }
        }
      }
    }
    const results: (SessionInfo | NotASession)[] = [];
    // What to write for files that were (re-)read; unchanged ones are planned after the loop, and
    // only if anything changed at all (a warm start with no change builds no plan).
    const fresh = new Map<string, PlannedRecord>();
    const slice = createSlicer(undefined, options.pause);
    for (let index = 0; index < files.length; index++) {
      await slice();
      signal?.throwIfAborted();
      const path = files[index]!;
      let stat = discovery.stats?.get(path);
      if (!stat) {
        try {
          stat = statSync(path);
        } catch {
          // Vanished since discovery: reading it reports that.
        }
      }
      const record = cat?.records.get(path);
      let info: SessionInfo | NotASession;
      if (cat && record && unchanged(record, stat)) {
        stats.unchanged++;
        info = cat.info(record);
      } else {
        changed = true;
        const { s, appended } = refresh(path, record, stat, cat, io);
        if (appended) stats.appended++;
        else if (record?.s || record?.x) stats.reread++;
        else stats.added++;
        info = s.result;
        const planned: PlannedRecord = { record: recordOf(s, Date.now()) };
        // A secret scan of the file as it is now (check --secrets may have run since the last listing) is kept.
        const k = record?.k;
        if (k && secretsOfFile(k, planned.record.z, planned.record.m, planned.record.i)) planned.record.k = k;
        // Its bytes go to the new catalogue now (a listing that cannot save keeps nothing for it).
        const out = discovery.dirProblem ? undefined : openSink();
        if (isSession(info)) {
          const t = out?.appendTexts(info);
          if (out && t && planned.record.s) {
            planned.text = { written: t };
            info = out.rowReadingBack(info, planned.record.s, t);
          } else planned.text = info;
        }
        const r = s.resume && out?.appendResume(path, JSON.stringify(s.resume));
        if (r) planned.resume = { written: r };
        fresh.set(path, planned);
        if (record && cat) cat.discard(cat.info(record));
      }
      results.push(info);
      if (isSession(info) && inScope(info, locations, scope)) {
        // An unchanged row was painted already (the same object); a changed one replaces it.
        if (!delivered.has(path) || info !== (record && cat?.info(record))) options.onSession?.(info);
        delivered.add(path);
      } else if (delivered.delete(path)) {
        options.onRemove?.(path);
      }
      options.onProgress?.(index + 1, files.length);
    }

    if (changed) {
      for (const info of results) {
        const planned = fresh.get(info.path);
        if (planned) {
          // A vanished file is not remembered: discovery will not list it next time either.
          if (isSession(info) || info.reason !== 'not-found') plan.push(planned);
          continue;
        }
        const record = cat?.records.get(info.path);
        if (record) plan.push(copyOf(record));
      }
    }
    const sessions: SessionInfo[] = [];
    const skipped: NotASession[] = [];
    for (const result of results) {
      if (!isSession(result)) skipped.push(result);
      else if (inScope(result, locations, scope)) sessions.push(result);
    }
    const out: CachedListResult = {
      sessions: sortByModified(sessions),
      skipped,
      searched: discovery.searched,
      stats,
      // 3. Save (in the background: the caller has its list already).
      saved: save(changed && !discovery.dirProblem, plan).finally(() => {
        cat?.release();
        // Listed and saved: the records are not asked again, and the rows keep what they need of
        // them (at 50,000 sessions the records were tens of MB the picker kept for nothing).
        cat?.records.clear();
      }),
    };
    if (discovery.dirProblem) out.dirProblem = discovery.dirProblem;
    if (discovery.dirMissing) out.dirMissing = true;
    return out;
  }
}
