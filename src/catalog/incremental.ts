/**
 * Summarising one session file so that it can later be refreshed by reading only what pi appended.
 *
 * A full read also returns a resume point: the collector's state at the file's last `\n`, the
 * offset just after it, and two short fingerprints of the bytes already read (the first bytes of
 * the file and the bytes just before the offset). A file that only grew is resumed from there
 * after checking both fingerprints, so a file rewritten in place (a pi migration writes a new
 * file, but an editor or another tool might not) is caught and re-read in full instead.
 *
 * The state is taken at a line boundary, never inside a line: a last line without `\n` (pi is
 * writing it, or it is torn) is re-read on the next refresh, where it may have been completed.
 */
import { LineSplitter } from '../store/lines.js';
import { notASession } from '../store/read.js';
import { SummaryCollector, type SummaryState } from '../store/summary.js';
import type { NotASession, SessionInfo } from '../store/types.js';
import { nodeIo, type FileIo } from './io.js';

/** 1 MiB like the listing: bigger chunks do not read faster and cost memory. */
const CHUNK_BYTES = 1024 * 1024;
/** Fingerprint sizes: the header's first bytes (its id) and the end of the last line read. */
const HEAD_BYTES = 64;
const TAIL_BYTES = 256;

export interface ResumePoint {
  /** Offset just after the last `\n` the state covers. */
  offset: number;
  /** Physical lines before `offset` (the collector numbers problems by line). */
  lineNo: number;
  /** base64 of the first min(offset, HEAD_BYTES) bytes. */
  head: string;
  /** base64 of the min(offset, TAIL_BYTES) bytes before `offset`. */
  tail: string;
  state: SummaryState;
}

export interface Summarised {
  result: SessionInfo | NotASession;
  /** The validators of the file as read: size (bytes read), mtime and inode. */
  size: number;
  mtimeMs: number;
  ino: number;
  /** Set when the file can be resumed later (a header was seen and the file has a `\n`). */
  resume?: ResumePoint;
}

let sharedChunk: Buffer | undefined;

function openFailure(path: string, error: unknown): NotASession {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return notASession(path, 'not-found', 'no such file');
  if (code === 'EACCES' || code === 'EPERM') return notASession(path, 'unreadable', 'permission denied');
  if (code === 'EISDIR') return notASession(path, 'not-a-file', 'is a directory');
  return notASession(path, 'unreadable', `cannot read (${code ?? String(error)})`);
}

function readAt(io: FileIo, fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = io.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

/**
 * Feeds the file from `start` to its end into `splitter`, then takes the resume state at the last
 * `\n` (before the unterminated rest is flushed) and finishes the summary.
 */
function feed(
  io: FileIo,
  fd: number,
  path: string,
  start: number,
  collector: SummaryCollector,
  splitter: LineSplitter,
  mtimeMs: number,
  ino: number,
  head: Buffer | undefined,
  before: Buffer,
): Summarised {
  const chunk = (sharedChunk ??= Buffer.allocUnsafe(CHUNK_BYTES));
  let position = start;
  let lastNewlineEnd = -1; // offset just after the last `\n` seen
  let tail: Buffer | undefined;
  let firstBytes = head;
  // The (at most TAIL_BYTES) bytes just before `position`: the new fingerprint is cut from them
  // and the chunk, so it never costs a read of its own.
  let carry = before;
  for (;;) {
    const n = io.readSync(fd, chunk, 0, chunk.length, position);
    if (n === 0) break;
    if (!firstBytes && position === 0) firstBytes = Buffer.from(chunk.subarray(0, Math.min(n, HEAD_BYTES)));
    const nl = chunk.lastIndexOf(0x0a, n - 1);
    if (nl !== -1) {
      const upto = nl + 1;
      lastNewlineEnd = position + upto;
      tail =
        upto >= TAIL_BYTES
          ? Buffer.from(chunk.subarray(upto - TAIL_BYTES, upto))
          : Buffer.concat([carry.subarray(Math.max(0, carry.length - (TAIL_BYTES - upto))), chunk.subarray(0, upto)]);
    }
    carry = n >= TAIL_BYTES ? Buffer.from(chunk.subarray(n - TAIL_BYTES, n)) : Buffer.concat([carry, chunk.subarray(0, n)]).subarray(-TAIL_BYTES);
    position += n;
    splitter.push(chunk, n);
    if (collector.rejected) break;
  }
  let resume: ResumePoint | undefined;
  if (collector.header && !collector.rejected && lastNewlineEnd > 0 && firstBytes) {
    const state = collector.snapshot();
    // No `\n` in the new bytes: the last line end is still the previous one.
    const tailBytes = tail ?? before;
    resume = {
      offset: lastNewlineEnd,
      lineNo: splitter.lineNo,
      head: firstBytes.subarray(0, Math.min(lastNewlineEnd, HEAD_BYTES)).toString('base64'),
      tail: tailBytes.toString('base64'),
      state,
    };
  }
  splitter.end();
  const result = collector.finish(position, mtimeMs, splitter.endsWithNewline);
  const out: Summarised = { result, size: position, mtimeMs, ino };
  if (resume && !('ok' in result)) out.resume = resume;
  return out;
}

/** Summarises a whole file (like `summarizeFileSync`) and returns a resume point with it. */
export function summarizeFull(path: string, io: FileIo = nodeIo): Summarised {
  let fd: number;
  try {
    fd = io.openSync(path);
  } catch (error) {
    return { result: openFailure(path, error), size: 0, mtimeMs: 0, ino: 0 };
  }
  try {
    const stats = io.fstatSync(fd);
    if (!stats.isFile()) return { result: notASession(path, 'not-a-file', 'not a regular file'), size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
    const collector = new SummaryCollector(path);
    return feed(io, fd, path, 0, collector, new LineSplitter(collector.onLine), stats.mtimeMs, stats.ino, undefined, Buffer.alloc(0));
  } catch (error) {
    return { result: notASession(path, 'unreadable', `cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`), size: 0, mtimeMs: 0, ino: 0 };
  } finally {
    io.closeSync(fd);
  }
}

/**
 * Continues a summary from `point` when the file only grew: same inode, at least as long, and
 * the same bytes at both fingerprints. Returns undefined when it did not only grow (the caller
 * then reads it in full). Reads HEAD_BYTES + TAIL_BYTES to check, then only the new bytes.
 */
export function summarizeAppended(path: string, previousText: string, point: ResumePoint, expectedIno: number, io: FileIo = nodeIo): Summarised | undefined {
  let fd: number;
  try {
    fd = io.openSync(path);
  } catch {
    return undefined;
  }
  try {
    const stats = io.fstatSync(fd);
    if (!stats.isFile() || stats.ino !== expectedIno || stats.size < point.offset) return undefined;
    const head = Buffer.from(point.head, 'base64');
    const tail = Buffer.from(point.tail, 'base64');
    if (!readAt(io, fd, 0, head.length).equals(head)) return undefined;
    if (!readAt(io, fd, point.offset - tail.length, tail.length).equals(tail)) return undefined;
    const collector = SummaryCollector.resume(path, point.state, previousText);
    const splitter = new LineSplitter(collector.onLine);
    splitter.lineNo = point.lineNo;
    return feed(io, fd, path, point.offset, collector, splitter, stats.mtimeMs, stats.ino, head, tail);
  } catch {
    return undefined;
  } finally {
    io.closeSync(fd);
  }
}
