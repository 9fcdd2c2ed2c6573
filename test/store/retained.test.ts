/**
 * Compaction checkpoints (session-format.md §4, §8.4) on the hand-made retained-tail fixtures:
 * the format's context (summary, retained messages, later entries), pi 1.6.0's (checked against
 * the real pi dev dependency), and usage that retained copies must not count twice.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contextJson } from '../../src/cli/commands.js';
import {
  buildContext,
  buildTree,
  type LoadedSession,
  readSessionFromBuffer,
  readSessionSync,
  retainedTailOf,
  sessionUsage,
  subtreeUsage,
  summarizeFileSync,
} from '../../src/store/index.js';
import { canonicalJson } from '../helpers/corpus.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';
import { describeMessage, RETAINED_EXPECTED, RETAINED_FILES, retainedPath } from '../helpers/retained.js';

function load(file: string): LoadedSession {
  const result = readSessionSync(retainedPath(file));
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** The raw JSON lines of a fixture, by id. */
function rawEntries(file: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(retainedPath(file), 'utf8').split('\n')) {
    if (line === '') continue;
    const value = JSON.parse(line) as Record<string, unknown>;
    if (typeof value['id'] === 'string') out.set(value['id'], value);
  }
  return out;
}

describe('retained-tail fixtures', () => {
  for (const file of RETAINED_FILES) {
    for (const expected of RETAINED_EXPECTED[file]!.contexts) {
      it(`${file} at ${expected.leaf}: the format's context, message for message`, () => {
        const tree = buildTree(load(file));
        const context = buildContext(tree, expected.leaf);
        expect(context.contextEntries.map((e) => e.id)).toEqual(expected.format.contextEntries);
        expect(context.messages.map((m, i) => describeMessage(m, context.sources[i]!))).toEqual(
          expected.format.messages,
        );
        // A retained message is the tail's element itself, byte for byte (nothing added).
        const raw = rawEntries(file);
        context.sources.forEach((source, i) => {
          if ('retainedBy' in source) {
            const tail = raw.get(source.retainedBy)!['retainedTail'] as unknown[];
            expect(JSON.stringify(context.messages[i])).toBe(JSON.stringify(tail[source.index]));
          }
        });
      });

      it(`${file} at ${expected.leaf}: --as-pi is pi 1.6.0's answer, as the real pi gives it`, async () => {
        const tree = buildTree(load(file));
        const context = buildContext(tree, expected.leaf, { asPi: true });
        expect(context.contextEntries.map((e) => e.id)).toEqual(expected.pi.contextEntries);
        expect(context.messages.map((m, i) => describeMessage(m, context.sources[i]!))).toEqual(expected.pi.messages);
        const pi = await openWithPi(retainedPath(file));
        expect(pi.changedOnOpen).toBe(false);
        const piMessages = await piContextAt(pi.manager, expected.leaf);
        expect(context.messages.map(canonicalJson)).toEqual(piMessages.map(canonicalJson));
        expect(context.messages.map((m) => JSON.stringify(m))).toEqual(piMessages.map((m) => JSON.stringify(m)));
      });

      it(`${file} at ${expected.leaf}: context --json says when pi 1.6.0 drops the tail`, () => {
        for (const asPi of [false, true]) {
          const out = contextJson(load(file), expected.leaf, { asPi });
          expect(out['droppedByPi']).toEqual(expected.droppedByPi);
          expect(out['rule']).toBe(asPi ? 'pi-1.6.0' : 'format');
          expect((out['sources'] as unknown[]).length).toBe((out['messages'] as unknown[]).length);
        }
      });
    }
  }

  it('never counts the usage of retained messages: they copy entries that already spent it', () => {
    // no-first-kept: two assistant entries of 1,500 tokens each; the tail copies one of them.
    const tree = buildTree(load('no-first-kept.jsonl'));
    expect(sessionUsage(tree).totalTokens).toBe(3000);
    expect(subtreeUsage(tree, 'a0000005').totalTokens).toBe(0);
    const info = summarizeFileSync(retainedPath('no-first-kept.jsonl'));
    expect('usage' in info && info.usage.totalTokens).toBe(3000);
    // nested: the tails copy both assistant entries (1,500 tokens each).
    const nested = summarizeFileSync(retainedPath('nested.jsonl'));
    expect('usage' in nested && nested.usage.totalTokens).toBe(3000);
    expect(sessionUsage(buildTree(load('nested.jsonl'))).totalTokens).toBe(3000);
  });

  it('takes a hostile tail defensively: non-objects skipped (positions kept), null content like pi, a non-array ignored', () => {
    const lines = [
      { type: 'session', version: 3, id: 'h', timestamp: '2026-03-01T10:00:00.000Z', cwd: '/x' },
      {
        type: 'compaction',
        id: 'c1',
        parentId: null,
        timestamp: '2026-03-01T10:01:00.000Z',
        summary: 's1',
        tokensBefore: 1,
        retainedTail: 'not an array',
      },
      {
        type: 'compaction',
        id: 'c2',
        parentId: 'c1',
        timestamp: '2026-03-01T10:02:00.000Z',
        summary: 's2',
        tokensBefore: 1,
        retainedTail: ['junk', null, { role: 'user', content: null, timestamp: 5 }],
      },
    ];
    const read = readSessionFromBuffer('/h.jsonl', Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join('')));
    if (!read.ok) throw new Error(read.message);
    const tree = buildTree(read);
    expect(retainedTailOf(tree.byId.get('c1')!)).toBeUndefined();
    const context = buildContext(tree);
    expect(context.messages).toEqual([
      { role: 'compactionSummary', summary: 's2', tokensBefore: 1, timestamp: Date.parse('2026-03-01T10:02:00.000Z') },
      { role: 'user', content: [], timestamp: 5 },
    ]);
    expect(context.sources).toEqual([{ entryId: 'c2' }, { retainedBy: 'c2', index: 2 }]);
    expect(context.retainedTail).toEqual({ compactionId: 'c2', droppedMessages: 1, keptEntriesInstead: [] });
    // At c1 (a non-array tail) the compaction is an ordinary one.
    expect(buildContext(tree, 'c1').retainedTail).toBeUndefined();
  });
});
