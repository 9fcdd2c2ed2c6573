/**
 * Byte-level JSONL reading shared by the full reader and the fast summariser.
 *
 * Lines are cut at `\n` in the Buffer and decoded one by one: decoding a whole file as one
 * string costs 3–5× more on Node 20 and doubles peak memory. A line that spans two chunks is
 * carried as a list of pieces and concatenated once, so a single 200 MB line stays linear.
 */
import { isUtf8 } from 'node:buffer';
import type { JsonObject, Problem } from '../types.js';

/** Receives one physical line: `buf[start, end)` without its `\n`. */
export type LineHandler = (buf: Buffer, start: number, end: number, lineNo: number, terminated: boolean) => void;

/**
 * Receives a line longer than the splitter's bound as a stream of pieces instead of one buffer,
 * so that reading it costs no more memory than a chunk. `piece` may be called with the caller's
 * reused chunk: copy what must outlive the call.
 */
export interface LongLineSink {
  piece(buf: Buffer, start: number, end: number): void;
  end(terminated: boolean): void;
}

export interface SplitterOptions {
  /** Line number of the first line pushed (default 1): a scan from an offset numbers lines truly. */
  firstLine?: number;
  /**
   * A line that grows past `maxLineBytes()` (asked whenever a line spans chunks) goes to the sink
   * `onLongLine` returns instead of being buffered whole. Without `onLongLine` lines are unbounded.
   */
  maxLineBytes?: () => number;
  onLongLine?: (lineNo: number) => LongLineSink;
}

export const READ_CHUNK_BYTES = 1024 * 1024;

/** Splits a stream of chunks into lines; chunks may be reused by the caller after `push`. */
export class LineSplitter {
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  private long: LongLineSink | undefined;
  /** The number of the last line handed over (the line before `firstLine` at the start). */
  lineNo: number;
  /** Whether the last byte pushed was `\n` (or nothing was pushed). */
  endsWithNewline = true;

  constructor(
    private readonly onLine: LineHandler,
    private readonly options: SplitterOptions = {},
  ) {
    this.lineNo = (options.firstLine ?? 1) - 1;
  }

  push(chunk: Buffer, length: number): void {
    if (length <= 0) return;
    this.endsWithNewline = chunk[length - 1] === 0x0a;
    let pos = 0;
    while (pos < length) {
      let nl = chunk.indexOf(0x0a, pos);
      if (nl >= length) nl = -1;
      if (nl === -1) {
        this.carry(chunk, pos, length);
        return;
      }
      this.lineNo++;
      if (this.long) {
        this.long.piece(chunk, pos, nl);
        this.endLong(true);
      } else if (this.pieces.length > 0) {
        this.pieces.push(chunk.subarray(pos, nl));
        const whole = Buffer.concat(this.pieces);
        this.pieces = [];
        this.pendingBytes = 0;
        this.onLine(whole, 0, whole.length, this.lineNo, true);
      } else {
        this.onLine(chunk, pos, nl, this.lineNo, true);
      }
      pos = nl + 1;
    }
  }

  /** Keeps the start of a line that continues in the next chunk (or streams it when too long). */
  private carry(chunk: Buffer, start: number, end: number): void {
    if (this.long) {
      this.long.piece(chunk, start, end);
      return;
    }
    this.pendingBytes += end - start;
    const { maxLineBytes, onLongLine } = this.options;
    if (onLongLine && maxLineBytes && this.pendingBytes > maxLineBytes()) {
      this.long = onLongLine(this.lineNo + 1);
      for (const piece of this.pieces) this.long.piece(piece, 0, piece.length);
      this.pieces = [];
      this.pendingBytes = 0;
      this.long.piece(chunk, start, end);
      return;
    }
    // Copy: the caller reuses `chunk` for the next read.
    this.pieces.push(Buffer.from(chunk.subarray(start, end)));
  }

  private endLong(terminated: boolean): void {
    const long = this.long!;
    this.long = undefined;
    long.end(terminated);
  }

  /** Flushes a last line that has no `\n`. */
  end(): void {
    if (this.long) {
      this.lineNo++;
      this.endLong(false);
      return;
    }
    if (this.pieces.length === 0) return;
    const whole = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    this.pieces = [];
    this.pendingBytes = 0;
    this.lineNo++;
    this.onLine(whole, 0, whole.length, this.lineNo, false);
  }
}

/** True when the bytes are only spaces, tabs and `\r` (pi skips such lines). */
export function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

export function hasBom(buf: Buffer, start: number, end: number): boolean {
  return end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf;
}

/** The outcome of parsing one non-blank line. */
export type ParsedLine =
  | { kind: 'object'; value: JsonObject }
  | { kind: 'glued'; values: JsonObject[] }
  | { kind: 'non-object'; value: unknown }
  | { kind: 'unparsable'; reason: string };

/**
 * Decodes and parses one line. Invalid UTF-8 becomes U+FFFD exactly like pi's streaming decoder;
 * the caller learns about it through `problems`. Glued `}{` lines written by pi before 0.84.4 are
 * split back into their objects.
 */
export function parseLine(
  buf: Buffer,
  start: number,
  end: number,
  lineNo: number,
  problems: Problem[],
  parse: (text: string) => ParsedLine = parseText,
): ParsedLine {
  let text: string;
  try {
    text = buf.toString('utf8', start, end);
  } catch {
    // Longer than V8's maximum string length (~512 MB).
    return { kind: 'unparsable', reason: `line of ${end - start} bytes is too long to decode` };
  }
  if (text.includes('\uFFFD') && !isUtf8(buf.subarray(start, end))) {
    problems.push({
      line: lineNo,
      kind: 'invalid-utf8',
      message: 'bytes that are not UTF-8 (read as U+FFFD, like pi)',
    });
  }
  return parse(text);
}

export function parseText(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const glued = splitGlued(text);
    if (glued) return { kind: 'glued', values: glued };
    return { kind: 'unparsable', reason: error instanceof Error ? error.message : 'not JSON' };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return { kind: 'object', value: value as JsonObject };
  }
  return { kind: 'non-object', value };
}

/**
 * Recovers objects glued on one line (`{...}{...}`): tries each `}{` boundary in turn, so a `}{`
 * inside a string only costs a failed parse. Returns undefined unless every piece is an object.
 */
export function splitGlued(text: string): JsonObject[] | undefined {
  if (!text.includes('}{')) return undefined;
  const values: JsonObject[] = [];
  let start = 0;
  let search = 0;
  while (start < text.length) {
    const boundary = text.indexOf('}{', search);
    const pieceEnd = boundary === -1 ? text.length : boundary + 1;
    try {
      const value: unknown = JSON.parse(text.slice(start, pieceEnd));
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
      values.push(value as JsonObject);
      start = pieceEnd;
      search = pieceEnd;
    } catch {
      if (boundary === -1) return undefined;
      search = boundary + 1;
    }
  }
  return values.length >= 2 ? values : undefined;
}

/**
 * The entries one parsed line contributes, with what was wrong with it pushed to `problems`:
 * the shared rules of the full reader and the listing's summariser. `sawObject` tells junk
 * before the header from an unparsable line later on; `terminated` a torn last line.
 */
export function lineEntries(
  parsed: ParsedLine,
  lineNo: number,
  terminated: boolean,
  sawObject: boolean,
  problems: Problem[],
): JsonObject[] {
  switch (parsed.kind) {
    case 'object':
      return [parsed.value];
    case 'glued':
      problems.push({
        line: lineNo,
        kind: 'glued-line',
        message: `${parsed.values.length} entries glued on one line (written by pi before 0.84.4); recovered`,
      });
      return parsed.values;
    case 'non-object':
      problems.push({
        line: lineNo,
        kind: 'not-an-object',
        message: `line holds ${describeValue(parsed.value)}, not an entry`,
      });
      return [];
    case 'unparsable':
      if (!terminated)
        problems.push({
          line: lineNo,
          kind: 'torn-last-line',
          message: 'the last line is cut off (no newline, not JSON); ignored',
        });
      else if (!sawObject)
        problems.push({
          line: lineNo,
          kind: 'junk-before-header',
          message: 'unparsable line before the header; skipped',
        });
      else problems.push({ line: lineNo, kind: 'unparsable-line', message: `not JSON (${parsed.reason}); skipped` });
      return [];
  }
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * How far into a file the header may start (blank or junk lines before it, which pi skips, or a
 * first line still without its `\n`): past this, the file cannot be a session and reading stops,
 * so a gigabyte of NUL bytes named `.jsonl` costs one chunk, not a gigabyte of memory.
 */
export const HEADER_SEARCH_BYTES = 1024 * 1024;

export const NO_HEADER_IN_BOUND = `no session header in the first ${HEADER_SEARCH_BYTES / 1024 / 1024} MiB: not a pi session`;

/** Why the first object of a file disqualifies it, or undefined for a usable header. */
export function headerRejection(value: JsonObject): string | undefined {
  if (value['type'] === 'session' && typeof value['id'] === 'string') return undefined;
  return value['type'] === 'session'
    ? 'the header has no string id: not a pi session'
    : 'the first JSON line is not a session header: not a pi session';
}

/** A sink for a line that need not be kept: it only makes the file be given up. */
export function givingUp(onGiveUp: () => void): LongLineSink {
  onGiveUp();
  return { piece: () => undefined, end: () => undefined };
}
