/**
 * The summary's parse with the ids cut out (id-cut.ts) must answer what JSON.parse answers for
 * every line: the same members (order aside), the same rejection and the same glue recovery.
 */
import { describe, expect, it } from 'vitest';
import { parseText } from '../../src/store/read/lines.js';
import { parseWithoutIds } from '../../src/store/summary/id-cut.js';

const PI_LINE =
  '{"type":"message","id":"3f09e03e","parentId":"556f2211","timestamp":"2026-05-19T12:03:32.867Z","message":{"role":"assistant","content":[]}}';

const LINES = [
  PI_LINE,
  '{"type":"model_change","id":"8fad2bd6","parentId":null,"timestamp":"t","provider":"anthropic"}',
  // A repeated id or parent id later in the line wins.
  '{"type":"message","id":"a","parentId":"b","x":1,"id":"later"}',
  '{"type":"message","id":"a","parentId":"b","x":1,"parentId":null}',
  '{"type":"message","id":"a","parentId":"b","\\u0069d":"escaped later"}',
  // Broken after the ids: rejected whole, with the line's own error.
  '{"type":"message","id":"a","parentId":"b","x":}',
  '{"type":"message","id":"a","parentId":"b",}',
  '{"type":"message","id":"a","parentId":"b","x":1',
  '{"type":"message","id":"a","parentId":"b","x":1}}',
  // Glued lines are recovered from the whole line.
  '{"type":"message","id":"a","parentId":null,"x":1}{"type":"message","id":"b","parentId":"a","x":2}',
  // Ids the cut must not touch: escapes, control characters, quotes, no comma after the parent.
  '{"type":"message","id":"a\\"b","parentId":null,"x":1}',
  '{"type":"message","id":"a\tb","parentId":null,"x":1}',
  '{"type":"message","id":"a","parentId":"b\u0001","x":1}',
  '{"type":"message","id":"a","parentId":nullx,"x":1}',
  '{"type":"message","id":"a","parentId":null}',
  '{"type":"message","id":"a","parentId":7,"x":1}',
  '{"type":"mes\\u0073age","id":"a","parentId":null,"x":1}',
  '{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/x"}',
  '[1,2]',
  'not json',
  '',
];

describe('parseWithoutIds', () => {
  it.each(LINES)('answers as JSON.parse for %s', (line) => {
    expect(parseWithoutIds(line)).toEqual(parseText(line));
  });

  it('puts the ids back as JSON.parse reads them', () => {
    const parsed = parseWithoutIds(PI_LINE);
    expect(parsed.kind).toBe('object');
    if (parsed.kind !== 'object') return;
    expect(parsed.value['id']).toBe('3f09e03e');
    expect(parsed.value['parentId']).toBe('556f2211');
    expect(parsed.value).toEqual(JSON.parse(PI_LINE));
  });
});
