/**
 * The one scan of a session file: from a byte offset to the end, line by line, with the file's
 * true line numbers, used by the full reader, the listing's summariser, the catalogue's
 * incremental refresh and the tree's live watcher. Opens only regular files (a FIFO never
 * blocks it), never throws for file problems, and reads at explicit positions, so a scan from an
 * offset needs no seek and a file that grows meanwhile is read up to where the scan got.
 *
 * A scan also returns the seam: the first bytes of the file and the bytes just before the last
 * `\n` it read. A later scan from that `\n` first checks both (`seamHolds`): a file that was not
 * only appended to (rewritten in place, shorter, or the same size with other bytes) fails the
 * check and must be read again from the start.
 */
import { closeSync, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { NotASession } from '../types.js';
import { type LineHandler, LineSplitter, READ_CHUNK_BYTES, type SplitterOptions } from './lines.js';
import { fsErrorResult } from './not-a-session.js';
import { type ReadAt, readAt, readAtSync } from './read-at.js';
import { openRegular, openRegularSync } from './regular-file.js';
import { SEAM_HEAD_BYTES, SEAM_TAIL_BYTES, type Seam } from './seam.js';

export type { Seam } from './seam.js';

export interface ScanOptions extends Pick<SplitterOptions, 'maxLineBytes' | 'onLongLine'> {
  onLine: LineHandler;
  /** Where to start (default 0: the whole file) and the number of the line that starts there. */
  offset?: number;
  firstLine?: number;
  /** Asked after each chunk: true ends the scan early (the file cannot be a session). */
  stop?: () => boolean;
  /**
   * `flush` (default): a last line without `\n` is handed over with `terminated` false.
   * `keep`: it is not (a live reader consumes only whole lines and reads it again later).
   */
  partial?: 'flush' | 'keep';
  /** Lets a caller that scans thousands of files reuse one buffer. */
  chunk?: Buffer;
}

/** What a scan saw besides its lines. */
export interface ScannedFile {
  /** Offset where the scan ended: not the stat size, since the file may grow or shrink meanwhile. */
  size: number;
  mtimeMs: number;
  ino: number;
  endsWithNewline: boolean;
  /** Number of the last line handed over (`firstLine - 1` when none). */
  lastLine: number;
  /** Number of the last line that ended with `\n` (where a scan from `seam.offset` continues). */
  lastCompleteLine: number;
  seam: Seam;
}

/**
 * Cuts the seam from the bytes as they stream past, so it never costs a read of its own: `head`
 * is taken from the chunk at offset 0 (or given, when resuming), `tail` from the chunk that
 * holds the last `\n` and the carry of the bytes before it.
 */
class SeamTracker {
  private head: Buffer | undefined;
  private carry: Buffer;
  seam: Seam;

  constructor(offset: number, previous: Seam | undefined) {
    this.head = previous?.head;
    this.carry = previous?.tail ?? Buffer.alloc(0);
    this.seam = { offset, head: this.head ?? Buffer.alloc(0), tail: this.carry };
  }

  see(chunk: Buffer, n: number, position: number): void {
    if (!this.head && position === 0) this.head = Buffer.from(chunk.subarray(0, Math.min(n, SEAM_HEAD_BYTES)));
    const nl = chunk.lastIndexOf(0x0a, n - 1);
    if (nl !== -1) {
      const upto = nl + 1;
      const tail =
        upto >= SEAM_TAIL_BYTES
          ? Buffer.from(chunk.subarray(upto - SEAM_TAIL_BYTES, upto))
          : Buffer.concat([
              this.carry.subarray(Math.max(0, this.carry.length - (SEAM_TAIL_BYTES - upto))),
              chunk.subarray(0, upto),
            ]);
      const offset = position + upto;
      this.seam = { offset, head: (this.head ?? Buffer.alloc(0)).subarray(0, Math.min(offset, SEAM_HEAD_BYTES)), tail };
    }
    this.carry =
      n >= SEAM_TAIL_BYTES
        ? Buffer.from(chunk.subarray(n - SEAM_TAIL_BYTES, n))
        : Buffer.concat([this.carry, chunk.subarray(0, n)]).subarray(-SEAM_TAIL_BYTES);
  }
}

function splitterFor(options: ScanOptions): LineSplitter {
  const splitterOptions: SplitterOptions = { firstLine: options.firstLine ?? 1 };
  if (options.maxLineBytes) splitterOptions.maxLineBytes = options.maxLineBytes;
  if (options.onLongLine) splitterOptions.onLongLine = options.onLongLine;
  return new LineSplitter(options.onLine, splitterOptions);
}

/** One scan in progress: where it is, its lines and its seam. */
class Scan {
  readonly splitter: LineSplitter;
  readonly tracker: SeamTracker;
  position: number;

  constructor(
    readonly options: ScanOptions,
    previous: Seam | undefined,
  ) {
    this.splitter = splitterFor(options);
    this.position = options.offset ?? 0;
    this.tracker = new SeamTracker(this.position, previous);
  }

  /** Returns false when the scan should end. */
  push(chunk: Buffer, n: number): boolean {
    if (n === 0) return false;
    this.tracker.see(chunk, n, this.position);
    this.position += n;
    this.splitter.push(chunk, n);
    return !this.options.stop?.();
  }

  finish(stats: Stats): ScannedFile {
    // The splitter counts a line when its `\n` arrives: before `end`, the count is of whole lines.
    const lastCompleteLine = this.splitter.lineNo;
    if (this.options.partial !== 'keep') this.splitter.end();
    return {
      size: this.position,
      mtimeMs: stats.mtimeMs,
      ino: stats.ino,
      endsWithNewline: this.splitter.endsWithNewline,
      lastLine: this.splitter.lineNo,
      lastCompleteLine,
      seam: this.tracker.seam,
    };
  }
}

/**
 * Scans an open descriptor (the catalogue opens it itself to check the seam first). `readAt`
 * defaults to `readSync` at a position; the catalogue counts bytes through its own.
 */
export function scanFdSync(
  fd: number,
  stats: Stats,
  options: ScanOptions,
  previous?: Seam,
  readAt: ReadAt = readSync,
): ScannedFile {
  const chunk = options.chunk ?? Buffer.allocUnsafe(READ_CHUNK_BYTES);
  const scan = new Scan(options, previous);
  while (scan.push(chunk, readAt(fd, chunk, 0, chunk.length, scan.position)));
  return scan.finish(stats);
}

/** The file no longer holds the seam a scan was to resume from: it was not only appended to. */
export interface Rewritten {
  rewritten: true;
  size: number;
  ino: number;
}

/**
 * Scans `path` from `options.offset` (sync: the listing reads a file in about a millisecond).
 * With `from`, the scan resumes at `from.offset` after checking the seam, and reports a file
 * that was rewritten rather than appended to.
 */
export function scanFromSync(path: string, options: ScanOptions): ScannedFile | NotASession;
export function scanFromSync(path: string, options: ScanOptions, from: Seam): ScannedFile | NotASession | Rewritten;
export function scanFromSync(path: string, options: ScanOptions, from?: Seam): ScannedFile | NotASession | Rewritten {
  let opened: { fd: number; stats: Stats };
  try {
    opened = openRegularSync(path);
  } catch (error) {
    return fsErrorResult(path, error);
  }
  const { fd, stats } = opened;
  try {
    if (from && !seamHoldsSync(fd, stats.size, from)) return { rewritten: true, size: stats.size, ino: stats.ino };
    return scanFdSync(fd, stats, from ? { ...options, offset: from.offset } : options, from);
  } catch (error) {
    return fsErrorResult(path, error);
  } finally {
    closeSync(fd);
  }
}

/** Async twin of `scanFromSync` for the screens: yields to the event loop between chunks. */
export async function scanFrom(path: string, options: ScanOptions): Promise<ScannedFile | NotASession>;
export async function scanFrom(
  path: string,
  options: ScanOptions,
  from: Seam,
): Promise<ScannedFile | NotASession | Rewritten>;
export async function scanFrom(
  path: string,
  options: ScanOptions,
  from?: Seam,
): Promise<ScannedFile | NotASession | Rewritten> {
  let opened: { handle: FileHandle; stats: Stats };
  try {
    opened = await openRegular(path);
  } catch (error) {
    return fsErrorResult(path, error);
  }
  const { handle, stats } = opened;
  try {
    if (from && !(await seamHolds(handle, stats.size, from)))
      return { rewritten: true, size: stats.size, ino: stats.ino };
    const chunk = options.chunk ?? Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const scan = new Scan(from ? { ...options, offset: from.offset } : options, from);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, scan.position);
      if (!scan.push(chunk, bytesRead)) break;
    }
    return scan.finish(stats);
  } catch (error) {
    return fsErrorResult(path, error);
  } finally {
    await handle.close();
  }
}

/** Scans bytes already in memory as if they were a file (tests, a file read whole by a writer). */
export function scanBuffer(bytes: Buffer, options: ScanOptions): ScannedFile {
  const scan = new Scan(options, undefined);
  scan.push(bytes, bytes.length);
  return scan.finish({ mtimeMs: 0, ino: 0 } as Stats);
}

/**
 * Whether the file still holds the seam's bytes where they were, i.e. whether everything up to
 * `seam.offset` may be taken as already read. Reads SEAM_HEAD_BYTES + SEAM_TAIL_BYTES at most.
 */
export function seamHoldsSync(fd: number, size: number, seam: Seam, readAt: ReadAt = readSync): boolean {
  if (size < seam.offset) return false;
  if (!readAtSync(fd, 0, seam.head.length, readAt).equals(seam.head)) return false;
  return readAtSync(fd, seam.offset - seam.tail.length, seam.tail.length, readAt).equals(seam.tail);
}

export async function seamHolds(handle: FileHandle, size: number, seam: Seam): Promise<boolean> {
  if (size < seam.offset) return false;
  if (!(await readAt(handle, 0, seam.head.length)).equals(seam.head)) return false;
  return (await readAt(handle, seam.offset - seam.tail.length, seam.tail.length)).equals(seam.tail);
}
