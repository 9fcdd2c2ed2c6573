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
import type { Stats } from 'node:fs';
import { type FileIo, nodeIo } from '../read/file-io.js';
import { fsErrorResult } from '../read/not-a-session.js';
import { NotRegularFileError } from '../read/regular-file.js';
import { type ScannedFile, type Seam, scanFdSync, seamHoldsSync } from '../read/scan.js';
import type { NotASession, SearchTexts, SessionInfo } from '../types.js';
import { SummaryCollector, type SummaryState } from './summary.js';

export interface ResumePoint {
  /** Offset just after the last `\n` the state covers. */
  offset: number;
  /** Physical lines before `offset` (the collector numbers problems by line). */
  lineNo: number;
  /** base64 of the seam's head: the first min(offset, SEAM_HEAD_BYTES) bytes. */
  head: string;
  /** base64 of the seam's tail: the min(offset, SEAM_TAIL_BYTES) bytes before `offset`. */
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

function seamOf(point: ResumePoint): Seam {
  return { offset: point.offset, head: Buffer.from(point.head, 'base64'), tail: Buffer.from(point.tail, 'base64') };
}

/**
 * Scans the file from `from` (or its start) into `collector`, taking the resume state at the
 * last `\n`: just before a last line without one is handed over, or at the end.
 */
function feed(
  io: FileIo,
  fd: number,
  stats: Stats,
  collector: SummaryCollector,
  from: { seam: Seam; lineNo: number } | undefined,
): Summarised {
  let state: SummaryState | undefined;
  const options = collector.scanOptions();
  const onLine = options.onLine;
  sharedChunk ??= Buffer.allocUnsafe(1024 * 1024);
  const scanned: ScannedFile = scanFdSync(
    fd,
    stats,
    {
      ...options,
      onLine: (buf, start, end, lineNo, terminated) => {
        if (!terminated && collector.header && !collector.rejected) state = collector.snapshot();
        onLine(buf, start, end, lineNo, terminated);
      },
      offset: from?.seam.offset ?? 0,
      firstLine: (from?.lineNo ?? 0) + 1,
      chunk: sharedChunk,
    },
    from?.seam,
    io.readSync,
  );
  if (scanned.endsWithNewline && collector.header && !collector.rejected) state = collector.snapshot();
  const result = collector.finish(scanned.size, scanned.mtimeMs, scanned.endsWithNewline);
  const out: Summarised = { result, size: scanned.size, mtimeMs: scanned.mtimeMs, ino: scanned.ino };
  const { seam } = scanned;
  if (state && seam.offset > 0 && !('ok' in result)) {
    out.resume = {
      offset: seam.offset,
      lineNo: scanned.lastCompleteLine,
      head: seam.head.toString('base64'),
      tail: seam.tail.toString('base64'),
      state,
    };
  }
  return out;
}

function openRegularIo(io: FileIo, path: string): { fd: number; stats: Stats } {
  const fd = io.openSync(path);
  let stats: Stats;
  try {
    stats = io.fstatSync(fd);
  } catch (error) {
    io.closeSync(fd);
    throw error;
  }
  if (!stats.isFile()) {
    io.closeSync(fd);
    throw new NotRegularFileError(path, 'not a regular file');
  }
  return { fd, stats };
}

/** Summarises a whole file (like `summarizeFileSync`) and returns a resume point with it. */
export function summarizeFull(path: string, io: FileIo = nodeIo): Summarised {
  let opened: { fd: number; stats: Stats };
  try {
    opened = openRegularIo(io, path);
  } catch (error) {
    return { result: fsErrorResult(path, error), size: 0, mtimeMs: 0, ino: 0 };
  }
  const { fd, stats } = opened;
  try {
    return feed(io, fd, stats, new SummaryCollector(path), undefined);
  } catch (error) {
    return { result: fsErrorResult(path, error), size: 0, mtimeMs: 0, ino: 0 };
  } finally {
    io.closeSync(fd);
  }
}

/**
 * Continues a summary from `point` when the file only grew: same inode, at least as long, and
 * the same bytes at both ends of the seam. Returns undefined when it did not only grow (the
 * caller then reads it in full). Reads the seam's bytes to check, then only the new bytes.
 */
export function summarizeAppended(
  path: string,
  previous: SearchTexts,
  point: ResumePoint,
  expectedIno: number,
  io: FileIo = nodeIo,
): Summarised | undefined {
  let opened: { fd: number; stats: Stats };
  try {
    opened = openRegularIo(io, path);
  } catch {
    return undefined;
  }
  const { fd, stats } = opened;
  try {
    const seam = seamOf(point);
    if (stats.ino !== expectedIno || !seamHoldsSync(fd, stats.size, seam, io.readSync)) return undefined;
    return feed(io, fd, stats, SummaryCollector.resume(path, point.state, previous), { seam, lineNo: point.lineNo });
  } catch {
    return undefined;
  } finally {
    io.closeSync(fd);
  }
}
