/**
 * pi's createBranchedSession (session-format.md §12), streamed: the source is scanned once for its
 * ids, parent links, labels and where each entry's line is (append-scan.ts), then only the lines of
 * the branch are read again, a batch at a time, each parsed, rechained, stringified and written
 * before the next is read. Neither the session nor the branch is ever whole in memory (on a 100 MB
 * session that heap made 40–80 ms garbage-collection pauses) and no tree is built, so a fork keeps
 * the screens live. The source is never written.
 */
import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { editorTextOf, messageOf } from '../entry.js';
import { StoreError } from '../errors.js';
import { fileStateOf, recordChange } from '../journal/file.js';
import { PATH_TEXT_MAX, preview } from '../journal/records.js';
import { type AppendPoint, bytesSource, type EntryLink, scanForAppend } from '../read/append-scan.js';
import { parseText } from '../read/lines.js';
import { CURRENT_VERSION } from '../read/migrate.js';
import { readSession } from '../read/read.js';
import { type ByteSource, readAt } from '../read/read-at.js';
import { openSession, readWhole, realSessionPath } from '../read/session-file.js';
import { describeTooLarge } from '../read/too-large.js';
import { sessionTitle } from '../summary/title.js';
import { buildTree, getBranch } from '../tree.js';
import type { JsonObject, SessionEntry } from '../types.js';
import { copyLongLine, type LongEntry, whyLongLineCannotBeCopied } from './fork-long-line.js';
import { createWhole, removeStaleTemps } from './fs-write.js';
import { migratedText, refuseTooLargeMigration } from './migrate-file.js';
import { newEntryId, uuidv7 } from './write.js';

/**
 * The ids root → `id` through parent links: up to a null, own or missing parent. Undefined when
 * the walk comes back to an entry already on the path (a parent cycle, which pi would hang on).
 */
export function pathTo(links: ReadonlyMap<string, EntryLink>, id: string): string[] | undefined {
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
/** At most this many bytes are read, parsed and stringified per event-loop turn. */
const SPAN_BYTES = 256 * 1024;

/** An entry of the branch: parsed from its line, or (a line too long to hold) where its bytes are. */
type BranchItem = { entry: SessionEntry } | { long: LongEntry };

/**
 * The entries with these ids, in this order, parsed from their lines (`links`) a batch at a time:
 * a batch is a run of the branch whose lines follow each other closely in the file, at most
 * SPAN_BYTES (or one line), so the branch is never all in memory and no turn parses much. A line
 * too long to hold is its own batch, never read here: the copy streams its bytes.
 */
async function* branchBatches(
  source: ByteSource,
  links: ReadonlyMap<string, EntryLink>,
  ids: readonly string[],
): AsyncGenerator<BranchItem[]> {
  for (let first = 0; first < ids.length; ) {
    const firstLink = links.get(ids[first]!)!;
    if (firstLink.long) {
      yield [{ long: { id: ids[first]!, link: firstLink as LongEntry['link'] } }];
      first++;
      continue;
    }
    const base = firstLink.start;
    let end = firstLink.end;
    let last = first;
    while (last + 1 < ids.length) {
      const next = links.get(ids[last + 1]!)!;
      if (next.long || next.start < end || next.start - end > GAP_BYTES || next.end - base > SPAN_BYTES) break;
      end = next.end;
      last++;
    }
    const bytes = await readAt(source, base, end - base);
    const batch: BranchItem[] = [];
    for (let i = first; i <= last; i++) {
      const id = ids[i]!;
      const link = links.get(id)!;
      const parsed = parseText(bytes.toString('utf8', link.start - base, link.end - base));
      const values = parsed.kind === 'object' ? [parsed.value] : parsed.kind === 'glued' ? parsed.values : [];
      const entry = values.findLast((v) => v['id'] === id);
      if (!entry)
        throw new StoreError(
          'write-failed',
          `cannot fork: entry ${id} changed while it was being read; nothing was created`,
        );
      batch.push({ entry: { ...entry, parentId: link.parentId } as SessionEntry });
    }
    yield batch;
    first = last + 1;
  }
}

/** Refuses a fork whose branch holds a long line that cannot be copied apart (glued, no parentId). */
function refuseUncopiableLines(links: ReadonlyMap<string, EntryLink>, ids: readonly string[], source: string): void {
  for (const id of ids) {
    const link = links.get(id)!;
    if (!link.long || link.long.type === 'label') continue;
    const why = whyLongLineCannotBeCopied({ id, link: link as LongEntry['link'] }, ['parentId']);
    if (why) throw new StoreError('too-large', `cannot fork ${source}: ${why}; nothing was created`);
  }
}

/** What the streamed copy needs besides the branch, and what it reports back. */
interface ForkCopy {
  header: JsonObject;
  labels: ReadonlyMap<string, string>;
  labelTimestamps: ReadonlyMap<string, string>;
  /** Lines written after the header, known once the copy is complete. */
  entries: number;
}

/**
 * The new file's JSONL, a chunk per batch, each stringified only when asked for: the header, the
 * branch with its labels dropped and the rest rechained (`firstKeptEntryId` remapped), then the
 * labels re-created at the end with their timestamps.
 */
async function* forkChunks(
  source: ByteSource,
  batches: AsyncIterable<BranchItem[]>,
  copy: ForkCopy,
): AsyncGenerator<Buffer> {
  yield Buffer.from(`${JSON.stringify(copy.header)}\n`);
  const ids = new Set<string>();
  const replacementByLabel = new Map<string, string>();
  const pendingLabels: string[] = [];
  let previous: string | null = null;
  /** The remapped `firstKeptEntryId` of a compaction (a label it named is replaced by the entry after it). */
  const firstKeptOf = (id: string, firstKept: unknown): unknown =>
    firstKept === id
      ? id
      : ((typeof firstKept === 'string' ? replacementByLabel.get(firstKept) : undefined) ?? firstKept);
  for await (const batch of batches) {
    const lines: string[] = [];
    for (const item of batch) {
      const id = 'long' in item ? item.long.id : item.entry.id;
      const type = 'long' in item ? item.long.link.long.type : item.entry.type;
      if (type === 'label') {
        pendingLabels.push(id);
        continue;
      }
      for (const labelId of pendingLabels) replacementByLabel.set(labelId, id);
      pendingLabels.length = 0;
      if ('long' in item) {
        const replace = new Map<string, unknown>([['parentId', previous]]);
        const firstKept = item.long.link.long.firstKeptEntryId;
        if (type === 'compaction' && firstKeptOf(id, firstKept) !== firstKept)
          replace.set('firstKeptEntryId', firstKeptOf(id, firstKept));
        const why = whyLongLineCannotBeCopied(item.long, [...replace.keys()]);
        if (why) throw new StoreError('too-large', `cannot fork: ${why}; nothing was created`);
        if (lines.length > 0) yield Buffer.from(lines.splice(0).join(''));
        yield* copyLongLine(source, item.long, replace);
      } else {
        const { entry } = item;
        const line: JsonObject = { ...entry, parentId: previous };
        if (entry.type === 'compaction') line['firstKeptEntryId'] = firstKeptOf(entry.id, entry['firstKeptEntryId']);
        lines.push(`${JSON.stringify(line)}\n`);
      }
      ids.add(id);
      previous = id;
    }
    if (lines.length > 0) yield Buffer.from(lines.join(''));
  }
  const kept = ids.size;
  const relabels: string[] = [];
  for (const [targetId, label] of copy.labels) {
    if (!ids.has(targetId)) continue;
    const id = newEntryId(ids);
    ids.add(id);
    relabels.push(
      `${JSON.stringify({ type: 'label', id, parentId: previous, timestamp: copy.labelTimestamps.get(targetId), targetId, label })}\n`,
    );
    previous = id;
  }
  if (relabels.length > 0) yield Buffer.from(relabels.join(''));
  copy.entries = kept + relabels.length;
}

/** The chunks (whole lines: the long lines were refused) with `rewrite` applied. */
async function* rewritten(chunks: AsyncIterable<Buffer>, rewrite: (lines: string) => string): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield Buffer.from(rewrite(chunk.toString('utf8')));
}

export interface ForkOptions {
  /**
   * pi's fork positions: "at" copies the branch up to and including the entry (/clone); "before"
   * (only for a user message, pi's /fork) stops at its parent and returns the message's text to
   * re-send. Default: "before" for a user message named by id, else "at".
   */
  position?: 'before' | 'at';
  /** False: not journalled (slim.ts journals the fork and the trashing as one change). */
  journal?: boolean;
  /**
   * The new header's `parentSession` instead of the source: a slimmed copy replaces its source,
   * so it keeps the source's own parent (null: none) rather than naming a file about to be trashed.
   */
  parentSession?: string | null;
  /**
   * Where the copy goes instead of a new file next to the source (an export: a file that must not
   * exist yet, or a function that takes the chunks, for stdout). Not journalled: not a session of the store.
   */
  target?: string | ((chunks: AsyncIterable<Buffer>) => Promise<void>);
  /** Applied to each chunk of whole lines before it is written (an export's redaction). */
  rewrite?: (lines: string) => string;
}

export interface ForkResult {
  path: string;
  id: string;
  entries: number;
  /** For a fork before a user message: its text, as pi puts it back in the editor. */
  editorText?: string;
  /** The journal record's id (when journalled). */
  changeId?: string;
  /** Set when the fork could not be recorded in the journal (it was made all the same). */
  journalWarning?: string;
  /** The session's title (name or first message) and cwd, for the journal. */
  title?: string;
  cwd: string;
}

/** The message text of the user message `id` (its line read again). */
async function userMessageText(source: ByteSource, links: ReadonlyMap<string, EntryLink>, id: string): Promise<string> {
  for await (const [item] of branchBatches(source, links, [id])) {
    if (item && 'long' in item)
      throw new StoreError(
        'too-large',
        `cannot fork before ${id}: ${describeTooLarge(item.long.link.long)}, too large to put its message back in the editor; nothing was created`,
      );
    return editorTextOf(messageOf(item!.entry)?.['content']);
  }
  return '';
}

/**
 * Scans an open session with its entry links; a v1/v2 file is migrated in memory first, so the ids
 * are the ones we show (and fork or slim by). `from` is where the branch's bytes are then read.
 */
export async function scanWithLinks(
  handle: FileHandle,
  stats: Stats,
  real: string,
): Promise<{ from: ByteSource; point: AppendPoint }> {
  const first = await scanForAppend(handle, real, undefined, { links: true });
  if (first.diskVersion >= CURRENT_VERSION) return { from: handle, point: first };
  refuseTooLargeMigration(real, first.tooLarge);
  const from = bytesSource(migratedText(await readWhole(handle, real, first.size), real), stats);
  return { from, point: await scanForAppend(from, real, undefined, { links: true }) };
}

/**
 * The path to `entryId` (default: the leaf, like /clone; before a user message, its parent, like
 * /fork) into a new file next to the source, labels dropped and re-created at the end with their
 * timestamps, the rest rechained, `firstKeptEntryId` remapped, a v3 header with `parentSession`,
 * the source's mode. A v1/v2 source is migrated in memory first (the ids we show). A fork that
 * cannot be written whole leaves no file.
 */
export async function forkSession(path: string, entryId?: string, options: ForkOptions = {}): Promise<ForkResult> {
  const source = resolve(path);
  const real = await realSessionPath(source);
  const { handle, stats } = await openSession(real, constants.O_RDONLY);
  try {
    const { from, point } = await scanWithLinks(handle, stats, real);
    const links = point.links!;
    const chosen = entryId ?? point.leafId;
    if (chosen === null)
      throw new StoreError('no-entry', `${source}: nothing to fork yet (the session has no entries)`);
    if (!point.ids.has(chosen)) throw new StoreError('no-entry', `no entry ${chosen} in ${source}`);
    const isUser = links.get(chosen)!.role === 'user';
    const position = options.position ?? (entryId !== undefined && isUser ? 'before' : 'at');
    let leaf = chosen;
    let editorText: string | undefined;
    if (position === 'before') {
      if (!isUser)
        throw new StoreError(
          'no-entry',
          `${chosen} is not a user message: only a user message can be forked before (pi's /fork)`,
        );
      editorText = await userMessageText(from, links, chosen);
      const parentId = links.get(chosen)!.parentId;
      if (parentId === null || parentId === chosen || !links.has(parentId)) {
        throw new StoreError(
          'no-entry',
          `${source}: ${chosen} is the first message: a fork before it would be empty (start a new session in pi and send it there)`,
        );
      }
      leaf = parentId;
    }
    // v1/v2 files are chains once migrated: a cycle can only be in a v3 file, read from disk.
    const branchIds = pathTo(links, leaf) ?? (await pathThroughCycle(real, leaf));
    if (!branchIds.some((id) => ['user', 'assistant'].includes(links.get(id)!.role ?? ''))) {
      throw new StoreError(
        'no-entry',
        `${source}: nothing to fork: the branch ${position === 'before' ? 'before that message ' : ''}has no user or assistant message yet`,
      );
    }
    const timestamp = new Date().toISOString();
    const sessionId = uuidv7(Date.parse(timestamp));
    const cwd =
      typeof point.header['cwd'] === 'string' && point.header['cwd'] !== ''
        ? resolve(point.header['cwd'])
        : process.cwd();
    const parentSession = options.parentSession === undefined ? source : options.parentSession;
    const header = {
      type: 'session',
      version: CURRENT_VERSION,
      id: sessionId,
      timestamp,
      cwd,
      ...(parentSession === null ? {} : { parentSession }),
    };
    const given = options.target;
    const target =
      typeof given === 'string'
        ? resolve(given)
        : given
          ? ''
          : join(dirname(source), `${timestamp.replace(/[:.]/g, '-')}_${sessionId}.jsonl`);
    refuseUncopiableLines(links, branchIds, source);
    const { rewrite } = options;
    const longId = rewrite ? branchIds.find((id) => links.get(id)!.long) : undefined;
    if (longId !== undefined)
      throw new StoreError(
        'too-large',
        `cannot redact a copy of ${source}: ${describeTooLarge(links.get(longId)!.long!)}, too large to redact; nothing was created`,
      );
    if (typeof given !== 'function') await removeStaleTemps(dirname(target));
    const copy: ForkCopy = { header, labels: point.labels, labelTimestamps: point.labelTimestamps, entries: 0 };
    // The source stays open while it is copied: the branch's lines are read where the scan found them.
    const raw = forkChunks(from, branchBatches(from, links, branchIds), copy);
    const chunks = rewrite ? rewritten(raw, rewrite) : raw;
    if (typeof given === 'function') await given(chunks);
    else await createWhole(target, chunks, stats);
    const title = sessionTitle({ name: point.name, firstMessage: point.firstUserText });
    const result: ForkResult = { path: target, id: sessionId, entries: copy.entries, cwd };
    if (title !== undefined) result.title = preview(title);
    if (editorText !== undefined) result.editorText = editorText;
    if (options.journal !== false && options.target === undefined) {
      const recorded = await recordChange({
        kind: 'fork',
        path: target,
        time: timestamp,
        after: fileStateOf(await stat(target)),
        source: real,
        sessionId,
        ...(result.title !== undefined ? { title: result.title } : {}),
        ...(cwd.length <= PATH_TEXT_MAX ? { cwd } : {}),
      });
      result.changeId = recorded.id;
      if (recorded.warning) result.journalWarning = recorded.warning;
    }
    return result;
  } finally {
    await handle.close();
  }
}
