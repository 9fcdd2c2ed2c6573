/**
 * The facts of a session an append needs, gathered line by line as the append scan
 * (append-scan.ts) reads them: header, ids, leaf, labels, name, title, kept entries and links.
 * What the lines contribute is apart from how they are read, so a scan can copy what the settled
 * lines gave and add an unterminated last line to the copy only.
 */
import { isObject, messageOf } from '../entry.js';
import { StoreError } from '../errors.js';
import { replayLabel } from '../tree.js';
import type { JsonObject, Problem, SessionEntry } from '../types.js';
import type { MemberSpan } from './bounded-json.js';
import { hasBom, isBlank, lineEntries, type ParsedLine, parseLine } from './lines.js';
import { cutLineOf, describeTooLarge, type ParsedLongLine, parsedLongLine } from './too-large.js';

/** What the lines before `lastLineStart` contributed: everything but an unterminated last line. */
export interface Settled {
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

/** What no line has contributed yet; `links`: record each entry's parent and line range. */
export function noFacts(links: boolean): Settled {
  return {
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
    links: links ? new Map() : undefined,
  };
}

/** A copy that adding to leaves `from` as it was. */
export function copySettled(from: Settled): Settled {
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
export function addLine(
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
export function addLongLine(
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
