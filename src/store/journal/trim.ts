/**
 * Trimming the journal in bounded memory, whatever its size: the file is read backwards from its
 * end, a chunk at a time, only to find where its newest lines start; the lines kept are then
 * copied, a chunk at a time, into a temp file that replaces the journal atomically. Neither the
 * file nor its text is ever whole in memory (a 50 MB journal costs a few chunks, not 1 GB).
 *
 * What is kept: the newest records up to JOURNAL_KEEP_BYTES, and at least the newest
 * JOURNAL_KEEP_RECORDS records whatever their size. A line longer than RECORD_MAX_BYTES is not a
 * record we write (ours are bounded) and is dropped without being parsed, as are lines that are
 * not records (torn, foreign) and earlier trim markers; a `trimmed` record goes first, so
 * `undo --list` can say that older history was dropped.
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { readAt } from '../read/read-at.js';
import { replaceAtomically } from '../write/fs-write.js';
import {
  JOURNAL_KEEP_BYTES,
  JOURNAL_KEEP_RECORDS,
  journalLine,
  parseJournalLine,
  RECORD_MAX_BYTES,
} from './records.js';

const CHUNK_BYTES = 64 * 1024;

/** A kept line: `[start, end)` in the file, its `\n` included. */
type Range = [start: number, end: number];

export interface TrimPlan {
  /** The byte ranges to keep, oldest first (adjacent lines merged). */
  ranges: Range[];
  /** Records kept. */
  kept: number;
  /** Bytes kept. */
  bytes: number;
}

/**
 * The lines of the file open as `handle` (its first `size` bytes) that a trim keeps, found by
 * reading backwards. An unterminated last line (torn) is not kept.
 */
export async function planTrim(
  handle: FileHandle,
  size: number,
  limits: { keepBytes: number; keepRecords: number } = {
    keepBytes: JOURNAL_KEEP_BYTES,
    keepRecords: JOURNAL_KEEP_RECORDS,
  },
): Promise<TrimPlan> {
  const ranges: Range[] = [];
  let kept = 0;
  let bytes = 0;
  // The end of the line being assembled (just past its `\n`), and its bytes so far (last piece first).
  let lineEnd = -1;
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let tooLong = false;
  let done = false;
  /** Judges the line `[start, lineEnd)`; false once enough is kept. */
  const endLine = (start: number): boolean => {
    const length = lineEnd - start;
    if (length > 1 && !tooLong) {
      const text = Buffer.concat(pieces.reverse()).toString('utf8', 0, length - 1);
      const record = parseJournalLine(text);
      if (record && record.kind !== 'trimmed') {
        if (kept >= limits.keepRecords && bytes + length > limits.keepBytes) return false;
        kept++;
        bytes += length;
        const last = ranges.at(-1);
        if (last && last[0] === lineEnd) last[0] = start;
        else ranges.push([start, lineEnd]);
      }
    }
    lineEnd = start;
    pieces = [];
    pieceBytes = 0;
    tooLong = false;
    return true;
  };
  let position = size;
  while (position > 0 && !done) {
    const from = Math.max(0, position - CHUNK_BYTES);
    const chunk = await readAt(handle, from, position - from);
    let cut = chunk.length; // the part of the chunk not yet given to a line
    for (let i = chunk.length - 1; i >= -1 && !done; i--) {
      if (i >= 0 && chunk[i] !== 0x0a) continue;
      if (i === -1 && from > 0) break; // the line goes on in the previous chunk
      const absolute = from + i + 1; // where the line after this `\n` (or the file's start) begins
      if (lineEnd === -1) {
        // The first `\n` from the end: what follows it is a torn line, never kept.
        lineEnd = absolute;
      } else {
        const piece = chunk.subarray(i + 1, cut);
        pieceBytes += piece.length;
        if (pieceBytes > RECORD_MAX_BYTES + 1) tooLong = true;
        else pieces.push(Buffer.from(piece));
        if (!endLine(absolute)) done = true;
      }
      cut = i + 1;
    }
    if (!done && lineEnd !== -1 && cut > 0) {
      // The start of the current line is in an earlier chunk: keep its bytes (bounded) for later.
      const piece = chunk.subarray(0, cut);
      pieceBytes += piece.length;
      if (pieceBytes > RECORD_MAX_BYTES + 1) {
        tooLong = true;
        pieces = [];
      } else if (!tooLong) pieces.push(Buffer.from(piece));
    }
    position = from;
  }
  return { ranges: ranges.reverse(), kept, bytes };
}

async function* trimmedChunks(handle: FileHandle, ranges: readonly Range[], path: string): AsyncGenerator<Buffer> {
  yield Buffer.from(
    journalLine({ kind: 'trimmed', path, time: new Date().toISOString(), id: randomBytes(4).toString('hex') }),
  );
  for (const [start, end] of ranges) {
    for (let at = start; at < end; at += CHUNK_BYTES) yield await readAt(handle, at, Math.min(CHUNK_BYTES, end - at));
  }
}

/**
 * Rewrites the journal at `path` (open as `handle`, whose stats were `before`) as its newest
 * records (planTrim), atomically. The caller holds the journal's lock; the rename is still
 * refused if the file changed meanwhile (a pi-sessions too old to take the lock).
 */
export async function trimJournal(path: string, handle: FileHandle, before: Stats): Promise<void> {
  const plan = await planTrim(handle, before.size);
  const unchanged = (now: Stats): boolean => now.ino === before.ino && now.size === before.size;
  await replaceAtomically(path, before, trimmedChunks(handle, plan.ranges, path), unchanged, 'trim the journal');
}
