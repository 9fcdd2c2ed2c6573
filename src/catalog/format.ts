/**
 * The catalogue file: what one record holds and how a `SessionInfo` round-trips through it (pure).
 *
 * Layout (one file, replaced atomically as a whole; written by writer.ts):
 *
 *   {"format":"pi-sessions-catalogue","version":7,"root":…,"meta":M,"data":D,"sum":S}   \n
 *           the header, padded with spaces to the room reserved for it (it is written last)
 *   data    D bytes  each session's search texts, UTF-8 (a record holds their offset, length, and
 *                    where the tool output starts): `allMessagesText`, `toolTargets` and
 *                    `summaryText` packed as one string (text-slices.ts), then `toolOutputText`; and each session's resume
 *                    point (JSON, see incremental.ts), in the order the sessions were read. Texts are
 *                    read per session when a search needs them, the tool output (most of the
 *                    bytes) only when an `out:` search does; a resume point only for a file that grew.
 *                    Each of these slices starts with its session's tag (`sliceTag`, a hash of the
 *                    path), so a record whose offsets point at another session's bytes is caught
 *                    when they are read, whatever the offsets say
 *   meta    M bytes  records (below): everything a row, the sort, the filters and the predicates
 *                    need, plus each file's validators (size, mtime, inode), and each record's own
 *                    checksum `h`; `sum` in the header is the meta's SHA-1. Written as pieces, each
 *                    a JSON array on a line of its own (asciiJson never writes a raw newline):
 *                    the sessions newest first, the first piece (the head) holding the newest
 *                    META_HEAD (meta-pieces.ts), the others a few hundred each, then records of no session
 *
 * A record may also keep the file's secret scan (`k`: the masked findings of `check --secrets`, never
 * a secret, with the size, mtime and inode the scan saw), so a second scan of an unchanged store
 * reads no session file. A file scanned before it was ever listed has a record of its scan alone
 * (no `s`, no `x`): the listing reads that file like a new one, and keeps the scan while it holds.
 *
 * Why sections and not one JSON document: on the 2,000-session bench store the metadata is ~2 MB
 * (JSON.parse ≈ 17 ms) while the message text is ~30 MB (as JSON strings ≈ 420 ms to parse; as raw
 * bytes ≈ 95 ms to read and ≈ 90 ms to decode). Rows need only the metadata, so a warm start parses
 * that alone and pulls the text per session later. The metadata comes last because it is known
 * last: a cold listing writes each session's bytes as soon as it has read the session, instead of
 * keeping them all in memory until the end. The header's lengths must add up to the file size,
 * which catches a truncated file.
 *
 * Why pieces, newest first: at 50,000 sessions the metadata is ~45 MB, and one JSON.parse of it
 * took ~0.5 s before the first row could be drawn. The head alone (a screenful and more of the
 * newest rows of the whole store, checked by each record's own `h`) paints the first rows; the
 * other pieces are parsed after that, a few milliseconds each, with turns of the event loop
 * between them so keys typed meanwhile are not held up.
 *
 * It is a cache that anything may have edited, so nothing in it is believed unchecked: a record
 * whose fields do not have the shapes of store/summary/session-info.ts, or whose offsets leave the data
 * section, is dropped (its session is read from its file again). When `sum` does not match, some
 * record was changed after it was written: each record's `h` then finds which, and only those go.
 * One native hash of the metadata keeps the usual case as cheap as before.
 */
import { createHash } from 'node:crypto';
import {
  isSessionRecord,
  type NotASession,
  type SecretFinding,
  type SessionInfo,
  type SessionRecord,
} from '../store/index.js';

import type { MainTexts } from './text-slices.js';

// The record's fields are derived from the one table of SessionInfo's fields (store/summary/session-info.ts).
export { type SessionRecord, toSessionRecord } from '../store/index.js';

export const CATALOGUE_FORMAT = 'pi-sessions-catalogue';
/** Bump on any change to the layout or to what a record means: older files are then rebuilt. */
export const CATALOGUE_VERSION = 11;
/** Coarser than any mtime granularity we expect on a local disk (ext4 ticks, 1 s on some others). */
export const RACY_MS = 2000;

export interface CatalogueHeader {
  format: typeof CATALOGUE_FORMAT;
  version: number;
  /** The sessions root (or custom session dir) this catalogue describes. */
  root: string;
  meta: number;
  data: number;
  /** `metaSum` of the metadata bytes. */
  sum: string;
}

export interface CatalogueRecord {
  /** Absolute path: the key. */
  p: string;
  /** Validators: size (bytes read), mtime (ms) and inode when the file was summarised. */
  z: number;
  m: number;
  i: number;
  /**
   * A session: its metadata, and its texts in the data section: offset, length, and the length of
   * the packed message text and targets (the tool output follows them).
   */
  s?: SessionRecord;
  t?: [number, number, number];
  /** Offset/length of its resume point in the data section, when it can be resumed. */
  r?: [number, number];
  /**
   * Set when the file was modified within RACY_MS of being read: a write in the same mtime tick
   * could leave size, mtime and inode unchanged, so such a record is never trusted as is (the
   * "racy git" rule). Live sessions are appended to anyway, which the resume path makes cheap.
   */
  y?: 1;
  /** A file that is not a session (listed as skipped; re-read only when it changes). */
  x?: { reason: NotASession['reason']; message: string };
  /** The file's secret scan, kept while the file is as the scan saw it. */
  k?: SecretsRecord;
  /** `recordHash` of the record as written (every other field, in order): finds a record edited since. */
  h?: string;
}

/**
 * A file's secret scan: the validators of the file as scanned (size, mtime, inode), the rules it was
 * scanned with (`secretRulesId()`), its session id and the findings as the scan reports them
 * (masked: a secret itself is never kept).
 */
export interface SecretsRecord {
  z: number;
  m: number;
  i: number;
  v: string;
  d: string | null;
  f: SecretFinding[];
}

/**
 * Whether a scan kept in a record was of the file as it is now (these validators). A listing keeps
 * such a record as it is without knowing the rules (that would load them); a scan also asks `secretsHold`.
 */
export function secretsOfFile(k: SecretsRecord, size: number, mtimeMs: number, ino: number): boolean {
  return k.z === size && k.m === mtimeMs && k.i === ino;
}

/** Whether a scan kept in a record still answers for a file with these validators, scanned by the rules `rulesId`. */
export function secretsHold(k: SecretsRecord, rulesId: string, size: number, mtimeMs: number, ino: number): boolean {
  return k.v === rulesId && secretsOfFile(k, size, mtimeMs, ino);
}

/** FNV-1a (32 bits) of a string's UTF-16 units, as 8 hex digits: cheap, and enough to catch an edit. */
export function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The tag that starts each data slice of the session at `path` (its texts, its resume point). */
export const sliceTag = (path: string): string => fnv1a32(path);

/** The metadata's checksum in the header: SHA-1 (native, so checking 10 MB takes milliseconds), 40 hex digits. */
export const metaSum = (meta: Buffer | string): string => createHash('sha1').update(meta).digest('hex');

/** A record's JSON line (asciiJson) with its checksum `h` appended as the last field. */
export function recordJson(record: CatalogueRecord): string {
  const { h: _old, ...fields } = record;
  const json = asciiJson(fields);
  return `${json.slice(0, -1)},"h":"${fnv1a32(json)}"}`;
}

/** Whether a parsed record is still what `recordJson` wrote. */
export function recordHashHolds(record: CatalogueRecord): boolean {
  const { h, ...fields } = record;
  return typeof h === 'string' && fnv1a32(asciiJson(fields)) === h;
}

/** Why a file is not a session, as a record may say it. */
const NOT_A_SESSION_REASONS: ReadonlySet<string> = new Set([
  'not-found',
  'unreadable',
  'empty',
  'no-header',
  'bom',
  'not-a-file',
  'too-large',
] satisfies NotASession['reason'][]);

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

function isFinding(v: unknown): v is SecretFinding {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const f = v as Record<string, unknown>;
  return (
    typeof f['entryId'] === 'string' &&
    isCount(f['line']) &&
    typeof f['kind'] === 'string' &&
    typeof f['masked'] === 'string' &&
    Object.keys(f).length === 4
  );
}

function isSecretsRecord(v: unknown): v is SecretsRecord {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const k = v as Record<string, unknown>;
  return (
    isCount(k['z']) &&
    typeof k['m'] === 'number' &&
    Number.isFinite(k['m']) &&
    isCount(k['i']) &&
    typeof k['v'] === 'string' &&
    (k['d'] === null || typeof k['d'] === 'string') &&
    Array.isArray(k['f']) &&
    k['f'].every(isFinding)
  );
}

/**
 * `[offset, length]` (a resume point) or `[offset, length, main]` (texts) inside a data section of
 * `dataLength` bytes; never empty, since every slice starts with its tag.
 */
function isRange(v: unknown, size: 2 | 3, dataLength: number): boolean {
  if (!Array.isArray(v) || v.length !== size || !v.every(isCount)) return false;
  const [offset, length, main] = v as number[];
  return length! > 0 && offset! + length! <= dataLength && (size === 2 || (main! > 0 && main! <= length!));
}

/**
 * Whether a parsed record can be used: the key and validators, at most one of a session (every
 * field of the shape store/summary/session-info.ts gives it) and a skipped file (neither: a
 * record of a secret scan alone, with no data), a well-formed secret scan if any, and ranges inside
 * the data section. Cheap: the warm start checks every record.
 */
export function isUsableRecord(value: unknown, dataLength: number): value is CatalogueRecord {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  if (typeof r['p'] !== 'string' || !r['p'].startsWith('/')) return false;
  if (!isCount(r['z']) || typeof r['m'] !== 'number' || !Number.isFinite(r['m']) || !isCount(r['i'])) return false;
  if (r['y'] !== undefined && r['y'] !== 1) return false;
  if (r['t'] !== undefined && !isRange(r['t'], 3, dataLength)) return false;
  if (r['r'] !== undefined && !isRange(r['r'], 2, dataLength)) return false;
  if (r['k'] !== undefined && !isSecretsRecord(r['k'])) return false;
  const x = r['x'] as Record<string, unknown> | undefined | null;
  if (r['s'] !== undefined) return x === undefined && isSessionRecord(r['s']);
  if (x === undefined) return r['k'] !== undefined && r['t'] === undefined && r['r'] === undefined;
  return (
    x !== null &&
    typeof x === 'object' &&
    typeof x['reason'] === 'string' &&
    NOT_A_SESSION_REASONS.has(x['reason']) &&
    typeof x['message'] === 'string' &&
    r['t'] === undefined
  );
}

const fromMs = (ms: number | null): Date => new Date(ms ?? Number.NaN);

/** Where a record's texts are read from (the catalogue's open file). */
export interface TextLoaders {
  main(info: SessionInfo): MainTexts;
  output(info: SessionInfo): string;
}

/**
 * Rebuilds the `SessionInfo` (same keys, same order as the summariser's; the `SessionInfo` type
 * of the literal makes a forgotten field a compile error). `allMessagesText`, `summaryText` and
 * `toolTargets` are accessors that call `load.main` on first read (`toolOutputText`: `load.output`), so a warm start reads no text at all until a
 * search (or `--json`) asks for it; assigning it works like a plain property. An accessor written
 * in the literal keeps V8's fast object shape (defineProperty afterwards measured 4× slower).
 * The record must have passed `isUsableRecord` (or be freshly made by `toSessionRecord`).
 */
export function fromSessionRecord(
  path: string,
  size: number,
  mtimeMs: number,
  s: SessionRecord,
  load: TextLoaders,
): SessionInfo {
  let texts: MainTexts | undefined;
  let output: string | undefined;
  const loaded = (): MainTexts => (texts ??= load.main(info));
  const info: SessionInfo = {
    path,
    id: s.id,
    cwd: s.cwd,
    name: s.name,
    parentSessionPath: s.parentSessionPath,
    created: fromMs(s.created),
    modified: fromMs(s.modified),
    messageCount: s.messageCount,
    firstMessage: s.firstMessage,
    get allMessagesText(): string {
      return loaded().allMessagesText;
    },
    set allMessagesText(value: string) {
      texts = { ...loaded(), allMessagesText: value };
    },
    textPlaces: s.textPlaces,
    get summaryText(): string {
      return loaded().summaryText;
    },
    set summaryText(value: string) {
      texts = { ...loaded(), summaryText: value };
    },
    summaryEntries: s.summaryEntries,
    summaryPlaces: s.summaryPlaces,
    size,
    mtimeMs,
    version: s.version,
    entryCount: s.entryCount,
    userMessageCount: s.userMessageCount,
    assistantMessageCount: s.assistantMessageCount,
    branchCount: s.branchCount,
    leafId: s.leafId,
    labels: s.labels,
    models: s.models,
    tools: s.tools,
    get toolTargets(): string {
      return loaded().toolTargets;
    },
    set toolTargets(value: string) {
      texts = { ...loaded(), toolTargets: value };
    },
    get toolOutputText(): string {
      output ??= load.output(info);
      return output;
    },
    set toolOutputText(value: string) {
      output = value;
    },
    usage: s.usage,
    problems: s.problems,
  };
  return info;
}

/**
 * JSON with every non-ASCII character escaped: the metadata then decodes as latin1, which
 * measured 6 ms instead of 14–28 ms as UTF-8 for the 2 MB of the 2,000-session store.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function parseHeader(line: string, root: string): CatalogueHeader | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const h = value as Partial<CatalogueHeader>;
  if (h.format !== CATALOGUE_FORMAT || h.version !== CATALOGUE_VERSION || h.root !== root) return undefined;
  if (typeof h.sum !== 'string' || !/^[0-9a-f]{40}$/.test(h.sum)) return undefined;
  for (const n of [h.meta, h.data]) if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return undefined;
  return h as CatalogueHeader;
}
