/**
 * The bounded parser (store/read/bounded-json.ts) against JSON.parse and splitGlued: the same answer
 * (valid or not, and the same value while nothing is cut) for any text, fed in any pieces; long
 * strings cut to their start, the budget respected, and member spans that point at the bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BoundedJson,
  BoundedJsonParser,
  KEPT_STRING_BYTES,
  KEPT_VALUE_BYTES,
  parseBounded,
} from '../../src/store/read/bounded-json.js';
import { parseText } from '../../src/store/read/lines.js';

/** Feeds `bytes` cut at `cuts` (offsets, any order). */
function inPieces(bytes: Buffer, cuts: number[]): BoundedJson {
  const parser = new BoundedJsonParser();
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let at = 0;
  for (const point of [...points, bytes.length]) {
    parser.push(bytes, at, point);
    at = point;
  }
  return parser.end();
}

/** What the line reader makes of the text with JSON.parse (one value, glued objects, or nothing). */
function reference(text: string): { ok: true; values: unknown[] } | { ok: false } {
  if (/^[ \t\r]*$/.test(text)) return { ok: true, values: [] };
  const parsed = parseText(text);
  if (parsed.kind === 'unparsable') return { ok: false };
  if (parsed.kind === 'glued') return { ok: true, values: parsed.values };
  return { ok: true, values: [parsed.value] };
}

function expectSameAsJsonParse(text: string, cuts: number[] = []): void {
  const bytes = Buffer.from(text);
  const got = inPieces(bytes, cuts);
  const want = reference(text);
  expect(got.error === undefined, `${JSON.stringify(text)}: ${got.error}`).toBe(want.ok);
  if (want.ok) expect(got.values).toEqual(want.values);
}

describe('the bounded parser accepts what JSON.parse accepts, and gives the same value', () => {
  it('on JSON values of every shape, fed whole and in random pieces', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 8 }), (value, cuts) => {
        const text = JSON.stringify(value);
        expectSameAsJsonParse(text, cuts);
        expectSameAsJsonParse(` ${JSON.stringify(value, null, 1).replace(/\n/g, '\t')}\r`, cuts);
      }),
      { numRuns: 400 },
    );
  });

  it('on broken JSON: a character dropped, changed or added anywhere', () => {
    const alphabet = fc.constantFrom(...'{}[]",:\\ 0123456789.eE+-truefalsn\u0001é'.split(''));
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        alphabet,
        fc.array(fc.nat(), { maxLength: 4 }),
        (value, where, how, ch, cuts) => {
          const text = JSON.stringify(value);
          const at = where % (text.length + 1);
          const broken =
            how === 0
              ? text.slice(0, at) + text.slice(at + 1)
              : how === 1
                ? text.slice(0, at) + ch + text.slice(at + 1)
                : text.slice(0, at) + ch + text.slice(at);
          expectSameAsJsonParse(broken, cuts);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('on the tricky corners', () => {
    for (const text of [
      '',
      '   ',
      '[]',
      '[ ]',
      '[,]',
      '[1,]',
      '{"a":1,}',
      '{,}',
      '{"a" 1}',
      '01',
      '-',
      '-0',
      '1.',
      '1e',
      '1e+',
      '1E-7',
      '.5',
      'tru',
      'nulls',
      '"\\u12"',
      '"\\uD800"',
      '"\\x"',
      '"a\tb"',
      '{"a":1}{"b":2}',
      '{"a":1} {"b":2}',
      '{"a":1}{"b":2}{"c":[]}',
      '{"a":"}{"}',
      '[1]{"a":1}',
      '{"a":1}[1]',
      '{"a":1}{',
      '{"__proto__":{"x":1},"b":2}',
      '{"a":1,"a":2}',
      '"\u00e9\u{1F600}"',
    ])
      expectSameAsJsonParse(text, [1, 3, 5]);
  });
});

describe('what the bounded parser keeps of a huge line', () => {
  it('a long string is cut to its first bytes (never inside a character or an escape), the rest of the entry is whole', () => {
    const long = `${'é'.repeat(KEPT_STRING_BYTES)}\\n${'x'.repeat(100_000)}`;
    const line = Buffer.from(
      `{"type":"message","id":"a1","parentId":null,"message":{"role":"toolResult","content":[{"type":"text","text":"${long}"}],"usage":{"input":3,"cost":{"total":0.5}}}}`,
    );
    for (const cuts of [[], [7, 70_000, 130_000, 200_000], Array.from({ length: 50 }, (_, i) => i * 4099)]) {
      const got = inPieces(line, cuts);
      expect(got.error).toBeUndefined();
      expect(got.cutStrings).toBe(1);
      expect(got.droppedValues).toBe(false);
      const entry = got.values[0] as { message: { content: { text: string }[]; usage: unknown } };
      const text = entry.message.content[0]!.text;
      expect(text.length).toBeGreaterThan(KEPT_STRING_BYTES / 2 - 2);
      expect('é'.repeat(KEPT_STRING_BYTES).startsWith(text)).toBe(true);
      expect(entry.message.usage).toEqual({ input: 3, cost: { total: 0.5 } });
    }
  });

  it('past the value budget, values are left out and the parse says so; the syntax is still checked to the end', () => {
    const many = `[${Array.from({ length: 400_000 }, (_, i) => `"v${i}"`).join(',')}]`;
    const got = parseBounded(Buffer.from(many));
    expect(got.error).toBeUndefined();
    expect(got.droppedValues).toBe(true);
    const kept = got.values[0] as string[];
    expect(kept.length).toBeGreaterThan(1000);
    expect(kept.join('').length).toBeLessThanOrEqual(KEPT_VALUE_BYTES);
    expect(kept.slice(0, 3)).toEqual(['v0', 'v1', 'v2']);
    expect(parseBounded(Buffer.from(`${many.slice(0, -1)},]`)).error).toMatch(/at byte/);
  });

  it('records where each member of the first object is, so a writer can replace one', () => {
    const line = '{"type":"custom","id":"b2","parentId":"a1","data":{"x":[1,2]},"n":-1.5e3,"t":true}{"id":"z"}';
    const got = parseBounded(Buffer.from(line));
    expect(got.values).toHaveLength(2);
    const slice = (key: string): string => {
      const span = got.members.get(key)!;
      return line.slice(span.start, span.end);
    };
    expect(slice('parentId')).toBe('"a1"');
    expect(slice('data')).toBe('{"x":[1,2]}');
    expect(slice('n')).toBe('-1.5e3');
    expect(slice('t')).toBe('true');
    expect(got.members.has('z')).toBe(false);
  });

  it('a 64 MB string costs no more than what is kept of it', () => {
    const parser = new BoundedJsonParser();
    const piece = Buffer.alloc(1 << 20, 'x'.charCodeAt(0));
    parser.push(Buffer.from('{"type":"custom","id":"c","parentId":null,"data":"'), 0, 50);
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 64; i++) parser.push(piece, 0, piece.length);
    parser.push(Buffer.from('"}'), 0, 2);
    const got = parser.end();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024);
    expect(got.error).toBeUndefined();
    expect((got.values[0] as { data: string }).data).toHaveLength(KEPT_STRING_BYTES);
    expect(got.bytes).toBe(50 + 64 * piece.length + 2);
  });
});
