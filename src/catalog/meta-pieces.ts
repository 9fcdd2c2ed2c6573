/**
 * How the catalogue's records are laid out in its metadata (format.ts), in pieces that can be
 * parsed one at a time (pure):
 *
 * - the head: the newest META_HEAD sessions of the whole store (a warm start of every project
 *   paints from it before parsing anything else);
 * - then the other records by session folder, each folder's in pieces of its own of at most
 *   META_PIECE (one project's start parses only its folder's pieces before painting);
 * - last, the folder index: `{"folders":[[folder, first piece, pieces], …]}`.
 *
 * Each piece is a JSON array on a line of its own (asciiJson never writes a raw newline).
 */
import { dirname } from 'node:path';
import { asciiJson, type CatalogueRecord } from './format.js';

/** Session records in the metadata's first piece: more than the picker's first paint (FIRST_PAINT_ROWS). */
export const META_HEAD = 256;
/** Records per piece of the metadata's JSON after the head: a few milliseconds to parse each. */
const META_PIECE = 500;

/** A session folder's pieces: the first one's index among the metadata's lines, and how many. */
export type FolderPieces = [folder: string, first: number, count: number];

export interface MetaLayout {
  /** The pieces, the head first. */
  pieces: CatalogueRecord[][];
  folders: FolderPieces[];
}

const modified = (r: CatalogueRecord): number => r.s?.modified ?? Number.NEGATIVE_INFINITY;

/** The records in their pieces: the head, then each folder's. */
export function metaLayout(records: readonly CatalogueRecord[]): MetaLayout {
  const ordered = [...records].sort((a, b) => modified(b) - modified(a));
  const pieces = [ordered.slice(0, META_HEAD)];
  const byFolder = new Map<string, CatalogueRecord[]>();
  for (const record of ordered.slice(META_HEAD)) {
    const folder = dirname(record.p);
    const list = byFolder.get(folder);
    if (list) list.push(record);
    else byFolder.set(folder, [record]);
  }
  const folders: FolderPieces[] = [];
  for (const [folder, list] of byFolder) {
    const first = pieces.length;
    for (let i = 0; i < list.length; i += META_PIECE) pieces.push(list.slice(i, i + META_PIECE));
    folders.push([folder, first, pieces.length - first]);
  }
  return { pieces, folders };
}

/** The folder index's line (it follows the pieces; ASCII, as all the metadata). */
export function folderIndexJson(folders: readonly FolderPieces[]): string {
  return asciiJson({ folders });
}

/**
 * The folder index read back, when it is one for `pieces` pieces (each folder once, its pieces
 * after the head and inside the metadata); undefined otherwise (then every piece is parsed).
 */
export function parseFolderIndex(
  line: string,
  pieces: number,
): Map<string, [first: number, count: number]> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const folders = (value as { folders?: unknown } | null)?.folders;
  if (!Array.isArray(folders)) return undefined;
  const index = new Map<string, [number, number]>();
  for (const entry of folders) {
    if (!Array.isArray(entry) || entry.length !== 3) return undefined;
    const [folder, first, count] = entry as unknown[];
    if (typeof folder !== 'string' || index.has(folder)) return undefined;
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count)) return undefined;
    if ((first as number) < 1 || (count as number) < 1 || (first as number) + (count as number) > pieces)
      return undefined;
    index.set(folder, [first as number, count as number]);
  }
  return index;
}

/**
 * The metadata's pieces in its bytes, each parsed once, on demand: the head, a folder's, or the
 * next one. A last line that is not a valid folder index is taken for a piece (and so dropped if it
 * is not one): nothing in the file is believed unchecked.
 */
export class MetaPieces {
  /** Each piece's byte range, until it is parsed. */
  private readonly ranges: ([start: number, end: number] | undefined)[] = [];
  private readonly folders: Map<string, [first: number, count: number]> | undefined;
  private left: number;
  private nextAt = 0;

  constructor(private readonly bytes: Buffer) {
    for (let start = 0; start < bytes.length; ) {
      const nl = bytes.indexOf(0x0a, start);
      const end = nl === -1 ? bytes.length : nl;
      this.ranges.push([start, end]);
      start = end + 1;
    }
    const last = this.ranges.at(-1);
    this.folders =
      last && this.ranges.length > 1
        ? parseFolderIndex(bytes.toString('latin1', last[0], last[1]), this.ranges.length - 1)
        : undefined;
    if (this.folders) this.ranges.pop();
    this.left = this.ranges.length;
  }

  /** Whether every piece has been parsed. */
  get done(): boolean {
    return this.left === 0;
  }

  /** The pieces of `folder` (session folder) per the index; none when there is no index. */
  ofFolder(folder: string): number[] {
    const range = this.folders?.get(folder);
    return range ? Array.from({ length: range[1] }, (_, k) => range[0] + k) : [];
  }

  /** The first piece not parsed yet, or -1. */
  next(): number {
    while (this.nextAt < this.ranges.length && this.ranges[this.nextAt] === undefined) this.nextAt++;
    return this.nextAt < this.ranges.length ? this.nextAt : -1;
  }

  /** Piece `i`'s JSON value (undefined when it is not JSON), or nothing when it was parsed already. */
  take(i: number): { value: unknown } | undefined {
    const range = this.ranges[i];
    if (!range) return undefined;
    this.ranges[i] = undefined;
    this.left--;
    try {
      return { value: JSON.parse(this.bytes.toString('latin1', range[0], range[1])) };
    } catch {
      return { value: undefined };
    }
  }
}
