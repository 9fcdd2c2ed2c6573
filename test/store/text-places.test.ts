/**
 * The listing's `textPlaces` (store/summary/text-places.ts) against the tree's answer (entryPlaces over a
 * whole read, itself checked against pi's goldens): every text of the summary placed where its
 * entry is, on the corpus and on hand-made branch, compaction, checkpoint, v1 and cycle cases.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildTree,
  type EntryPlace,
  entryPlaces,
  isObject,
  messageOf,
  readSessionSync,
  summarizeFileSync,
  textOfContent,
} from '../../src/store/index.js';
import { PLACE_CODES } from '../../src/store/summary/text-places.js';
import { FIXTURES, goldenCases } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

/** The runs the tree implies: each text the summary takes, in file order, at its entry's place. */
function expectedRuns(path: string): { text: string; runs: number[] } {
  const session = readSessionSync(path);
  if (!session.ok) throw new Error(session.message);
  const places = entryPlaces(buildTree(session));
  const pieces: { text: string; place: EntryPlace }[] = [];
  for (const entry of session.entries) {
    const place = places.get(entry.id) ?? 'abandoned';
    if (entry.type === 'compaction' && Array.isArray(entry['retainedTail'])) {
      for (const m of entry['retainedTail']) {
        if (isObject(m) && (m['role'] === 'user' || m['role'] === 'assistant')) {
          const text = textOfContent(m['content']);
          if (text) pieces.push({ text, place });
        }
      }
    }
    const message = entry.type === 'message' ? messageOf(entry) : undefined;
    if (!message || (message['role'] !== 'user' && message['role'] !== 'assistant') || !('content' in message))
      continue;
    const text = textOfContent(message['content']);
    if (text) pieces.push({ text, place });
  }
  const runs: number[] = [];
  let end = 0;
  pieces.forEach((piece, i) => {
    end += piece.text.length + (i > 0 ? 1 : 0);
    const code = PLACE_CODES.indexOf(piece.place);
    if (runs.length > 0 && runs[runs.length - 1] === code) runs[runs.length - 2] = end;
    else runs.push(end, code);
  });
  return { text: pieces.map((p) => p.text).join(' '), runs: pieces.every((p) => p.place === 'active') ? [] : runs };
}

function expectSameAsTree(path: string): number[] {
  const info = summarizeFileSync(path);
  if (!('textPlaces' in info)) throw new Error(`not a session: ${path}`);
  const expected = expectedRuns(path);
  expect(info.allMessagesText).toBe(expected.text);
  expect(info.textPlaces).toEqual(expected.runs);
  return info.textPlaces;
}

describe('textPlaces', () => {
  const corpus = [
    // An empty file pi opens with a fresh header is not a listed session: no text to place.
    ...goldenCases()
      .filter((c) => !c.golden.error && !c.golden.generatedHeader)
      .map((c) => c.sessionPath),
    ...readdirSync(join(FIXTURES, 'retained'))
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => join(FIXTURES, 'retained', f)),
  ];
  for (const path of corpus) it(`matches the tree on ${path.slice(FIXTURES.length + 1)}`, () => expectSameAsTree(path));

  it('finds abandoned and compacted text somewhere in the corpus', () => {
    const codes = corpus.flatMap((path) => {
      const info = summarizeFileSync(path);
      return 'textPlaces' in info ? info.textPlaces.filter((_, i) => i % 2 === 1) : [];
    });
    expect(codes).toContain(PLACE_CODES.indexOf('abandoned'));
    expect(codes).toContain(PLACE_CODES.indexOf('compacted'));
  });

  const dir = tempDir('text-places-');

  it('places a branch pi left, a compaction and what it keeps', () => {
    const b = new SessionBuilder();
    b.user('old question');
    const kept = b.assistant('kept answer');
    b.user('recent question');
    const fork = b.assistant('fork point');
    b.user('abandoned idea');
    b.assistant('abandoned reply');
    b.branchFrom(fork);
    b.compaction('summary', kept);
    b.user('after compaction');
    const runs = expectSameAsTree(b.writeTo(join(dir, 'branched.jsonl')));
    const text = 'old question kept answer recent question fork point abandoned idea abandoned reply after compaction';
    const at = (s: string): number => text.indexOf(s) + s.length;
    expect(runs).toEqual([at('old question'), 2, at('fork point'), 0, at('abandoned reply'), 1, text.length, 0]);
  });

  it('keeps nothing from before a checkpoint (retainedTail) and places its messages at the compaction', () => {
    const b = new SessionBuilder();
    b.user('before the checkpoint');
    const kept = b.assistant('would be kept by firstKeptEntryId');
    b.entry('compaction', {
      summary: 's',
      firstKeptEntryId: kept,
      tokensBefore: 1,
      retainedTail: [{ role: 'user', content: 'retained words', timestamp: 1 }],
    });
    b.user('after');
    expect(expectSameAsTree(b.writeTo(join(dir, 'checkpoint.jsonl')))).toEqual([
      'before the checkpoint would be kept by firstKeptEntryId'.length,
      2,
      'before the checkpoint would be kept by firstKeptEntryId retained words after'.length,
      0,
    ]);
  });

  it('reads a v1 file (no ids, firstKeptEntryIndex) like its migration', () => {
    const b = new SessionBuilder({ version: null });
    const line = (o: Record<string, unknown>): void =>
      void b.raw(JSON.stringify({ timestamp: '2025-01-01T00:00:00.000Z', ...o }));
    line({ type: 'message', message: { role: 'user', content: 'first v1 prompt' } });
    line({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'first v1 answer' }] } });
    line({ type: 'compaction', summary: 's', firstKeptEntryIndex: 2, tokensBefore: 1 });
    line({ type: 'message', message: { role: 'user', content: 'later v1 prompt' } });
    expect(expectSameAsTree(b.writeTo(join(dir, 'v1.jsonl')))).toEqual([
      'first v1 prompt'.length,
      2,
      'first v1 prompt first v1 answer later v1 prompt'.length,
      0,
    ]);
  });

  it('gives [] for a linear session and survives a parent cycle', () => {
    const b = new SessionBuilder();
    b.user('just one line of talk');
    b.assistant('and a reply');
    expect(expectSameAsTree(b.writeTo(join(dir, 'linear.jsonl')))).toEqual([]);
    const c = new SessionBuilder();
    c.raw(
      JSON.stringify({
        type: 'message',
        id: 'aaaa0001',
        parentId: 'aaaa0002',
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: 'in a loop' },
      }),
    );
    c.raw(
      JSON.stringify({
        type: 'message',
        id: 'aaaa0002',
        parentId: 'aaaa0001',
        timestamp: '2026-01-01T00:00:01.000Z',
        message: { role: 'assistant', content: [{ type: 'text', text: 'looping' }] },
      }),
    );
    expectSameAsTree(c.writeTo(join(dir, 'cycle.jsonl')));
  });
});
