/**
 * Lines too long to hold whole. Every reader bounds a line the way the listing does: past its
 * bound the line's bytes stream through a sink instead of being buffered. The reader and the
 * append scan parse such a line with the bounded parser (bounded-json.ts): the entry keeps its
 * structure (ids, type, usage, models) with its long strings cut, and carries a mark saying so.
 * What shows or counts an entry can use it as it is; what must have the whole entry (a context,
 * a copy, a rewrite) looks for the mark and refuses, or copies the line's bytes instead.
 */
import { formatBytes } from '../../format.js';
import type { JsonObject, Problem } from '../types.js';
import { type BoundedJson, BoundedJsonParser, KEPT_STRING_BYTES } from './bounded-json.js';
import { type LongLineSink, lineEntries, type ParsedLine } from './lines.js';

/**
 * Lines longer than this are never held whole by the reader (tree, context, check, stats) or by
 * a write's scan. Holding a line costs about four times its size (its bytes, their string, the
 * parsed value): at 32 MiB a line stays under ~130 MB, and pi is slow on such a file anyway
 * (store/check/rules.ts SLOW_FOR_PI_BYTES).
 */
export const READ_LINE_BYTES = 32 * 1024 * 1024;

/** What an entry read from a line over READ_LINE_BYTES is missing. */
export interface TooLargeLine {
  line: number;
  bytes: number;
  /** Strings of which only the first KEPT_STRING_BYTES were kept. */
  cutStrings: number;
  /** Values left out altogether (a line of millions of small values). */
  droppedValues: boolean;
}

/**
 * The mark, under a symbol: it cannot collide with any field a file holds, JSON.stringify never
 * writes it, and a spread copy of the entry keeps it.
 */
const TOO_LARGE: unique symbol = Symbol('pi-sessions.too-large-line');

type Marked = JsonObject & { [TOO_LARGE]?: TooLargeLine };

export function markTooLarge(value: JsonObject, line: TooLargeLine): void {
  (value as Marked)[TOO_LARGE] = line;
}

/** The mark of an entry read from a line too long to hold, or undefined for a whole entry. */
export function tooLargeLineOf(value: object): TooLargeLine | undefined {
  return (value as Marked)[TOO_LARGE];
}

/**
 * The mark of an entry that lost text or values to the bound (a long line whose strings all fit
 * is read exactly: its entry is marked, but whole), or undefined.
 */
export function cutLineOf(value: object): TooLargeLine | undefined {
  const mark = tooLargeLineOf(value);
  return mark && (mark.cutStrings > 0 || mark.droppedValues) ? mark : undefined;
}

/** `line 3 is 200 MB` */
export function describeTooLarge(line: Pick<TooLargeLine, 'line' | 'bytes'>): string {
  return `line ${line.line} is ${formatBytes(line.bytes)}`;
}

/** The reader's problem message for a long line it read with its strings cut. */
export function tooLargeMessage(line: TooLargeLine): string {
  const what = line.droppedValues
    ? 'shown with its text cut and some of its values left out'
    : `shown with its text cut to the first ${formatBytes(KEPT_STRING_BYTES)}`;
  return `${describeTooLarge(line)}: too large to read whole (over ${formatBytes(READ_LINE_BYTES)}); ${what}`;
}

/** A long line, parsed as it streamed past. */
export interface ParsedLongLine {
  lineNo: number;
  bytes: number;
  terminated: boolean;
  parse: BoundedJson;
}

/** A sink that parses a long line in bounded memory and hands the result over at its end. */
export function parsingSink(lineNo: number, onParsed: (line: ParsedLongLine) => void): LongLineSink {
  const parser = new BoundedJsonParser();
  return {
    piece: (buf, start, end) => parser.push(buf, start, end),
    end(terminated) {
      const parse = parser.end();
      onParsed({ lineNo, bytes: parse.bytes, terminated, parse });
    },
  };
}

/**
 * The bounded parse as the line rules see a parse (lines.ts `lineEntries`), each object marked;
 * undefined for a blank line.
 */
export function parsedLongLine(line: ParsedLongLine): ParsedLine | undefined {
  const { parse } = line;
  if (parse.blank) return undefined;
  if (parse.error !== undefined)
    return { kind: 'unparsable', reason: `${parse.error}, in a line of ${formatBytes(line.bytes)}` };
  const mark: TooLargeLine = {
    line: line.lineNo,
    bytes: line.bytes,
    cutStrings: parse.cutStrings,
    droppedValues: parse.droppedValues,
  };
  const objects: JsonObject[] = [];
  for (const value of parse.values)
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      markTooLarge(value as JsonObject, mark);
      objects.push(value as JsonObject);
    }
  if (parse.values.length > 1) return { kind: 'glued', values: objects };
  return objects.length === 1 ? { kind: 'object', value: objects[0]! } : { kind: 'non-object', value: parse.values[0] };
}

/**
 * The entries a long line contributes, by the reader's line rules (`lineEntries`), each marked;
 * the line is an `oversized-line` problem that names its size. The reader and the live watcher
 * share this.
 */
export function longLineEntries(line: ParsedLongLine, sawObject: boolean, problems: Problem[]): JsonObject[] {
  const parsed = parsedLongLine(line);
  if (!parsed) return [];
  const values = lineEntries(parsed, line.lineNo, line.terminated, sawObject, problems);
  const mark = values[0] && tooLargeLineOf(values[0]);
  if (mark) problems.push({ line: line.lineNo, kind: 'oversized-line', message: tooLargeMessage(mark) });
  return values;
}
