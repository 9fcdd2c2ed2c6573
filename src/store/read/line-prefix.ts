/**
 * What the listing can learn from the bytes of a pi-written line without JSON.parse: whether it
 * is a toolResult message, its id and parent, and (for a line too long to keep) a digest of the
 * few facts the summary needs, gathered as the line streams past in chunks.
 */
import type { LongLineSink } from './lines.js';

export const TOOL_RESULT_PREFIX = Buffer.from('{"type":"message",');
export const TOOL_RESULT_MARKER = Buffer.from(',"message":{"role":"toolResult"');
// `usage":` rather than `"usage"`: a needle starting with a quote is several times slower to search in JSON.
export const USAGE_KEY = Buffer.from('usage":');
export const GLUE = Buffer.from('}{"');

const USAGE_TAIL = Buffer.from('ge":');

/**
 * Whether `bytes` hold USAGE_KEY. Searched as its tail `ge":`, each hit checked for the `usa`
 * before it: the search runs from the needle's first byte, and `u` is so common in tool output
 * that searching for `usage":` itself took twice as long (a fifth of a cold listing's CPU went to
 * this search on toolResult lines).
 */
export function hasUsageKey(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(USAGE_TAIL); at !== -1; at = bytes.indexOf(USAGE_TAIL, at + 1))
    if (at >= 3 && bytes[at - 3] === 0x75 && bytes[at - 2] === 0x73 && bytes[at - 1] === 0x61) return true;
  return false;
}
/** The id/parentId/timestamp prefix of a pi line is well under this. */
export const PREFIX_WINDOW = 320;

const TYPE_KEY = Buffer.from('{"type":"');
const ID_KEY = Buffer.from('"id":"');
const PARENT_KEY = Buffer.from(',"parentId":');
const NULL = Buffer.from('null');
const ROLE_KEY = Buffer.from('"message":{"role":"');

const OBJECT_START = Buffer.from('{"');
const ID_AFTER_TYPE = Buffer.from('","id":"');
/** A pi entry type is a short word: how far past `{"type":"` its closing quote is looked for. */
const TYPE_WORD_BYTES = 64;

/**
 * Whether `line` (a line past its own first byte) holds a second entry, so that a tiny parse of
 * its prefix would miscount it: objects glued by a writer that lost a newline (`}{"`), or the
 * start of a pi entry (`{"type":"…","id":"`) after a line that a torn write (a full disk, a
 * crash) cut off inside a string. Such a line still ends in `}`, yet JSON.parse, pi's and the
 * full reader's, refuses it. Inside a JSON string every quote is escaped, so `{"` is always
 * structure: one search finds the few objects of a line, and each is looked at. A tool's details
 * holding an object shaped like an entry only costs the caller a full parse.
 */
export function holdsAnotherEntry(line: Buffer): boolean {
  for (let at = line.indexOf(OBJECT_START); at !== -1; at = line.indexOf(OBJECT_START, at + 1)) {
    if (at > 0 && line[at - 1] === 0x7d /* } */) return true;
    if (at + TYPE_KEY.length > line.length || !bytesAt(line, at, TYPE_KEY)) continue;
    let close = at + TYPE_KEY.length;
    const limit = Math.min(line.length, close + TYPE_WORD_BYTES);
    while (close < limit && line[close] !== 0x22 && line[close] !== 0x5c) close++;
    const fits = close + ID_AFTER_TYPE.length <= line.length;
    if (fits && line[close] === 0x22 && bytesAt(line, close, ID_AFTER_TYPE)) return true;
  }
  return false;
}

/**
 * Whether `buf` holds `needle` at `at`: a loop, since for these short constants, compared on
 * every line of a listing, Buffer.compare's native call cost more than the comparison. Out of
 * range it is Buffer.compare's own answer (it throws), as before.
 */
export function bytesAt(buf: Buffer, at: number, needle: Buffer): boolean {
  const n = needle.length;
  if (at < 0 || at + n > buf.length) return buf.compare(needle, 0, n, at, at + n) === 0;
  for (let i = 0; i < n; i++) if (buf[at + i] !== needle[i]) return false;
  return true;
}

/** A quoted string without escapes at `at` (just after its opening quote), or undefined. */
function plainString(buf: Buffer, at: number, limit: number): { value: string; end: number } | undefined {
  const close = buf.indexOf(0x22 /* " */, at);
  if (close <= at || close >= limit) return undefined;
  const backslash = buf.indexOf(0x5c /* backslash: an escape */, at);
  if (backslash !== -1 && backslash < close) return undefined;
  return { value: buf.toString('utf8', at, close), end: close };
}

/**
 * Reads `"id":"…","parentId":"…"|null` at `at` in a pi-written line without JSON.parse (a
 * hundred thousand small parses cost more than the whole scan). Anything unexpected — another
 * key order, an escape, a missing quote — returns undefined and the caller parses the line.
 */
export function readIdPrefix(
  buf: Buffer,
  at: number,
  limit: number,
): { id: string; parentId: string | null } | undefined {
  if (!bytesAt(buf, at, ID_KEY)) return undefined;
  const id = plainString(buf, at + ID_KEY.length, limit);
  if (!id) return undefined;
  const p = id.end + 1;
  if (!bytesAt(buf, p, PARENT_KEY)) return undefined;
  const v = p + PARENT_KEY.length;
  let parentId: string | null;
  if (bytesAt(buf, v, NULL)) parentId = null;
  else {
    if (buf[v] !== 0x22) return undefined;
    const parent = plainString(buf, v + 1, limit);
    if (!parent) return undefined;
    parentId = parent.value;
  }
  return { id: id.value, parentId };
}

/** `{"type":"…","id":"…","parentId":…` and, for a message, its role: from a line's first bytes. */
export function readEntryPrefix(
  head: Buffer,
): { type: string; id: string; parentId: string | null; role?: string } | undefined {
  if (head.compare(TYPE_KEY, 0, TYPE_KEY.length, 0, TYPE_KEY.length) !== 0) return undefined;
  const type = plainString(head, TYPE_KEY.length, head.length);
  if (!type || head[type.end + 1] !== 0x2c /* , */) return undefined;
  const ids = readIdPrefix(head, type.end + 2, head.length);
  if (!ids) return undefined;
  const out: { type: string; id: string; parentId: string | null; role?: string } = { type: type.value, ...ids };
  const roleAt = head.indexOf(ROLE_KEY);
  if (type.value === 'message' && roleAt !== -1) {
    const role = plainString(head, roleAt + ROLE_KEY.length, head.length);
    if (role) out.role = role.value;
  }
  return out;
}

/** What the listing keeps of a line too long to buffer: its start and a few facts about the rest. */
export interface LongLineDigest {
  lineNo: number;
  /** The first LONG_LINE_HEAD bytes. */
  head: Buffer;
  bytes: number;
  hasUsage: boolean;
  hasGlue: boolean;
  /** The last byte other than a trailing `\r` is `}`. */
  endsWithBrace: boolean;
  terminated: boolean;
}

/** Finds a needle in a stream of pieces, including across piece boundaries. */
class NeedleWatch {
  found = false;
  private carry = Buffer.alloc(0);

  constructor(private readonly needle: Buffer) {}

  see(piece: Buffer): void {
    if (this.found) return;
    const keep = this.needle.length - 1;
    const seam = Buffer.concat([this.carry, piece.subarray(0, keep)]);
    if (seam.indexOf(this.needle) !== -1 || piece.indexOf(this.needle) !== -1) {
      this.found = true;
      return;
    }
    this.carry = Buffer.from((piece.length >= keep ? piece : seam).subarray(-keep));
  }
}

/**
 * Bytes of a long line's start the digest keeps: the entry prefix (PREFIX_WINDOW) and room for the
 * start of a tool output's text, which the listing keeps a bounded prefix of (tool-facts.ts).
 */
export const LONG_LINE_HEAD = 2048;

/** A sink that digests a long line in constant memory and hands the digest over at its end. */
export function digestingSink(lineNo: number, onDigest: (digest: LongLineDigest) => void): LongLineSink {
  const headPieces: Buffer[] = [];
  let headBytes = 0;
  let bytes = 0;
  let last2 = Buffer.alloc(0);
  const usage = new NeedleWatch(USAGE_KEY);
  const glue = new NeedleWatch(GLUE);
  return {
    piece(buf, start, end) {
      const piece = buf.subarray(start, end);
      if (piece.length === 0) return;
      bytes += piece.length;
      if (headBytes < LONG_LINE_HEAD) {
        const take = piece.subarray(0, LONG_LINE_HEAD - headBytes);
        headPieces.push(Buffer.from(take));
        headBytes += take.length;
      }
      usage.see(piece);
      glue.see(piece);
      last2 = Buffer.from(Buffer.concat([last2, piece.subarray(-2)]).subarray(-2));
    },
    end(terminated) {
      const closing = last2[last2.length - 1] === 0x0d ? last2[last2.length - 2] : last2[last2.length - 1];
      onDigest({
        lineNo,
        head: Buffer.concat(headPieces),
        bytes,
        hasUsage: usage.found,
        hasGlue: glue.found,
        endsWithBrace: closing === 0x7d,
        terminated,
      });
    },
  };
}
