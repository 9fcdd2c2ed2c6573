/**
 * Where the tree finds a session's forks and parent without reading every file: the
 * sessions the app already listed and the catalogue's records carry each header's
 * `parentSession`; only the few sessions named there are then read, to find the fork point
 * (tree/fork-nodes.ts `forkPoint`). The catalogue is read once per app, after the tree is drawn.
 */
import { basename, isAbsolute, resolve } from 'node:path';
import {
  type LoadedSession,
  type Locations,
  type ReadResult,
  readSession,
  type SessionInfo,
  type SessionTree,
  sessionTitle,
} from '../store/index.js';
import { entriesAfter, type ForkLink, forkPoint, type Lineage, type ParentLink } from '../tree/fork-nodes.js';
import { catalogueDir, catalogueFile, loadCatalogue } from './file.js';

/** What the lineage needs of a listed session. */
export interface LineageSession {
  readonly path: string;
  readonly title: string;
  readonly parentSessionPath: string | undefined;
}

export function lineageOf(
  info: Pick<SessionInfo, 'path' | 'name' | 'firstMessage' | 'parentSessionPath'>,
): LineageSession {
  return { path: info.path, title: sessionTitle(info), parentSessionPath: info.parentSessionPath };
}

/**
 * Every session the catalogue of `locations` records (none without a usable catalogue); the file
 * is closed again. `cacheDir`: where catalogues live (default `catalogueDir(env)`).
 */
export function catalogueSessions(
  locations: Locations,
  env: NodeJS.ProcessEnv = process.env,
  cacheDir: string = catalogueDir(env),
): LineageSession[] {
  const root = locations.customDir ? locations.sessionDir : locations.sessionsRoot;
  const catalogue = loadCatalogue(catalogueFile(cacheDir, root), root);
  if (!catalogue) return [];
  const out: LineageSession[] = [];
  for (const record of catalogue.records.values()) {
    const s = record.s;
    if (s)
      out.push(
        lineageOf({
          path: record.p,
          name: s.name,
          firstMessage: s.firstMessage,
          parentSessionPath: s.parentSessionPath,
        }),
      );
  }
  // No row was handed out, so nothing holds the file: this closes it.
  catalogue.hold();
  catalogue.release();
  return out;
}

/** One entry per path; the first source wins (the app's fresh rows before the catalogue's). */
export function mergeSessions(...sources: readonly (readonly LineageSession[])[]): LineageSession[] {
  const byPath = new Map<string, LineageSession>();
  for (const source of sources) for (const s of source) if (!byPath.has(s.path)) byPath.set(s.path, s);
  return [...byPath.values()];
}

export type SessionReader = (path: string) => Promise<ReadResult>;

/** `resolve(path)`, without its cost for the absolute, already normal paths listings hold (10,000 per lookup). */
function normalPath(path: string): string {
  return isAbsolute(path) && !/\/\.{0,2}(?:\/|$)/.test(path) ? path : resolve(path);
}

/**
 * The listed session a recorded `parentSession` means: that path when it is listed; else, as the
 * path is "as it was at fork time" and a store can be moved or restored elsewhere, the one listed
 * session with the same file name (pi names files `<time>_<session id>.jsonl`); else the path
 * as recorded. Built once per lookup: the listing is indexed by path and by file name.
 */
export function parentResolver(known: readonly LineageSession[]): (recorded: string) => string {
  const listed = new Set<string>();
  const byName = new Map<string, string | null>();
  for (const s of known) {
    const path = normalPath(s.path);
    listed.add(path);
    const name = basename(path);
    // null: two listed files have this name, so a moved path cannot be told apart.
    byName.set(name, byName.has(name) ? null : path);
  }
  return (recorded) => {
    const path = normalPath(recorded);
    if (listed.has(path)) return path;
    return byName.get(basename(path)) ?? path;
  };
}

/**
 * The forks of the session at `path` among `known` (each read once, for its fork point; a fork
 * whose file cannot be read, or shares no entry with this one, is left out) and its parent.
 */
export async function findLineage(
  path: string,
  session: LoadedSession,
  tree: SessionTree,
  known: readonly LineageSession[],
  read: SessionReader = readSession,
): Promise<Lineage> {
  const self = normalPath(path);
  const parentPathOf = parentResolver(known);
  const forks: ForkLink[] = [];
  for (const s of known) {
    if (s.parentSessionPath === undefined || parentPathOf(s.parentSessionPath) !== self || normalPath(s.path) === self)
      continue;
    const fork = await read(s.path);
    if (!fork.ok) continue;
    const entryId = forkPoint(fork.entries, tree.byId);
    if (entryId !== null)
      forks.push({ path: s.path, title: s.title, entryId, added: entriesAfter(fork.entries, entryId) });
  }
  let parent: ParentLink | undefined;
  const recorded = session.header.parentSession;
  const parentPath = typeof recorded === 'string' && recorded !== '' ? parentPathOf(recorded) : undefined;
  if (parentPath !== undefined && parentPath !== self) {
    const loaded = await read(parentPath);
    if (loaded.ok) {
      const ids = new Set(loaded.entries.map((e) => e.id));
      const title = known.find((s) => normalPath(s.path) === parentPath)?.title ?? parentPath;
      parent = { path: parentPath, title, entryId: forkPoint(session.entries, ids) };
    }
  }
  return { forks, parent };
}
