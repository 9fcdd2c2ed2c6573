/** The listing's tool facts: names, touched paths and commands, bounded output (store/summary/tool-facts.ts). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeFileSync } from '../../src/store/index.js';
import {
  boundedJsonString,
  OUTPUT_PER_CALL,
  OUTPUT_PER_SESSION,
  TARGETS_PER_SESSION,
} from '../../src/store/summary/tool-facts.js';
import type { SessionInfo } from '../../src/store/types.js';
import { tempDir } from '../helpers/factory.js';

const header = { type: 'session', version: 3, id: 'tf', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' };
let n = 0;
const entry = (message: object): object => ({
  type: 'message',
  id: `e${++n}`,
  parentId: n > 1 ? `e${n - 1}` : null,
  timestamp: '2026-01-01T00:00:01.000Z',
  message,
});
const call = (name: string, args: object): object =>
  entry({
    role: 'assistant',
    content: [
      { type: 'text', text: 'ok' },
      { type: 'toolCall', id: `c${n}`, name, arguments: args },
    ],
    model: 'm',
    provider: 'p',
    timestamp: 1,
  });
const result = (text: string, extra: object = {}): object =>
  entry({
    role: 'toolResult',
    toolCallId: 'c',
    toolName: 't',
    content: [{ type: 'text', text }],
    isError: false,
    timestamp: 2,
    ...extra,
  });

function summarise(lines: object[]): SessionInfo {
  const file = join(tempDir(), 's.jsonl');
  writeFileSync(file, `${[header, ...lines].map((l) => JSON.stringify(l)).join('\n')}\n`);
  const info = summarizeFileSync(file);
  if ('ok' in info) throw new Error(info.message);
  return info;
}

describe('tool facts in the listing', () => {
  it('keeps tool names, paths, commands and the start of each output', () => {
    const info = summarise([
      entry({ role: 'user', content: 'go', timestamp: 0 }),
      call('read', { path: '/w/src/a.ts' }),
      result('line one\n"quoted" é 🇩🇪 end'),
      call('bash', { command: 'npm   test\n -- --run' }),
      result('x'.repeat(5000)),
      call('read', { path: '/w/src/a.ts' }),
      // A line with usage takes the full parse; the answer is the same kind.
      result('parsed fully', { usage: { input: 1, output: 1, totalTokens: 2 } }),
      entry({ role: 'bashExecution', command: 'ls -la /w', output: 'total 0', exitCode: 0, timestamp: 3 }),
    ]);
    expect(info.tools).toEqual(['read', 'bash']);
    expect(info.toolTargets.split('\n')).toEqual(['/w/src/a.ts', 'npm test -- --run', 'ls -la /w']);
    const parts = info.toolOutputText;
    expect(parts).toContain('line one\n"quoted" é 🇩🇪 end');
    expect(parts).toContain(`${'x'.repeat(OUTPUT_PER_CALL)} parsed fully total 0`);
    expect(parts).not.toContain('x'.repeat(OUTPUT_PER_CALL + 1));
  });

  it('bounds the output and the targets per session', () => {
    const lines: object[] = [];
    for (let i = 0; i < 300; i++) lines.push(call('edit', { path: `/w/f${i}.ts` }), result(`output ${i} `.repeat(40)));
    const info = summarise(lines);
    expect(Buffer.byteLength(info.toolOutputText)).toBeLessThanOrEqual(OUTPUT_PER_SESSION);
    expect(Buffer.byteLength(info.toolOutputText)).toBeGreaterThan(OUTPUT_PER_SESSION - OUTPUT_PER_CALL - 1);
    expect(info.toolTargets.split('\n')).toHaveLength(TARGETS_PER_SESSION);
  });

  it('decodes the start of a JSON string without the rest of the line', () => {
    const line = Buffer.from(JSON.stringify({ content: [{ type: 'text', text: 'a\\b "c" \u00e9\u{1F600} tail' }] }));
    expect(boundedJsonString(line, 0, line.length, 1000)).toBe('a\\b "c" é😀 tail');
    // Cut inside an escape, inside a multi-byte character: dropped, never garbage.
    for (let bound = 1; bound < 40; bound++) {
      const got = boundedJsonString(line, 0, line.length, bound);
      expect('a\\b "c" é😀 tail'.startsWith(got), `${bound}: ${got}`).toBe(true);
    }
    expect(boundedJsonString(Buffer.from('{"x":1}'), 0, 7, 100)).toBe('');
  });
});
