/**
 * pi's createBranchedSession (session-format.md §12), streamed: the source is scanned once for its
 * ids, parent links, labels and where each entry's line is (append-scan.ts), then only the lines of
 * the branch are read again and parsed. Nothing holds the whole session in memory and no tree is
 * built, so a fork of a 100 MB session keeps the screens live. The source is never written.
 */
import { constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { bytesSource, readAt, scanForAppend, type ByteSource, type EntryLink } from './append-scan.js';
import { isObject } from './entry.js';
import { StoreError } from './errors.js';
import { createWhole, removeStaleTemps } from './fs-write.js';
import { parseText } from './lines.js';
import { CURRENT_VERSION } from './migrate.js';
import { migratedText } from './migrate-file.js';
import { readSession } from './read.js';
import { openSession, readWhole, realSessionPath } from './session-file.js';
import { buildTree, getBranch } from './tree.js';
import type { JsonObject, SessionEntry } from './types.js';
import { newEntryId, uuidv7 } from './write.js';

/**
 * The ids root → `id` through parent links: up to a null, own or missing parent. Undefined when
 * the walk comes back to an entry already on the path (a parent cycle, which pi would hang on).
 */
function pathTo(links: ReadonlyMap<string, EntryLink>, id: string): string[] | undefined {
  const path: string[] = [];
  const seen = new Set<string>();
  for (let current: string | null = id; current !== null && links.has(current); ) {
    if (seen.has(current)) return undefined;
    path.push(current);
    seen.add(current);
    const parentId: string | null = links.get(current)!.parentId;
    current = parentId === current ? null : parentId;
  }
  return path.reverse();
}

/**
 * The branch through a parent cycle, cut where the tree view cuts it (tree.ts breakCycles), so a
 * fork copies what the screen shows. Needs the whole tree; only broken files get here.
 */
async function pathThroughCycle(path: string, id: string): Promise<string[]> {
  const session = await readSession(path);
  if (!session.ok) throw new StoreError('write-failed', `cannot fork ${path}: ${session.message}`);
  return getBranch(buildTree(session), id).map((e) => e.id);
}

/** Reads consecutive lines in one go when they are this close (most of a branch is). */
const GAP_BYTES = 64 * 1024;
const SPAN_BYTES = 256 * 1024;

/** The entries with these ids, parsed from their lines (`links`), in the order asked. */
async function readEntries(source: ByteSource, links: ReadonlyMap<string, EntryLink>, ids: readonly string[]): Promise<SessionEntry[]> {
  const wanted = ids.map((id) => ({ id, link: links.get(id)! })).sort((a, b) => a.link.start - b.link.start);
  const byId = new Map<string, SessionEntry>();
  for (let first = 0; first < wanted.length; ) {
    let last = first;
    while (last + 1 < wanted.length && wanted[last + 1]!.link.start - wanted[last]!.link.end <= GAP_BYTES && wanted[last + 1]!.link.end - wanted[first]!.link.start <= SPAN_BYTES) last++;
    const base = wanted[first]!.link.start;
    const bytes = await readAt(source, base, wanted[last]!.link.end - base);
    for (let i = first; i <= last; i++) {
      const { id, link } = wanted[i]!;
      const parsed = parseText(bytes.toString('utf8', link.start - base, link.end - base));
      const values = parsed.kind === 'object' ? [parsed.value] : parsed.kind === 'glued' ? parsed.values : [];
      const entry = values.findLast((v) => v['id'] === id);
      if (!entry) throw new StoreError('write-failed', `cannot fork: entry ${id} changed while it was being read`);
      byId.set(id, { ...entry, parentId: links.get(id)!.parentId } as SessionEntry);
    }
    first = last + 1;
  }
  return ids.map((id) => byId.get(id)!);
}

function hasConversation(entries: JsonObject[]): boolean {
  return entries.some((e) => {
    const role = isObject(e['message']) ? e['message']['role'] : undefined;
    return e['type'] === 'message' && (role === 'user' || role === 'assistant');
  });
}

/** About this many bytes of JSONL per chunk: a 100 MB fork is stringified a little at a time. */
const CHUNK_BYTES = 256 * 1024;

/** The objects as JSONL, in chunks of about CHUNK_BYTES, made as they are asked for. */
function* jsonlChunks(objects: readonly JsonObject[]): Generator<Buffer> {
  let lines: string[] = [];
  let length = 0;
  for (const object of objects) {
    const line = `${JSON.stringify(object)}\n`;
    lines.push(line);
    length += line.length;
    if (length >= CHUNK_BYTES) {
      yield Buffer.from(lines.join(''));
      lines = [];
      length = 0;
    }
  }
  if (lines.length > 0) yield Buffer.from(lines.join(''));
}

/**
 * The path to `entryId` (default: the leaf, like /clone) into a new file next to the source,
 * labels dropped and re-created at the end with their timestamps, the rest rechained,
 * `firstKeptEntryId` remapped, a v3 header with `parentSession`, the source's mode. A v1/v2
 * source is migrated in memory first (the ids we show). A fork that cannot be written whole
 * leaves no file.
 */
export async function forkSession(path: string, entryId?: string): Promise<{ path: string; id: string; entries: number }> {
  const source = resolve(path);
  const real = await realSessionPath(source);
  const { handle, stats } = await openSession(real, constants.O_RDONLY);
  let branch: SessionEntry[];
  let labels: ReadonlyMap<string, string>;
  let labelTimestamps: ReadonlyMap<string, string>;
  let header: JsonObject;
  try {
    let from: ByteSource = handle;
    let point = await scanForAppend(from, real, undefined, { links: true });
    if (point.diskVersion < CURRENT_VERSION) {
      from = bytesSource(migratedText(await readWhole(handle, real, point.size), real), stats);
      point = await scanForAppend(from, real, undefined, { links: true });
    }
    const leaf = entryId ?? point.leafId;
    if (leaf === null) throw new StoreError('no-entry', `${source}: nothing to fork yet (the session has no entries)`);
    if (!point.ids.has(leaf)) throw new StoreError('no-entry', `no entry ${leaf} in ${source}`);
    // v1/v2 files are chains once migrated: a cycle can only be in a v3 file, read from disk.
    branch = await readEntries(from, point.links!, pathTo(point.links!, leaf) ?? (await pathThroughCycle(real, leaf)));
    ({ labels, labelTimestamps, header } = point);
  } finally {
    await handle.close();
  }

  const kept: JsonObject[] = [];
  const replacementByLabel = new Map<string, string>();
  const pendingLabels: string[] = [];
  let previous: string | null = null;
  for (const entry of branch) {
    if (entry.type === 'label') {
      pendingLabels.push(entry.id);
      continue;
    }
    for (const labelId of pendingLabels) replacementByLabel.set(labelId, entry.id);
    pendingLabels.length = 0;
    const copy: JsonObject = { ...entry, parentId: previous };
    if (entry.type === 'compaction') {
      const firstKept = entry['firstKeptEntryId'];
      copy['firstKeptEntryId'] = firstKept === entry.id ? entry.id : (typeof firstKept === 'string' ? replacementByLabel.get(firstKept) : undefined) ?? firstKept;
    }
    kept.push(copy);
    previous = entry.id;
  }
  if (!hasConversation(kept)) {
    throw new StoreError('no-entry', `${source}: nothing to fork: the branch has no user or assistant message yet`);
  }
  const ids = new Set(kept.map((e) => e['id'] as string));
  const relabels: JsonObject[] = [];
  for (const [targetId, label] of labels) {
    if (!ids.has(targetId)) continue;
    const id = newEntryId(ids);
    ids.add(id);
    relabels.push({ type: 'label', id, parentId: previous, timestamp: labelTimestamps.get(targetId), targetId, label });
    previous = id;
  }
  const timestamp = new Date().toISOString();
  const sessionId = uuidv7(Date.parse(timestamp));
  const cwd = typeof header['cwd'] === 'string' && header['cwd'] !== '' ? resolve(header['cwd']) : process.cwd();
  const newHeader = { type: 'session', version: CURRENT_VERSION, id: sessionId, timestamp, cwd, parentSession: source };
  const target = join(dirname(source), `${timestamp.replace(/[:.]/g, '-')}_${sessionId}.jsonl`);
  await removeStaleTemps(dirname(target));
  await createWhole(target, jsonlChunks([newHeader, ...kept, ...relabels]), stats);
  return { path: target, id: sessionId, entries: kept.length + relabels.length };
}
