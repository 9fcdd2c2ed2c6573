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
import { StoreError } from '../errors.js';
import type { JsonObject, Problem } from '../types.js';
import { addLine, addLongLine, copySettled, type EntryLink, noFacts, type Settled } from './append-facts.js';
import { HEADER_SEARCH_BYTES, LineSplitter, NO_HEADER_IN_BOUND } from './lines.js';
import { type ByteSource, readAt } from './read-at.js';
import { type ParsedLongLine, parsingSink, READ_LINE_BYTES } from './too-large.js';

export type { EntryLink, LongLine } from './append-facts.js';

export interface ScanOptions {
  /** Ids of entries to keep whole (`AppendPoint.kept`). */
  keep?: ReadonlySet<string>;
  /** Record every entry's parent and line range (`AppendPoint.links`). */
  links?: boolean;
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
  const settled: Settled = from ? from.settled : noFacts(options.links === true);
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
