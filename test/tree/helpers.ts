/**
 * Hand-made sessions for the tree tests: entries are written compactly and turned into the
 * store's LoadedSession / SessionTree exactly as a read file would be.
 */
import type { TreeStore } from '../../components/tree/TreeScreen.js';
import { buildTree, type SessionTree } from '../../src/store/tree.js';
import type { JsonObject, LoadedSession, SessionEntry } from '../../src/store/types.js';

let clock = Date.parse('2026-02-05T10:00:00.000Z');

export function resetClock(): void {
  clock = Date.parse('2026-02-05T10:00:00.000Z');
}

function ts(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export function entry(id: string, parentId: string | null, type: string, fields: JsonObject = {}): SessionEntry {
  return { type, id, parentId, timestamp: ts(), ...fields };
}

export function user(id: string, parentId: string | null, text: string): SessionEntry {
  return entry(id, parentId, 'message', { message: { role: 'user', content: text, timestamp: clock } });
}

export function assistant(id: string, parentId: string | null, text: string, extra: JsonObject = {}): SessionEntry {
  return entry(id, parentId, 'message', {
    message: {
      role: 'assistant',
      content: text === '' ? [] : [{ type: 'text', text }],
      stopReason: 'stop',
      provider: 'anthropic',
      model: 'claude',
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.01 } },
      ...extra,
    },
  });
}

export function toolCalls(
  id: string,
  parentId: string | null,
  calls: { id: string; name: string; args: JsonObject }[],
): SessionEntry {
  return entry(id, parentId, 'message', {
    message: {
      role: 'assistant',
      content: calls.map((c) => ({ type: 'toolCall', id: c.id, name: c.name, arguments: c.args })),
      stopReason: 'toolUse',
    },
  });
}

export function toolResult(
  id: string,
  parentId: string | null,
  callId: string,
  name: string,
  output: string,
): SessionEntry {
  return entry(id, parentId, 'message', {
    message: {
      role: 'toolResult',
      toolCallId: callId,
      toolName: name,
      content: [{ type: 'text', text: output }],
      isError: false,
    },
  });
}

export function label(id: string, parentId: string | null, targetId: string, value?: string): SessionEntry {
  return entry(id, parentId, 'label', value === undefined ? { targetId } : { targetId, label: value });
}

export function sessionOf(entries: SessionEntry[], path = '/tmp/test.jsonl'): LoadedSession {
  return {
    ok: true,
    path,
    header: { type: 'session', id: 'test', version: 3, timestamp: '2026-02-05T10:00:00.000Z', cwd: '/home/me/proj' },
    diskVersion: 3,
    entries,
    entryLines: entries.map((_, i) => i + 2),
    problems: [],
    size: 0,
    mtimeMs: 0,
    endsWithNewline: true,
  };
}

export function treeOf(entries: SessionEntry[]): SessionTree {
  return buildTree(sessionOf(entries));
}

/** pi §2.1's sample session: branch A holds the leaf (the custom message). */
export function piSample(): SessionEntry[] {
  resetClock();
  return [
    user('u1', null, 'Hello, can you help me'),
    assistant('a1', 'u1', 'Of course!'),
    user('uA', 'a1', 'approach A please'),
    toolCalls('tA', 'uA', [
      { id: 'c1', name: 'read', args: { path: '/home/me/src/a.ts', offset: 10, limit: 20 } },
      { id: 'c2', name: 'bash', args: { command: 'npm test -- --watch=false && echo done and then some more words' } },
    ]),
    toolResult('r1', 'tA', 'c1', 'read', 'file contents out'),
    toolResult('r2', 'r1', 'c2', 'bash', 'tests pass'),
    assistant('aA', 'r2', 'For approach A, done.'),
    entry('cA', 'aA', 'compaction', { summary: 'sum', tokensBefore: 12000, firstKeptEntryId: 'aA' }),
    user('uA2', 'cA', 'That worked'),
    assistant('aA2', 'uA2', 'Great'),
    user('uB', 'a1', 'Actually approach B'),
    assistant('aB', 'uB', 'For approach B'),
    user('uB1', 'aB', 'B.1'),
    assistant('aB1', 'uB1', 'B.1 answer'),
    user('uB2', 'aB', 'B.2'),
    assistant('aB2', 'uB2', 'B.2 answer'),
    entry('sB', 'aB', 'branch_summary', { fromId: 'aA2', summary: 'Tried approach A; it worked.' }),
    label('l1', 'aA2', 'uA', 'checkpoint'),
    entry('x1', 'aA2', 'custom_message', { customType: 'ext', content: 'hello from ext', display: true }),
  ];
}

/** A TreeStore over fixed entries whose writes succeed without touching anything (component tests). */
export function storeOf(entries: SessionEntry[]): TreeStore {
  return {
    readSession: async () => sessionOf(entries),
    setLabel: async () => ({}),
    branchInPlace: async (_path, id) => ({ leafId: id }),
    forkSession: async () => ({ path: '/tmp/forked.jsonl' }),
    undoStep: async () => ({ kind: 'nothing' }),
    redoStep: async () => ({ kind: 'nothing' }),
  };
}
