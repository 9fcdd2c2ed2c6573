/**
 * JSON.parse of a summarised line without its entry id and parent id, which are put back after.
 *
 * Why: V8's JSON.parse internalises every short string value (under ten characters), and an
 * entry's id is one: unique per entry, so each parsed line added a string to V8's string table,
 * which grew with the store and made every lookup in it (keys and short values alike) slower.
 * The ids of a pi-written line lead it (`{"type":"…","id":"…","parentId":"…"|null,`), where they
 * are cut out as text and read without JSON.parse.
 *
 * Exactness: the cut is `"id":"…","parentId":…,` between the `,` after the type and the next
 * member, each string without a quote, backslash or control character, so the cut is whole
 * members and the rest is JSON exactly when the line is. A line the cut does not fit, or that
 * JSON.parse rejects once cut, is parsed whole as before (its error and glue are the line's own).
 * The listing reads an entry by its keys, never their order, so the ids go back at the end; an
 * `id` or `parentId` repeated later in the line wins, as with JSON.parse.
 */
import { type ParsedLine, parseText } from '../read/lines.js';

const TYPE_START = '{"type":"';
const ID_KEY = '","id":"';
const PARENT_KEY = '","parentId":';

/** The end of a plain string's text starting at `from` (its closing quote), or -1. */
function plainEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i;
    if (c === 0x5c || c < 0x20) return -1;
  }
  return -1;
}

export function parseWithoutIds(text: string): ParsedLine {
  if (!text.startsWith(TYPE_START)) return parseText(text);
  const typeEnd = plainEnd(text, TYPE_START.length);
  if (typeEnd === -1 || !text.startsWith(ID_KEY, typeEnd)) return parseText(text);
  const idStart = typeEnd + ID_KEY.length;
  const idEnd = plainEnd(text, idStart);
  if (idEnd === -1 || !text.startsWith(PARENT_KEY, idEnd)) return parseText(text);
  let parentId: string | null;
  let next: number;
  const parentAt = idEnd + PARENT_KEY.length;
  if (text.startsWith('null', parentAt)) {
    parentId = null;
    next = parentAt + 4;
  } else {
    if (text.charCodeAt(parentAt) !== 0x22) return parseText(text);
    const parentEnd = plainEnd(text, parentAt + 1);
    if (parentEnd === -1) return parseText(text);
    parentId = text.slice(parentAt + 1, parentEnd);
    next = parentEnd + 1;
  }
  if (text.charCodeAt(next) !== 0x2c) return parseText(text);
  let value: unknown;
  try {
    // `{"type":"…",` then the members after the parent id.
    value = JSON.parse(text.slice(0, typeEnd + 2) + text.slice(next + 1));
  } catch {
    return parseText(text);
  }
  const entry = value as Record<string, unknown>;
  if (!Object.hasOwn(entry, 'id')) entry['id'] = text.slice(idStart, idEnd);
  if (!Object.hasOwn(entry, 'parentId')) entry['parentId'] = parentId;
  return { kind: 'object', value: entry };
}
