/**
 * Reading a whole session file the way pi 1.6.0 does (session-format.md §2, §6, §7), but
 * without ever writing to it, and reporting what pi silently skips as `problems`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { LineSplitter, READ_CHUNK_BYTES, hasBom, isBlank, lineEntries, parseLine, type LineHandler } from './lines.js';
import { migrateInMemory } from './migrate.js';
import type { JsonObject, NotASession, Problem, ReadResult, SessionEntry, SessionHeader } from './types.js';

/** Collects parsed objects line by line; `finish` validates the header and migrates. */
export class SessionCollector {
  readonly objects: JsonObject[] = [];
  /**
   * With `keepLines`, every physical line in order: its raw bytes, or the index of its first
   * object in `objects` and how many it held. Used to rewrite a v1/v2 file without losing lines.
   */
  readonly physical: ({ raw: Buffer } | { first: number; count: number })[] | undefined;

  constructor(keepLines = false) {
    this.physical = keepLines ? [] : undefined;
  }

  readonly lines: number[] = [];
  readonly problems: Problem[] = [];
  private seenObject = false;
  private bomAtStart = false;

  readonly onLine = (buf: Buffer, start: number, end: number, lineNo: number, terminated: boolean): void => {
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
    const parsed = parseLine(buf, start, end, lineNo, this.problems);
    for (const value of lineEntries(parsed, lineNo, terminated, this.seenObject, this.problems)) this.add(value, lineNo);
  }

  private add(value: JsonObject, lineNo: number): void {
    this.seenObject = true;
    this.objects.push(value);
    this.lines.push(lineNo);
  }

  finish(path: string, size: number, mtimeMs: number, endsWithNewline: boolean): ReadResult {
    const first = this.objects[0];
    if (!first) {
      if (size === 0) return notASession(path, 'empty', 'empty file (pi would write a new header into it)');
      return notASession(path, 'no-header', 'no JSON line: not a pi session');
    }
    if (first['type'] !== 'session' || typeof first['id'] !== 'string') {
      const why = first['type'] === 'session' ? 'the header has no string id' : 'the first JSON line is not a session header';
      return notASession(path, this.bomAtStart ? 'bom' : 'no-header', `${why}: not a pi session`);
    }
    const problems = this.problems;
    if (this.bomAtStart) {
      problems.unshift({ line: 1, kind: 'bom', message: 'the file starts with a UTF-8 byte-order mark: pi 1.6 refuses to open it' });
    }
    if (endsWithNewline === false && size > 0 && !problems.some((p) => p.kind === 'torn-last-line')) {
      problems.push({ line: 0, kind: 'no-trailing-newline', message: 'the last line has no newline (pi appends one when it opens the file)' });
    }
    const header = first as SessionHeader;
    const diskVersion = typeof header['version'] === 'number' ? header['version'] : 1;
    const migrated = migrateInMemory(this.objects, this.lines, diskVersion, problems);
    return {
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
  }
}

export function notASession(path: string, reason: NotASession['reason'], message: string): NotASession {
  return { ok: false, path, reason, message };
}

/** A file-system error as the reason a file cannot be read (never thrown to callers). */
export function fsErrorResult(path: string, error: unknown): NotASession {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return notASession(path, 'not-found', 'no such file');
  if (code === 'EISDIR') return notASession(path, 'not-a-file', 'is a directory, not a session file');
  if (code === 'EACCES' || code === 'EPERM') return notASession(path, 'unreadable', 'permission denied');
  return notASession(path, 'unreadable', `cannot read (${code ?? (error instanceof Error ? error.message : String(error))})`);
}

/** What a line-by-line scan of a file saw besides its lines. */
export interface ScannedFile {
  /** Bytes read: not the stat size, since the file may grow or shrink while it is read. */
  size: number;
  mtimeMs: number;
  endsWithNewline: boolean;
}

/**
 * Reads a regular file in chunks, handing each line to `onLine`; `stop()` ends the read early.
 * File-system problems come back as a `NotASession`, never as a throw. `chunk` lets a caller that
 * reads thousands of files reuse one buffer.
 */
export function scanFileSync(path: string, onLine: LineHandler, stop?: () => boolean, chunk: Buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES)): ScannedFile | NotASession {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return fsErrorResult(path, error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return notASession(path, 'not-a-file', 'not a regular file');
    const splitter = new LineSplitter(onLine);
    let size = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      size += n;
      splitter.push(chunk, n);
      if (stop?.()) break;
    }
    splitter.end();
    return { size, mtimeMs: stats.mtimeMs, endsWithNewline: splitter.endsWithNewline };
  } catch (error) {
    return fsErrorResult(path, error);
  } finally {
    closeSync(fd);
  }
}

/** Async twin of `scanFileSync` for the screens: yields to the event loop between chunks. */
export async function scanFile(path: string, onLine: LineHandler): Promise<ScannedFile | NotASession> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return fsErrorResult(path, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return notASession(path, 'not-a-file', 'not a regular file');
    const splitter = new LineSplitter(onLine);
    const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      splitter.push(chunk, bytesRead);
    }
    splitter.end();
    return { size, mtimeMs: stats.mtimeMs, endsWithNewline: splitter.endsWithNewline };
  } catch (error) {
    return fsErrorResult(path, error);
  } finally {
    await handle.close();
  }
}

/** Reads and migrates (in memory) one session file. Never throws for file problems. */
export function readSessionSync(path: string): ReadResult {
  const collector = new SessionCollector();
  const scanned = scanFileSync(path, collector.onLine);
  if ('ok' in scanned) return scanned;
  return collector.finish(path, scanned.size, scanned.mtimeMs, scanned.endsWithNewline);
}

/** Async twin of `readSessionSync` for the screens: yields to the event loop between chunks. */
export async function readSession(path: string): Promise<ReadResult> {
  const collector = new SessionCollector();
  const scanned = await scanFile(path, collector.onLine);
  if ('ok' in scanned) return scanned;
  return collector.finish(path, scanned.size, scanned.mtimeMs, scanned.endsWithNewline);
}

/** Parses bytes already in memory (tests, appended tails). */
export function readSessionFromBuffer(path: string, bytes: Buffer, mtimeMs = 0): ReadResult {
  const collector = new SessionCollector();
  const splitter = new LineSplitter(collector.onLine);
  splitter.push(bytes, bytes.length);
  splitter.end();
  return collector.finish(path, bytes.length, mtimeMs, splitter.endsWithNewline);
}

export type { SessionEntry };
