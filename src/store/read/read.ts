/**
 * Reading a whole session file the way pi 1.6.0 does (session-format.md §2, §6, §7), but
 * without ever writing to it, and reporting what pi silently skips as `problems`.
 */

import type {
  JsonObject,
  LoadedSession,
  NotASession,
  Problem,
  ReadResult,
  SessionEntry,
  SessionHeader,
} from '../types.js';
import {
  givingUp,
  HEADER_SEARCH_BYTES,
  hasBom,
  headerRejection,
  isBlank,
  lineEntries,
  NO_HEADER_IN_BOUND,
  parseLine,
} from './lines.js';
import { migrateInMemory } from './migrate.js';
import { notASession } from './not-a-session.js';
import { type ScannedFile, type ScanOptions, scanBuffer, scanFrom, scanFromSync } from './scan.js';
import { longLineEntries, type ParsedLongLine, parsingSink, READ_LINE_BYTES } from './too-large.js';

export { fsErrorResult, notASession } from './not-a-session.js';

export interface CollectorOptions {
  /** Keep every physical line (`physical`): a v1/v2 rewrite must not lose one. */
  keepLines?: boolean;
  /** Filled with the bytes of each physical line (index = line number, `\n` included): the audit's health figures. */
  lineBytes?: number[];
  /**
   * Decides from its raw bytes whether a line after a v3 header is parsed at all (false: it is
   * skipped, its entries missing from the result). A reader that needs only some lines (the
   * secret scan) saves the JSON parse of the others. v1/v2 files are always read whole: their
   * migration numbers entries in file order.
   */
  keepLine?: (buf: Buffer, start: number, end: number) => boolean;
}

/**
 * Collects parsed objects line by line; `finish` validates the header and migrates. A line over
 * READ_LINE_BYTES is parsed as it streams past (too-large.ts): its entry has its long strings cut
 * and is marked, and the line is an `oversized-line` problem.
 */
export class SessionCollector {
  readonly objects: JsonObject[] = [];
  /**
   * With `keepLines`, every physical line in order: its raw bytes, or the index of its first
   * object in `objects` and how many it held. Used to rewrite a v1/v2 file without losing lines.
   */
  readonly physical: ({ raw: Buffer } | { first: number; count: number })[] | undefined;
  /** The lines too long to hold whole (their entries are marked, their raw bytes not kept). */
  readonly tooLargeLines: { line: number; bytes: number }[] = [];
  private readonly lineBytes: number[] | undefined;
  private readonly keepLine: CollectorOptions['keepLine'];
  /** Whether lines may be skipped: the header is read and says version 3 or later. */
  private filtering = false;

  constructor(options: CollectorOptions = {}) {
    this.physical = options.keepLines ? [] : undefined;
    this.lineBytes = options.lineBytes;
    this.keepLine = options.keepLine;
  }

  readonly lines: number[] = [];
  readonly problems: Problem[] = [];
  private seenObject = false;
  private bomAtStart = false;
  /** Bytes of the lines before the first object (bounded by HEADER_SEARCH_BYTES). */
  private bytesBeforeObject = 0;
  /** Set when the file cannot be a session: reading stops there. */
  private rejection: { reason: NotASession['reason']; message: string } | undefined;

  /** The scan options that feed this collector and stop as soon as the file cannot be a session. */
  scanOptions(): ScanOptions {
    return {
      onLine: this.onLine,
      stop: () => this.rejection !== undefined,
      maxLineBytes: () => (this.seenObject ? READ_LINE_BYTES : HEADER_SEARCH_BYTES),
      onLongLine: (lineNo) =>
        this.seenObject
          ? parsingSink(lineNo, this.onLongLine)
          : givingUp(() => this.reject('no-header', NO_HEADER_IN_BOUND)),
    };
  }

  private readonly onLongLine = (line: ParsedLongLine): void => {
    if (this.rejection) return;
    if (this.lineBytes) this.lineBytes[line.lineNo] = line.bytes + (line.terminated ? 1 : 0);
    this.tooLargeLines.push({ line: line.lineNo, bytes: line.bytes });
    const before = this.objects.length;
    for (const value of longLineEntries(line, this.seenObject, this.problems)) this.add(value, line.lineNo);
    const added = this.objects.length - before;
    // A rewrite refuses a file with such a line (`tooLargeLines`): its raw bytes are not kept.
    this.physical?.push(added > 0 ? { first: before, count: added } : { raw: Buffer.alloc(0) });
  };

  private reject(reason: NotASession['reason'], message: string): void {
    this.rejection ??= { reason, message };
  }

  readonly onLine = (buf: Buffer, start: number, end: number, lineNo: number, terminated: boolean): void => {
    if (this.rejection) return;
    if (this.lineBytes) this.lineBytes[lineNo] = end - start + (terminated ? 1 : 0);
    if (!this.seenObject) {
      this.bytesBeforeObject += end - start + 1;
      if (this.bytesBeforeObject > HEADER_SEARCH_BYTES) {
        this.reject('no-header', NO_HEADER_IN_BOUND);
        return;
      }
    }
    if (lineNo === 1 && hasBom(buf, start, end)) {
      // pi cannot parse such a header and refuses the file; we read past the mark and say so.
      this.bomAtStart = true;
      start += 3;
    }
    const before = this.objects.length;
    this.handleLine(buf, start, end, lineNo, terminated);
    if (this.physical) {
      const added = this.objects.length - before;
      this.physical.push(added > 0 ? { first: before, count: added } : { raw: Buffer.from(buf.subarray(start, end)) });
    }
  };

  private handleLine(buf: Buffer, start: number, end: number, lineNo: number, terminated: boolean): void {
    if (isBlank(buf, start, end)) return;
    if (this.filtering && !this.keepLine!(buf, start, end)) return;
    const parsed = parseLine(buf, start, end, lineNo, this.problems);
    for (const value of lineEntries(parsed, lineNo, terminated, this.seenObject, this.problems))
      this.add(value, lineNo);
  }

  private add(value: JsonObject, lineNo: number): void {
    if (!this.seenObject) {
      const rejection = headerRejection(value);
      // Nothing after a first object that is not a header can make the file a session.
      if (rejection) this.reject(this.bomAtStart ? 'bom' : 'no-header', rejection);
    }
    if (!this.seenObject && this.keepLine && typeof value['version'] === 'number' && value['version'] >= 3)
      this.filtering = true;
    this.seenObject = true;
    this.objects.push(value);
    this.lines.push(lineNo);
  }

  finish(path: string, size: number, mtimeMs: number, endsWithNewline: boolean, scanned?: ScannedFile): ReadResult {
    if (this.rejection) return notASession(path, this.rejection.reason, this.rejection.message);
    const first = this.objects[0];
    if (!first) {
      if (size === 0) return notASession(path, 'empty', 'empty file (pi would write a new header into it)');
      return notASession(path, 'no-header', 'no JSON line: not a pi session');
    }
    const problems = this.problems;
    if (this.bomAtStart) {
      problems.unshift({
        line: 1,
        kind: 'bom',
        message: 'the file starts with a UTF-8 byte-order mark: pi 1.6 refuses to open it',
      });
    }
    if (endsWithNewline === false && size > 0 && !problems.some((p) => p.kind === 'torn-last-line')) {
      problems.push({
        line: 0,
        kind: 'no-trailing-newline',
        message: 'the last line has no newline (pi appends one when it opens the file)',
      });
    }
    const header = first as SessionHeader;
    const diskVersion = typeof header['version'] === 'number' ? header['version'] : 1;
    const migrated = migrateInMemory(this.objects, this.lines, diskVersion, problems);
    const session: LoadedSession = {
      ok: true,
      path,
      header: migrated.header,
      diskVersion,
      entries: migrated.entries,
      entryLines: migrated.entryLines,
      problems,
      size,
      mtimeMs,
      endsWithNewline,
    };
    if (scanned) session.resumeAt = { seam: scanned.seam, lines: scanned.lastCompleteLine, ino: scanned.ino };
    return session;
  }
}

/** Reads and migrates (in memory) one session file. Never throws for file problems. */
export function readSessionSync(path: string): ReadResult {
  const collector = new SessionCollector();
  const scanned = scanFromSync(path, collector.scanOptions());
  if ('ok' in scanned) return scanned;
  return collector.finish(path, scanned.size, scanned.mtimeMs, scanned.endsWithNewline, scanned);
}

/** Async twin of `readSessionSync` for the screens: yields to the event loop between chunks. */
export async function readSession(path: string): Promise<ReadResult> {
  const collector = new SessionCollector();
  const scanned = await scanFrom(path, collector.scanOptions());
  if ('ok' in scanned) return scanned;
  return collector.finish(path, scanned.size, scanned.mtimeMs, scanned.endsWithNewline, scanned);
}

/** `readSession` parsing only the lines `keepLine` keeps (CollectorOptions). */
export async function readSessionLines(
  path: string,
  keepLine: NonNullable<CollectorOptions['keepLine']>,
): Promise<ReadResult> {
  const collector = new SessionCollector({ keepLine });
  const scanned = await scanFrom(path, collector.scanOptions());
  if ('ok' in scanned) return scanned;
  return collector.finish(path, scanned.size, scanned.mtimeMs, scanned.endsWithNewline, scanned);
}

/** Parses bytes already in memory (tests, appended tails). */
export function readSessionFromBuffer(path: string, bytes: Buffer, mtimeMs = 0): ReadResult {
  const collector = new SessionCollector();
  const scanned = scanBuffer(bytes, collector.scanOptions());
  return collector.finish(path, scanned.size, mtimeMs, scanned.endsWithNewline, scanned);
}

export type { SessionEntry };
