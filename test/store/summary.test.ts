/**
 * The listing's fast path (tool results not parsed) must give the same answers as the full reader:
 * leaf, counts, branches and usage, on every corpus file and on hand-made edge cases.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  branchPointCount,
  buildTree,
  readSessionFromBuffer,
  readSessionSync,
  type SessionInfo,
  sessionUsage,
  summarizeFileSync,
} from '../../src/store/index.js';
import { LineSplitter } from '../../src/store/read/lines.js';
import { SummaryCollector } from '../../src/store/summary/summary.js';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder } from '../helpers/factory.js';

function summarizeText(text: string): SessionInfo {
  const collector = new SummaryCollector('/mem.jsonl');
  const splitter = new LineSplitter(collector.onLine);
  const bytes = Buffer.from(text);
  splitter.push(bytes, bytes.length);
  splitter.end();
  const info = collector.finish(bytes.length, 0, splitter.endsWithNewline);
  if ('ok' in info) throw new Error(info.message);
  return info;
}

function fullView(text: string) {
  const loaded = readSessionFromBuffer('/mem.jsonl', Buffer.from(text));
  if (!loaded.ok) throw new Error(loaded.message);
  const tree = buildTree(loaded);
  return {
    leafId: tree.leafId,
    entryCount: loaded.entries.length,
    branchCount: branchPointCount(tree),
    usage: sessionUsage(tree),
  };
}

describe('listing summary agrees with the full reader', () => {
  it('on every v3 file of both corpora', () => {
    let checked = 0;
    for (const corpus of ['pi-written', 'generated']) {
      const root = join(FIXTURES, corpus, 'sessions');
      for (const folder of readdirSync(root)) {
        for (const name of readdirSync(join(root, folder))) {
          const path = join(root, folder, name);
          const full = readSessionSync(path);
          if (!full.ok || full.diskVersion < 3) continue;
          const tree = buildTree(full);
          if (tree.problems.some((p) => p.kind === 'duplicate-id')) continue; // listing counts like pi, per line
          const info = summarizeFileSync(path);
          if ('ok' in info) throw new Error(`${path}: ${info.message}`);
          expect(info.leafId, path).toBe(tree.leafId);
          expect(info.entryCount, path).toBe(full.entries.length);
          expect(info.branchCount, path).toBe(branchPointCount(tree));
          const usage = sessionUsage(tree);
          expect(info.usage.totalTokens, path).toBe(usage.totalTokens);
          expect(info.usage.cost, path).toBeCloseTo(usage.cost, 10);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('counts tool-result usage, parses glued and odd tool-result lines, and keeps branches', () => {
    const b = new SessionBuilder();
    const u = b.user('run it');
    b.toolCall('bash', { command: 'ls' });
    const withUsage = JSON.stringify({
      type: 'message',
      id: 'tr000001',
      parentId: b.leaf,
      timestamp: '2026-01-05T10:00:00.000Z',
      message: {
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'task',
        content: [{ type: 'text', text: 'done' }],
        isError: false,
        timestamp: 1,
        usage: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 10, cost: { total: 0.5 } },
      },
    });
    b.raw(withUsage);
    const plain = JSON.stringify({
      type: 'message',
      id: 'tr000002',
      parentId: 'tr000001',
      timestamp: '2026-01-05T10:00:01.000Z',
      message: {
        role: 'toolResult',
        toolCallId: 'c',
        toolName: 'read',
        content: [{ type: 'text', text: 'a "usage" word and }{ braces' }],
        isError: false,
        timestamp: 2,
      },
    });
    const glued = JSON.stringify({
      type: 'message',
      id: 'tr000003',
      parentId: 'tr000002',
      timestamp: '2026-01-05T10:00:02.000Z',
      message: { role: 'toolResult', toolCallId: 'c', toolName: 'read', content: [], isError: false, timestamp: 3 },
    });
    const gluedTail = JSON.stringify({
      type: 'message',
      id: 'as000004',
      parentId: 'tr000003',
      timestamp: '2026-01-05T10:00:03.000Z',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'ok' }],
        provider: 'p',
        model: 'm',
        usage: { totalTokens: 7, cost: { total: 0.25 } },
        timestamp: 4,
      },
    });
    b.raw(plain).raw(glued + gluedTail);
    const escapedId = JSON.stringify({
      type: 'message',
      id: 'we\\ird',
      parentId: u,
      timestamp: '2026-01-05T10:00:04.000Z',
      message: { role: 'toolResult', toolCallId: 'c', toolName: 'x', content: [], isError: false, timestamp: 5 },
    });
    b.raw(escapedId);
    const text = b.text();
    const info = summarizeText(text);
    const full = fullView(text);
    expect(info.leafId).toBe('we\\ird');
    expect(info.leafId).toBe(full.leafId);
    expect(info.entryCount).toBe(full.entryCount);
    expect(info.branchCount).toBe(full.branchCount);
    expect(info.usage.totalTokens).toBe(full.usage.totalTokens);
    expect(info.usage.cost).toBeCloseTo(full.usage.cost, 10);
    expect(info.problems.map((p) => p.kind)).toEqual(['glued-line']);
  });

  it('a tool-result line cut inside its text and continued by the next entry is refused, as the full reader and pi refuse it', () => {
    const b = new SessionBuilder();
    b.user('read the file');
    b.toolCall('read', { path: 'a.ts' });
    const toolLine = b.toolResult('read', 'export const a = 1;\nexport const b = 2;\n');
    const after = b.user('thanks');
    const lines = b.text().split('\n');
    const toolAt = lines.findIndex((line) => line.includes(`"id":"${toolLine}"`));
    // The tool result written only up to its text (a full disk, a crash), then the next entry
    // appended after it on the same line: the line still ends in `}`.
    const cut = lines[toolAt]!.indexOf('export const b');
    lines.splice(toolAt, 2, lines[toolAt]!.slice(0, cut) + lines[toolAt + 1]!);
    const text = lines.join('\n');
    const info = summarizeText(text);
    const full = fullView(text);
    expect(info.entryCount).toBe(full.entryCount);
    expect(info.leafId).toBe(full.leafId);
    expect(info.leafId).not.toBe(after);
    expect(info.problems.map((p) => p.kind)).toEqual(['unparsable-line']);
  });

  it('a tool-result line cut before its role, continued by another tool result, is refused too', () => {
    const b = new SessionBuilder();
    b.user('list');
    b.toolCall('bash', { command: 'ls' });
    b.toolResult('bash', 'a\nb\n');
    b.toolCall('bash', { command: 'ls -a' });
    const second = b.toolResult('bash', '.\n..\na\nb\n');
    const lines = b.text().split('\n');
    const at = lines.findIndex((line) => line.includes('"role":"toolResult"'));
    const cut = lines[at]!.indexOf('"message":');
    // The first line cut in its prefix, the next tool result glued after it: its role marker is
    // the only one on the line, within the prefix window.
    const glued = lines[at]!.slice(0, cut) + lines.find((line) => line.includes(`"id":"${second}"`))!;
    const text = [...lines.slice(0, at), glued, ''].join('\n');
    const info = summarizeText(text);
    const full = fullView(text);
    expect(info.entryCount).toBe(full.entryCount);
    expect(info.leafId).toBe(full.leafId);
    expect(info.problems.map((p) => p.kind)).toEqual(['unparsable-line']);
  });
});
