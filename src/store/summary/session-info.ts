/**
 * `SessionInfo`'s fields, written once: how each one is kept in the catalogue, written by
 * `list --json`, and what a value of it must look like. The catalogue's record type, its encoding,
 * its validator and the JSON row are derived from this table; `satisfies` makes a field added to
 * `SessionInfo` without a line here (or a line here for a field that does not exist, or a shape
 * that does not fit the field's type) a compile error, and test/store/session-info.test.ts checks
 * that every producer fills exactly these keys.
 */
import type { Problem, SessionInfo, UsageTotals } from '../types.js';

/**
 * `record`: in the catalogue record as is. `optional`: in the record only when set. `date`: a
 * Date kept as epoch ms (null when invalid). `beside`: kept by the catalogue outside the record
 * (the path is the key, size and mtime are the validators, the text has its own section).
 */
type CatalogueKind = 'record' | 'optional' | 'date' | 'beside';
/** `as-is`, `null-if-absent`, `iso` (a Date; null when invalid), `iso-from-ms` (under `name`), or `omit`. */
type JsonKind = { as: 'as-is' | 'null-if-absent' | 'iso' | 'omit' } | { as: 'iso-from-ms'; name: string };

/**
 * What a value must be (the catalogue checks every record it loads against these): `text`, a
 * `count` (a whole number ≥ 0), `ms` (a finite number), `date` (kept as ms or null), `text-or-null`,
 * `texts` (an array of text), `runs` (textPlaces: `[end, place, …]`, ends rising, places 0–2),
 * `usage` (six finite numbers ≥ 0) or `problems` (`{line, kind, message}`).
 */
type Shape = 'text' | 'count' | 'ms' | 'date' | 'text-or-null' | 'texts' | 'runs' | 'usage' | 'problems';

/** The shapes a field of type T may have (`never`, a compile error, for a type no shape fits). */
type ShapeOf<T> = [T] extends [Date]
  ? 'date'
  : [T] extends [string | undefined]
    ? 'text'
    : [T] extends [string | null]
      ? 'text-or-null'
      : [T] extends [number]
        ? 'count' | 'ms'
        : [T] extends [string[]]
          ? 'texts'
          : [T] extends [number[]]
            ? 'runs'
            : [T] extends [UsageTotals]
              ? 'usage'
              : [T] extends [Problem[]]
                ? 'problems'
                : never;

interface FieldSpec {
  catalogue: CatalogueKind;
  json: JsonKind;
  shape: Shape;
}

const plain = <S extends Shape>(shape: S) => ({ catalogue: 'record', json: { as: 'as-is' }, shape }) as const;

/** In the order of the `list --json` row: pi's SessionInfo names first, then our extras. */
export const SESSION_INFO_FIELDS = {
  path: { catalogue: 'beside', json: { as: 'as-is' }, shape: 'text' },
  id: plain('text'),
  cwd: plain('text'),
  name: { catalogue: 'optional', json: { as: 'null-if-absent' }, shape: 'text' },
  created: { catalogue: 'date', json: { as: 'iso' }, shape: 'date' },
  modified: { catalogue: 'date', json: { as: 'iso' }, shape: 'date' },
  messageCount: plain('count'),
  firstMessage: plain('text'),
  parentSessionPath: { catalogue: 'optional', json: { as: 'null-if-absent' }, shape: 'text' },
  // The whole message text: for search, too big for a JSON row.
  allMessagesText: { catalogue: 'beside', json: { as: 'omit' }, shape: 'text' },
  // Offsets into that text: as internal as the text itself.
  textPlaces: { catalogue: 'record', json: { as: 'omit' }, shape: 'runs' },
  // The branch and compaction summaries: searched like the message text, kept like it.
  summaryText: { catalogue: 'beside', json: { as: 'omit' }, shape: 'text' },
  summaryEntries: { catalogue: 'record', json: { as: 'omit' }, shape: 'texts' },
  summaryPlaces: { catalogue: 'record', json: { as: 'omit' }, shape: 'runs' },
  size: { catalogue: 'beside', json: { as: 'as-is' }, shape: 'count' },
  mtimeMs: { catalogue: 'beside', json: { as: 'iso-from-ms', name: 'mtime' }, shape: 'ms' },
  version: plain('count'),
  entryCount: plain('count'),
  userMessageCount: plain('count'),
  assistantMessageCount: plain('count'),
  branchCount: plain('count'),
  leafId: plain('text-or-null'),
  labels: plain('texts'),
  models: plain('texts'),
  tools: plain('texts'),
  // Search text of the tool calls (bounded, but still too big for a row): beside, like the message text.
  toolTargets: { catalogue: 'beside', json: { as: 'omit' }, shape: 'text' },
  toolOutputText: { catalogue: 'beside', json: { as: 'omit' }, shape: 'text' },
  usage: plain('usage'),
  problems: plain('problems'),
} as const satisfies { [K in keyof SessionInfo]: FieldSpec & { shape: ShapeOf<SessionInfo[K]> } };

type Fields = typeof SESSION_INFO_FIELDS;
type KeysOf<C extends CatalogueKind> = {
  [K in keyof Fields]: Fields[K]['catalogue'] extends C ? K : never;
}[keyof Fields];

export const SESSION_INFO_KEYS = Object.keys(SESSION_INFO_FIELDS) as (keyof SessionInfo)[];

/** A listed session as the catalogue's record holds it (without what it keeps beside it). */
export type SessionRecord = { [K in KeysOf<'record'>]: SessionInfo[K] } & {
  [K in KeysOf<'optional'>]?: Exclude<SessionInfo[K], undefined>;
} & {
  /** `Date` as milliseconds; null for an invalid date (JSON has no NaN). */
  [K in KeysOf<'date'>]: number | null;
};

const keysOf = <C extends CatalogueKind>(kind: C): KeysOf<C>[] =>
  SESSION_INFO_KEYS.filter((k) => SESSION_INFO_FIELDS[k].catalogue === kind) as KeysOf<C>[];
export const RECORD_KEYS = keysOf('record');
export const OPTIONAL_KEYS = keysOf('optional');
export const DATE_KEYS = keysOf('date');

const toMs = (date: Date): number | null => (Number.isNaN(date.getTime()) ? null : date.getTime());

export function toSessionRecord(info: SessionInfo): SessionRecord {
  const record: Record<string, unknown> = {};
  for (const key of RECORD_KEYS) record[key] = info[key];
  for (const key of DATE_KEYS) record[key] = toMs(info[key]);
  for (const key of OPTIONAL_KEYS) if (info[key] !== undefined) record[key] = info[key];
  return record as SessionRecord;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isText = (v: unknown): boolean => typeof v === 'string';
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isMs = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isTexts = (v: unknown): boolean => Array.isArray(v) && v.every(isText);
/** textPlaces: pairs of a run's end (rising, > 0) and its place (0 active, 1 abandoned, 2 compacted). */
function isRuns(v: unknown): boolean {
  if (!Array.isArray(v) || v.length % 2 !== 0) return false;
  for (let i = 0, end = 0; i < v.length; i += 2) {
    if (!isCount(v[i]) || v[i] <= end || (v[i + 1] !== 0 && v[i + 1] !== 1 && v[i + 1] !== 2)) return false;
    end = v[i];
  }
  return true;
}
const USAGE_KEYS = [
  'input',
  'output',
  'cacheRead',
  'cacheWrite',
  'totalTokens',
  'cost',
] as const satisfies readonly (keyof UsageTotals)[];
const isUsage = (v: unknown): boolean => isObject(v) && USAGE_KEYS.every((k) => isMs(v[k]) && (v[k] as number) >= 0);
const isProblems = (v: unknown): boolean =>
  Array.isArray(v) && v.every((p) => isObject(p) && isCount(p['line']) && isText(p['kind']) && isText(p['message']));

const SHAPE_CHECKS: Record<Shape, (value: unknown) => boolean> = {
  text: isText,
  count: isCount,
  ms: isMs,
  // Kept as epoch ms, within what a Date can hold; null for an invalid date.
  date: (v) => v === null || (isMs(v) && Math.abs(v as number) <= 8.64e15),
  'text-or-null': (v) => v === null || isText(v),
  texts: isTexts,
  runs: isRuns,
  usage: isUsage,
  problems: isProblems,
};

/** Each key the record holds, with its check (built once: the catalogue checks every record it loads). */
const RECORD_CHECKS = [...RECORD_KEYS, ...DATE_KEYS].map(
  (key) => [key, SHAPE_CHECKS[SESSION_INFO_FIELDS[key].shape]] as const,
);
const OPTIONAL_CHECKS = OPTIONAL_KEYS.map((key) => [key, SHAPE_CHECKS[SESSION_INFO_FIELDS[key].shape]] as const);

/**
 * Whether `value` is a record `toSessionRecord` could have made: every field of the table there
 * (optional ones may be absent) with a value of its shape. The catalogue is a cache that anything
 * may have edited, so a row is never built from a record that fails this.
 */
export function isSessionRecord(value: unknown): value is SessionRecord {
  if (!isObject(value)) return false;
  for (const [key, check] of RECORD_CHECKS) if (!check(value[key])) return false;
  for (const [key, check] of OPTIONAL_CHECKS) if (value[key] !== undefined && !check(value[key])) return false;
  return true;
}

function dateOrNull(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The JSON row of `list --json`. */
export function sessionInfoJson(info: SessionInfo): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key of SESSION_INFO_KEYS) {
    const json: JsonKind = SESSION_INFO_FIELDS[key].json;
    // An omitted field is never read: a row's search fields may be read from its file on first use.
    if (json.as === 'omit') continue;
    const value = info[key];
    if (json.as === 'as-is') row[key] = value;
    else if (json.as === 'null-if-absent') row[key] = value ?? null;
    else if (json.as === 'iso') row[key] = dateOrNull(value as Date);
    else if (json.as === 'iso-from-ms') row[json.name] = new Date(value as number).toISOString();
  }
  return row;
}
