/**
 * Editing a catalogue file the way a bad disk, a stray tool or a hostile user would: its records
 * as objects, its data section as bytes, written back with the header's lengths fixed up (the
 * header keeps its size, so the data offsets stay true; the records go back as one piece, with no
 * folder index, which a reader must take as well). `reseal` recomputes every checksum (each
 * record's `h`, the header's `sum`), as someone who knows the format would: then only the
 * validation of shapes, ranges and slice tags stands between the edit and the listing.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { CatalogueHeader, CatalogueRecord } from '../../src/catalog/format.js';

// The checksums as format.ts describes them, computed here on their own (as an outsider would).
const ascii = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
function fnv(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}
function sealed(record: CatalogueRecord): string {
  const { h: _old, ...fields } = record;
  const json = ascii(fields);
  return `${json.slice(0, -1)},"h":"${fnv(json)}"}`;
}

export interface CatalogueParts {
  header: CatalogueHeader;
  /** Bytes of the header line, padding and newline included. */
  headerBytes: number;
  data: Buffer;
  records: CatalogueRecord[];
}

export function readCatalogueParts(file: string): CatalogueParts {
  const bytes = readFileSync(file);
  const nl = bytes.indexOf(0x0a);
  const header = JSON.parse(bytes.toString('utf8', 0, nl)) as CatalogueHeader;
  const headerBytes = nl + 1;
  const data = bytes.subarray(headerBytes, headerBytes + header.data);
  // The metadata's lines: pieces (JSON arrays), and last the folder index (an object), left out here.
  const records = bytes
    .toString('latin1', headerBytes + header.data)
    .split('\n')
    .filter((line) => line.startsWith('['))
    .flatMap((line) => JSON.parse(line) as CatalogueRecord[]);
  return { header, headerBytes, data: Buffer.from(data), records };
}

export function writeCatalogueParts(file: string, parts: CatalogueParts, options: { reseal: boolean }): void {
  const meta = options.reseal ? `[${parts.records.map(sealed).join(',')}]` : ascii(parts.records);
  const header: CatalogueHeader = {
    ...parts.header,
    meta: Buffer.byteLength(meta, 'latin1'),
    data: parts.data.length,
    // (A catalogue of a version without a sum gets none.)
    ...(parts.header.sum === undefined
      ? {}
      : { sum: options.reseal ? createHash('sha1').update(meta, 'latin1').digest('hex') : parts.header.sum }),
  };
  const line = JSON.stringify(header);
  if (line.length + 1 > parts.headerBytes) throw new Error('the edited header does not fit its room');
  const head = Buffer.alloc(parts.headerBytes, ' ');
  head.write(line, 0, 'utf8');
  head[parts.headerBytes - 1] = 0x0a;
  writeFileSync(file, Buffer.concat([head, parts.data, Buffer.from(meta, 'latin1')]));
}

/** A small deterministic random source (mulberry32), so a failing case can be replayed by its seed. */
export function random(seed: number): { int(n: number): number; pick<T>(items: readonly T[]): T } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}
