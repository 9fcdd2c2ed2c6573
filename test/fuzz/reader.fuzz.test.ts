/**
 * Fuzzing the reader: fast-check mutates real corpus files (drop, duplicate, splice in lines of
 * another file, swap, truncate, flip bytes, insert raw bytes) and checks that reading never
 * throws and that the tree, context, flattening and search builders terminate on whatever comes
 * out, for thousands of cases. Runs in-process on buffers (`readSessionFromBuffer`), so a case
 * costs microseconds to milliseconds; the whole file stays well under 30 s on 2 cores.
 * Failures print fast-check's seed and shrunk mutation list, which replay deterministically.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildContext, buildTree, getBranch, readSessionFromBuffer, subtreeUsage } from '../../src/store/index.js';
import { nodeDetailLines } from '../../src/tree/entry-detail.js';
import {
  buildForest,
  buildIndex,
  displayOf,
  FILTER_CYCLE,
  filterMask,
  layoutForest,
  rowAt,
  search,
} from '../../src/tree/flatten.js';
import { CORPORA, sessionsRoot } from '../helpers/corpus.js';
import { RETAINED_FILES, retainedPath } from '../helpers/retained.js';

function corpusFiles(): Buffer[] {
  const out: Buffer[] = [];
  for (const corpus of CORPORA) {
    const root = sessionsRoot(corpus);
    for (const folder of readdirSync(root)) {
      const dir = join(root, folder);
      if (!statSync(dir).isDirectory()) continue;
      for (const name of readdirSync(dir)) if (name.endsWith('.jsonl')) out.push(readFileSync(join(dir, name)));
    }
  }
  // Compaction checkpoints: mutated `retainedTail`s (not arrays, non-object elements, torn messages).
  for (const file of RETAINED_FILES) out.push(readFileSync(retainedPath(file)));
  return out;
}

const FILES = corpusFiles();

type Mutation =
  | { kind: 'drop'; at: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'splice'; from: number; line: number; at: number }
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; mask: number }
  | { kind: 'insert'; at: number; bytes: number[] };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('splice' as const), from: fc.nat(), line: fc.nat(), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  // Bytes that matter to a line reader: newlines, braces, quotes, NUL, ESC, UTF-8 lead/continuation bytes.
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.array(
      fc.constantFrom(0x0a, 0x0d, 0x7b, 0x7d, 0x22, 0x5c, 0x00, 0x1b, 0xc3, 0xa9, 0xef, 0xbb, 0xbf, 0xff),
      { minLength: 1, maxLength: 6 },
    ),
  }),
);

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

function mutate(source: Buffer, mutations: readonly Mutation[]): Buffer {
  let bytes = Buffer.from(source);
  for (const m of mutations) {
    const lines = splitLines(bytes);
    switch (m.kind) {
      case 'drop':
        if (lines.length > 0) lines.splice(m.at % lines.length, 1);
        bytes = Buffer.concat(lines);
        break;
      case 'duplicate':
        if (lines.length > 0) lines.splice(m.at % lines.length, 0, lines[m.at % lines.length]!);
        bytes = Buffer.concat(lines);
        break;
      case 'splice': {
        const other = splitLines(FILES[m.from % FILES.length]!);
        if (other.length > 0)
          lines.splice(lines.length === 0 ? 0 : m.at % (lines.length + 1), 0, other[m.line % other.length]!);
        bytes = Buffer.concat(lines);
        break;
      }
      case 'swap':
        if (lines.length > 1) {
          const a = m.a % lines.length;
          const b = m.b % lines.length;
          [lines[a], lines[b]] = [lines[b]!, lines[a]!];
        }
        bytes = Buffer.concat(lines);
        break;
      case 'truncate':
        bytes = bytes.subarray(0, bytes.length === 0 ? 0 : m.at % bytes.length);
        break;
      case 'flip':
        if (bytes.length > 0) {
          const at = m.at % bytes.length;
          bytes[at] = bytes[at]! ^ m.mask;
        }
        break;
      case 'insert': {
        const at = bytes.length === 0 ? 0 : m.at % (bytes.length + 1);
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
        break;
      }
    }
  }
  return bytes;
}

/** Everything the screens build from a file; throws if anything throws. */
function exercise(bytes: Buffer): void {
  const result = readSessionFromBuffer('/fuzz/session.jsonl', bytes);
  if (!result.ok) {
    expect(typeof result.message).toBe('string');
    return;
  }
  const tree = buildTree(result);
  // Every path from every entry ends (cycle-safe), and is no longer than the number of entries.
  for (const entry of tree.order) expect(getBranch(tree, entry.id).length).toBeLessThanOrEqual(tree.order.length);
  buildContext(tree);
  for (const entry of tree.order.slice(0, 20)) buildContext(tree, entry.id);
  for (const root of tree.roots) subtreeUsage(tree, root.id);
  const index = buildIndex(tree);
  for (const filter of FILTER_CYCLE) {
    filterMask(index, filter);
    buildForest(index, filter);
  }
  const found = search(index, 'the a');
  layoutForest(buildForest(index, 'default', found), new Set());
  // Rows, texts and detail views of the first rows (retained messages among them when there are).
  const layout = layoutForest(buildForest(index, 'all'), new Set());
  const fmt = { tokens: String, cost: String, date: (iso: string) => iso };
  for (let i = 0; i < Math.min(layout.count, 20); i++) {
    const row = rowAt(layout, i)!;
    displayOf(index, row.num);
    nodeDetailLines(index, row.id, fmt, subtreeUsage);
  }
}

describe('fuzzed corpus files', () => {
  it('has a corpus to mutate', () => {
    expect(FILES.length).toBeGreaterThan(40);
  });

  it('reading never throws and every builder terminates, for thousands of mutated files', () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 8 }), (pick, mutations) => {
        exercise(mutate(FILES[pick % FILES.length]!, mutations));
      }),
      { numRuns: 10_000 },
    );
    // 10,000 files through every reader: about 30 s alone on two cores, over a minute under load.
  }, 180_000);

  it('survives pure byte soup built from the bytes of real files', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 400 })), { minLength: 1, maxLength: 12 }),
        (pieces) => {
          const parts = pieces.map(([file, at, length]) => {
            const source = FILES[file % FILES.length]!;
            const start = source.length === 0 ? 0 : at % source.length;
            return source.subarray(start, start + length);
          });
          exercise(Buffer.concat(parts));
        },
      ),
      { numRuns: 4000 },
    );
  }, 180_000);
});
