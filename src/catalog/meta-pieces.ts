/**
 * How the catalogue's records are laid out in its metadata pieces (format.ts), newest first (pure).
 */
import type { CatalogueRecord } from './format.js';

/** Session records in the metadata's first piece: more than the picker's first paint (FIRST_PAINT_ROWS). */
export const META_HEAD = 256;
/** Records per piece of the metadata's JSON after the head: a few milliseconds to parse each. */
const META_PIECE = 500;

/**
 * The records in the metadata's pieces (format.ts): sessions newest first (the head is the first
 * piece: a warm start paints from it before parsing the rest), then records of no session.
 */
export function metaPieces(records: readonly CatalogueRecord[]): CatalogueRecord[][] {
  const modified = (r: CatalogueRecord): number => r.s?.modified ?? Number.NEGATIVE_INFINITY;
  const ordered = [...records].sort((a, b) => modified(b) - modified(a));
  const pieces = [ordered.slice(0, META_HEAD)];
  for (let i = META_HEAD; i < ordered.length; i += META_PIECE) pieces.push(ordered.slice(i, i + META_PIECE));
  return pieces;
}
