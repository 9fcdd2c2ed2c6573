/**
 * `SessionInfo`'s fields, written once: how each one is kept in the catalogue and written by
 * `list --json`. The catalogue's record type, its encoding and the JSON row are derived from this
 * table; `satisfies Record<keyof SessionInfo, …>` makes a field added to `SessionInfo` without a
 * line here (or a line here for a field that does not exist) a compile error, and
 * test/store/session-info.test.ts checks that every producer fills exactly these keys.
 */
import type { SessionInfo } from './types.js';

/**
 * `record`: in the catalogue record as is. `optional`: in the record only when set. `date`: a
 * Date kept as epoch ms (null when invalid). `beside`: kept by the catalogue outside the record
 * (the path is the key, size and mtime are the validators, the text has its own section).
 */
type CatalogueKind = 'record' | 'optional' | 'date' | 'beside';
/** `as-is`, `null-if-absent`, `iso` (a Date; null when invalid), `iso-from-ms` (under `name`), or `omit`. */
type JsonKind = { as: 'as-is' | 'null-if-absent' | 'iso' | 'omit' } | { as: 'iso-from-ms'; name: string };

interface FieldSpec {
  catalogue: CatalogueKind;
  json: JsonKind;
}

const plain = { catalogue: 'record', json: { as: 'as-is' } } as const satisfies FieldSpec;

/** In the order of the `list --json` row: pi's SessionInfo names first, then our extras. */
export const SESSION_INFO_FIELDS = {
  path: { catalogue: 'beside', json: { as: 'as-is' } },
  id: plain,
  cwd: plain,
  name: { catalogue: 'optional', json: { as: 'null-if-absent' } },
  created: { catalogue: 'date', json: { as: 'iso' } },
  modified: { catalogue: 'date', json: { as: 'iso' } },
  messageCount: plain,
  firstMessage: plain,
  parentSessionPath: { catalogue: 'optional', json: { as: 'null-if-absent' } },
  // The whole message text: for search, too big for a JSON row.
  allMessagesText: { catalogue: 'beside', json: { as: 'omit' } },
  // Offsets into that text: as internal as the text itself.
  textPlaces: { catalogue: 'record', json: { as: 'omit' } },
  size: { catalogue: 'beside', json: { as: 'as-is' } },
  mtimeMs: { catalogue: 'beside', json: { as: 'iso-from-ms', name: 'mtime' } },
  version: plain,
  entryCount: plain,
  userMessageCount: plain,
  assistantMessageCount: plain,
  branchCount: plain,
  leafId: plain,
  labels: plain,
  models: plain,
  tools: plain,
  // Search text of the tool calls (bounded, but still too big for a row): beside, like the message text.
  toolTargets: { catalogue: 'beside', json: { as: 'omit' } },
  toolOutputText: { catalogue: 'beside', json: { as: 'omit' } },
  usage: plain,
  problems: plain,
} as const satisfies Record<keyof SessionInfo, FieldSpec>;

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

function dateOrNull(date: Date): string | null {
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The JSON row of `list --json`. */
export function sessionInfoJson(info: SessionInfo): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key of SESSION_INFO_KEYS) {
    const json: JsonKind = SESSION_INFO_FIELDS[key].json;
    const value = info[key];
    if (json.as === 'as-is') row[key] = value;
    else if (json.as === 'null-if-absent') row[key] = value ?? null;
    else if (json.as === 'iso') row[key] = dateOrNull(value as Date);
    else if (json.as === 'iso-from-ms') row[json.name] = new Date(value as number).toISOString();
  }
  return row;
}
