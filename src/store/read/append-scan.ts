/**
 * What an append needs to know about a session file, read without building its tree (which would
 * block the event loop for tens of ms on a 100 MB file): the header (refuse what pi would refuse),
 * every entry id (new ids are unique in the file, a label's target exists), the leaf (the last
 * entry in file order, session-format.md §7), the resolved labels, the few entries asked for, and
 * (for a fork) where each entry's line is. The scan yields to the event loop between reads, and
 * can resume from where it stopped: when pi appended
 * meanwhile, only the bytes from the start of the last unterminated line on are read again, so a
 * torn last line (no `\n`) is re-read whole together with whatever completed it.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { isObject, messageOf } from '../entry.js';
import { StoreError } from '../errors.js';
import { replayLabel } from '../tree.js';
import type { JsonObject, Problem, SessionEntry } from '../types.js';
import type { MemberSpan } from './bounded-json.js';
import {
  HEADER_SEARCH_BYTES,
  hasBom,
  isBlank,
  LineSplitter,
  lineEntries,
  NO_HEADER_IN_BOUND,
  type ParsedLine,
  parseLine,
} from './lines.js';
import { type ByteSource, readAt } from './read-at.js';
import {
  cutLineOf,
  describeTooLarge,
  type ParsedLongLine,
  parsedLongLine,
  parsingSink,
  READ_LINE_BYTES,
} from './too-large.js';

/** What the lines before `lastLineStart` contributed: everything but an unterminated last line. */
interface Settled {
  ids: Set<string>;
  leafId: string | null;
  header: JsonObject | undefined;
  lines: number;
  /** The session name as pi reads it: the last session_info's, trimmed; undefined when none or cleared. */
  name: string | undefined;
  /** The session_info entry that set `name` (the journal refers to it instead of copying a long name). */
  nameEntryId: string | undefined;
  /** Resolved labels, replayed in file order like the tree's (tree.ts). */
  labels: Map<string, string>;
  labelTimestamps: Map<string, string>;
  /** Per labelled target, the label entry that set its label. */
  labelEntryIds: Map<string, string>;
  /** The text of the first user message (at most FIRST_TEXT_MAX characters): the session's title without a name. */
  firstUserText: string | undefined;
  /** The last occurrence of each entry whose id was asked for (`keep`). */
  kept: Map<string, JsonObject>;
  /** With `links`: each entry's parent and the byte range of its line (last occurrence wins). */
  links: Map<string, EntryLink> | undefined;
  /** The first line too long to hold whole (too-large.ts), if any: a v1/v2 rewrite cannot keep it. */
  tooLarge?: { line: number; bytes: number };
}

/** A line too long to hold: where its first object's members are, so a copy can rewrite one without it. */
export interface LongLine {
  line: number;
  bytes: number;
  members: ReadonlyMap<string, MemberSpan>;
  /** Several objects glued on the line. */
  glued: boolean;
  /** Of the entry: what a fork looks at besides its links (labels are dropped, compactions remapped). */
  type: string;
  firstKeptEntryId: unknown;
}

export interface EntryLink {
  parentId: string | null;
  /** The entry's physical line: `[start, end)` in the file, without its `\n`. */
  start: number;
  end: number;
  /** The role of a `message` entry (a fork needs a user or assistant one, and forks before a user one). */
  role: string | undefined;
  /** Set for a line too long to hold whole: a fork copies its bytes instead of parsing them. */
  long?: LongLine;
}

export interface ScanOptions {
  /** Ids of entries to keep whole (`AppendPoint.kept`). */
  keep?: ReadonlySet<string>;
  /** Record every entry's parent and line range (`AppendPoint.links`). */
  links?: boolean;
}

function copySettled(from: Settled): Settled {
  const links = from.links && new Map(from.links);
  return {
    ...from,
    ids: new Set(from.ids),
    labels: new Map(from.labels),
    labelTimestamps: new Map(from.labelTimestamps),
    labelEntryIds: new Map(from.labelEntryIds),
    kept: new Map(from.kept),
    links,
  };
}

export interface AppendPoint {
  path: string;
  dev: number;
  ino: number;
  /** Bytes scanned (the file's size when the scan ended) and the mtime then. */
  size: number;
  mtimeMs: number;
  diskVersion: number;
  endsWithNewline: boolean;
  /** Where the last line starts when it has no `\n` (else `size`): a resumed scan starts here. */
  lastLineStart: number;
  /** The bytes right before `lastLineStart`: a resumed scan first checks they are still there. */
  fingerprint: Buffer;
  settled: Settled;
  header: JsonObject;
  /** Ids, leaf, labels, kept entries and links, including the unterminated last line when it parsed. */
  ids: ReadonlySet<string>;
  leafId: string | null;
  name: string | undefined;
  nameEntryId: string | undefined;
  labels: ReadonlyMap<string, string>;
  labelTimestamps: ReadonlyMap<string, string>;
  labelEntryIds: ReadonlyMap<string, string>;
  firstUserText: string | undefined;
  kept: ReadonlyMap<string, JsonObject>;
  links: ReadonlyMap<string, EntryLink> | undefined;
  /** The first line too long to hold whole, if any. */
  tooLarge: { line: number; bytes: number } | undefined;
}

/** Where the scan reads: an open session (a FileHandle), or bytes about to replace it (a migration). */

/** `bytes` as a source, with the identity of the file they come from. */
export function bytesSource(bytes: Buffer, of: { dev: number; ino: number; mtimeMs: number }): ByteSource {
  return {
    read: async (buffer, offset, length, position) => {
      // A real turn of the event loop, as a file read is: a scan of these bytes must not run as one long microtask chain.
      await yieldToEventLoop();
      return { bytesRead: bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length)) };
    },
    stat: async () => ({ dev: of.dev, ino: of.ino, size: bytes.length, mtimeMs: of.mtimeMs }),
  };
}

/**
 * Bytes parsed per event-loop turn. Smaller than the reader's 1 MiB chunk: a write runs while the
 * screens are live, and parsing 1 MiB of lines takes ~5 ms of CPU, far more on a loaded machine.
 */
const SCAN_CHUNK_BYTES = 256 * 1024;

const FINGERPRINT_BYTES = 256;
/** The first user message is kept to this many characters (a title, not the text). */
const FIRST_TEXT_MAX = 200;

/** The first `max` characters of a message's text (its text blocks), without copying more of it. */
function textStart(content: unknown, max: number): string {
  if (typeof content === 'string') return content.slice(0, max);
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const block of content) {
    if (text.length >= max) break;
    if (isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string')
      text += block['text'].slice(0, max - text.length);
  }
  return text;
}

/** An entry the reader keeps (migrate.ts): not a header, a non-empty string id and a string type. */
function entryId(value: JsonObject): string | undefined {
  if (value['type'] === 'session' || typeof value['type'] !== 'string') return undefined;
  const id = value['id'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Adds one physical line's contribution to `into`; throws for a file that is not a session. */
function addLine(
  into: Settled,
  keep: ReadonlySet<string>,
  path: string,
  buf: Buffer,
  start: number,
  end: number,
  offset: number,
  terminated: boolean,
  problems: Problem[],
): void {
  into.lines++;
  if (into.lines === 1 && hasBom(buf, start, end)) {
    throw new StoreError(
      'not-a-session',
      `${path}: refusing to write: the file starts with a byte-order mark and pi cannot open it`,
    );
  }
  if (isBlank(buf, start, end)) return;
  problems.length = 0;
  const parsed = parseLine(buf, start, end, into.lines, problems);
  addParsed(into, keep, path, parsed, { start: offset, end: offset + (end - start) }, terminated, problems);
}

/**
 * Adds a line too long to hold, parsed as it streamed past (too-large.ts): its ids, parent, type
 * and role are exact; a label, session name or kept entry whose text was cut cannot be used, and
 * the write is refused rather than made from a cut value.
 */
function addLongLine(
  into: Settled,
  keep: ReadonlySet<string>,
  path: string,
  line: ParsedLongLine,
  offset: number,
  problems: Problem[],
): void {
  into.lines++;
  into.tooLarge ??= { line: into.lines, bytes: line.bytes };
  const parsed = parsedLongLine(line);
  if (!parsed) return;
  problems.length = 0;
  const long = { line: into.lines, bytes: line.bytes, members: line.parse.members, glued: parsed.kind === 'glued' };
  const place = { start: offset, end: offset + line.bytes, long };
  addParsed(into, keep, path, parsed, place, line.terminated, problems);
}

function refuseCut(path: string, value: JsonObject, what: string): never {
  const mark = cutLineOf(value)!;
  throw new StoreError(
    'too-large',
    `${path}: ${what}: ${describeTooLarge(mark)}, too large to read whole; nothing was written`,
  );
}

function addParsed(
  into: Settled,
  keep: ReadonlySet<string>,
  path: string,
  parsed: ParsedLine,
  place: { start: number; end: number; long?: Omit<LongLine, 'type' | 'firstKeptEntryId'> },
  terminated: boolean,
  problems: Problem[],
): void {
  const values = lineEntries(parsed, into.lines, terminated, into.header !== undefined, problems);
  for (const value of values) {
    if (into.header === undefined) {
      if (value['type'] !== 'session' || typeof value['id'] !== 'string') {
        throw new StoreError(
          'not-a-session',
          `${path}: refusing to write: the first JSON line is not a session header: not a pi session`,
        );
      }
      into.header = value;
      continue;
    }
    const id = entryId(value);
    if (id === undefined) continue;
    into.ids.add(id);
    into.leafId = id;
    if (keep.has(id)) {
      if (cutLineOf(value)) refuseCut(path, value, `entry ${id}`);
      into.kept.set(id, value);
    }
    if (value['type'] === 'label') {
      if (cutLineOf(value)) refuseCut(path, value, `the label entry ${id}`);
      replayLabel(into.labels, into.labelTimestamps, value);
      const target = value['targetId'];
      if (typeof target === 'string') {
        if (into.labels.has(target)) into.labelEntryIds.set(target, id);
        else into.labelEntryIds.delete(target);
      }
    }
    if (value['type'] === 'session_info') {
      if (cutLineOf(value)) refuseCut(path, value, `the session name entry ${id}`);
      into.name = typeof value['name'] === 'string' ? value['name'].trim() || undefined : undefined;
      into.nameEntryId = into.name === undefined ? undefined : id;
    }
    if (into.firstUserText === undefined && value['type'] === 'message') {
      const message = messageOf(value as SessionEntry);
      if (message?.['role'] === 'user') {
        const text = textStart(message['content'], 4 * FIRST_TEXT_MAX)
          .replace(/\s+/g, ' ')
          .trim();
        if (text !== '') into.firstUserText = Array.from(text).slice(0, FIRST_TEXT_MAX).join('');
      }
    }
    if (into.links) {
      const parentId = value['parentId'];
      const role = messageOf(value as SessionEntry)?.['role'];
      const link: EntryLink = {
        parentId: typeof parentId === 'string' ? parentId : null,
        start: place.start,
        end: place.end,
        role: typeof role === 'string' ? role : undefined,
      };
      if (place.long)
        link.long = { ...place.long, type: String(value['type']), firstKeptEntryId: value['firstKeptEntryId'] };
      into.links.set(id, link);
    }
  }
}

/**
 * Scans `source` (the open session at `path`) to its end, from the start or, given `from` (an
 * earlier scan of the same file that has only grown since), from `from.lastLineStart`.
 */
export async function scanForAppend(
  source: ByteSource,
  path: string,
  from?: AppendPoint,
  options: ScanOptions = {},
): Promise<AppendPoint> {
  const keep = options.keep ?? new Set<string>();
  // A file rewritten in place (same inode, not only grown) is scanned again from the start.
  if (
    from &&
    !(await readAt(source, from.lastLineStart - from.fingerprint.length, from.fingerprint.length)).equals(
      from.fingerprint,
    )
  )
    from = undefined;
  // A resumed scan carries on from the earlier one's state (that point is not used again).
  const settled: Settled = from
    ? from.settled
    : {
        ids: new Set(),
        leafId: null,
        header: undefined,
        lines: 0,
        name: undefined,
        nameEntryId: undefined,
        labels: new Map(),
        labelTimestamps: new Map(),
        labelEntryIds: new Map(),
        firstUserText: undefined,
        kept: new Map(),
        links: options.links ? new Map() : undefined,
      };
  const problems: Problem[] = [];
  let position = from ? from.lastLineStart : 0;
  let lastLineStart = position;
  let last = undefined as Buffer | undefined;
  let lastLong = undefined as ParsedLongLine | undefined;
  const splitter = new LineSplitter(
    (buf, start, end, _lineNo, terminated) => {
      if (terminated) {
        addLine(settled, keep, path, buf, start, end, lastLineStart, true, problems);
        lastLineStart += end - start + 1;
      } else {
        // Only `end()` hands over an unterminated line: it is evaluated apart, below, and kept out of
        // `settled` so a resumed scan can read it again with what completed it.
        last = buf.subarray(start, end);
      }
    },
    {
      // Bounded like the reader's lines (too-large.ts); before the header, like its header search.
      maxLineBytes: () => (settled.header ? READ_LINE_BYTES : HEADER_SEARCH_BYTES),
      onLongLine: (lineNo) => {
        if (!settled.header) throw new StoreError('not-a-session', `${path}: refusing to write: ${NO_HEADER_IN_BOUND}`);
        return parsingSink(lineNo, (line) => {
          if (!line.terminated) {
            lastLong = line;
            return;
          }
          addLongLine(settled, keep, path, line, lastLineStart, problems);
          lastLineStart += line.bytes + 1;
        });
      },
    },
  );
  const chunk = Buffer.allocUnsafe(SCAN_CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await source.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    splitter.push(chunk, bytesRead);
  }
  splitter.end();
  const stats = await source.stat();
  const size = position;
  if (size === 0)
    throw new StoreError(
      'not-a-session',
      `${path}: refusing to write: empty file (pi would write a new header into it)`,
    );
  let view = settled;
  if (last !== undefined) {
    // Rare (a writer caught between its line and its newline): copy, so `settled` stays clean.
    view = copySettled(settled);
    addLine(view, keep, path, last, 0, last.length, lastLineStart, false, problems);
  } else if (lastLong !== undefined) {
    view = copySettled(settled);
    addLongLine(view, keep, path, lastLong, lastLineStart, problems);
  }
  const { header } = view;
  if (header === undefined)
    throw new StoreError('not-a-session', `${path}: refusing to write: no JSON line: not a pi session`);
  const version = header['version'];
  return {
    path,
    dev: stats.dev,
    ino: stats.ino,
    size,
    mtimeMs: stats.size === size ? stats.mtimeMs : Number.NaN, // grew during the scan: never "unchanged"
    diskVersion: typeof version === 'number' ? version : 1,
    endsWithNewline: last === undefined && lastLong === undefined,
    lastLineStart,
    fingerprint: await readAt(
      source,
      Math.max(0, lastLineStart - FINGERPRINT_BYTES),
      Math.min(FINGERPRINT_BYTES, lastLineStart),
    ),
    settled,
    header,
    ids: view.ids,
    leafId: view.leafId,
    name: view.name,
    nameEntryId: view.nameEntryId,
    labels: view.labels,
    labelTimestamps: view.labelTimestamps,
    labelEntryIds: view.labelEntryIds,
    firstUserText: view.firstUserText,
    kept: view.kept,
    links: view.links,
    tooLarge: view.tooLarge,
  };
}
