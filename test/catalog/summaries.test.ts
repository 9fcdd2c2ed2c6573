/**
 * The branch and compaction summaries as a search field of a listed session (`summaryText`, the
 * entry and place of each): gathered by the listing pass, equal on demand, and kept by the
 * catalogue through a warm start and the resume of a grown file.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sliceTag } from '../../src/catalog/format.js';
import { listSessionsCached } from '../../src/catalog/index.js';
import { searchTextPieces, unpackMainTexts } from '../../src/catalog/text-slices.js';
import { type SessionInfo, summarizeAppended, summarizeFileSync, summarizeFull } from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { appendLines, corpusStore, plain } from './helpers.js';

const WEBSHOP = join(
  FIXTURES,
  'pi-written',
  'sessions',
  '--home-dev-code-webshop--',
  '2026-02-05T16-31-51-967Z_019c2ea5-509f-70f7-9c6b-a333399f47ff.jsonl',
);

function listed(path: string): SessionInfo {
  const info = summarizeFileSync(path);
  if ('ok' in info) throw new Error(info.message);
  return info;
}

describe('the summaries of a listed session', () => {
  it('gathers the branch summary of the pi-written session, with its entry and place, outside pi’s message text', () => {
    const info = listed(WEBSHOP);
    expect(info.summaryText).toContain('Abandoned: webhook retries via queue.');
    expect(info.allMessagesText).not.toContain('webhook retries via queue');
    const i = info.summaryEntries.indexOf('e7395c82');
    expect(i).toBeGreaterThanOrEqual(0);
    // The summary's end, and the text between the previous end and it is that summary.
    const end = info.summaryPlaces[i * 2]!;
    const start = i === 0 ? 0 : info.summaryPlaces[i * 2 - 2]! + 1;
    expect(info.summaryText.slice(start, end)).toBe('Abandoned: webhook retries via queue.');
    expect(info.summaryPlaces).toHaveLength(info.summaryEntries.length * 2);
  });

  it('places each summary like the message text: active, abandoned or compacted as seen from the leaf', () => {
    const b = new SessionBuilder();
    b.user('start');
    const fork = b.assistant('a reply');
    b.user('a way not taken');
    b.branchSummary('the abandoned way', fork);
    b.branchFrom(fork);
    const kept = b.user('the way pi resumes');
    b.branchSummary('the kept way', kept);
    b.compaction('squashed the start', kept);
    b.user('after the compaction');
    const info = listed(b.writeTo(join(tempDir('summaries-'), 'placed.jsonl')));
    expect(info.summaryText).toBe('the abandoned way the kept way squashed the start');
    expect(info.summaryPlaces).toEqual([17, 1, 30, 0, 49, 0]);
    expect(info.summaryEntries).toHaveLength(3);
    expect(info.summaryEntries.every((id) => id !== '')).toBe(true);
  });

  it('reads the same summaries on demand as in the listing pass', () => {
    const eager = listed(WEBSHOP);
    const onDemand = summarizeFileSync(WEBSHOP, 'on-demand') as SessionInfo;
    expect(onDemand.summaryText).toBe(eager.summaryText);
    expect(onDemand.summaryEntries).toEqual(eager.summaryEntries);
    expect(onDemand.summaryPlaces).toEqual(eager.summaryPlaces);
  });

  it('round-trips through the catalogue text slice: messages, targets and summaries apart', () => {
    const info = listed(WEBSHOP);
    const tag = sliceTag(info.path);
    const [header, messages, targets, summaries] = searchTextPieces(info, tag);
    const texts = unpackMainTexts(header + messages + targets + summaries, tag);
    expect(texts).toEqual({
      allMessagesText: info.allMessagesText,
      toolTargets: info.toolTargets,
      summaryText: info.summaryText,
    });
    // A slice of the old layout (two lengths) is not read as this one.
    expect(() => unpackMainTexts(`${tag} ${messages.length} ${targets.length}\n${messages}${targets}`, tag)).toThrow();
  });

  it('resumes a grown file with a summary on each side of the cut to the same row as one pass', () => {
    const b = new SessionBuilder();
    b.user('first question');
    const fork = b.assistant('first answer');
    b.branchSummary('before the cut', fork);
    const path = b.writeTo(join(tempDir('summaries-'), 'grown.jsonl'));
    const first = summarizeFull(path);
    expect(first.resume).toBeDefined();
    appendLines(path, [
      {
        type: 'branch_summary',
        id: 'grown001',
        parentId: fork,
        timestamp: '2026-01-05T12:00:00.000Z',
        fromId: fork,
        summary: 'after the cut',
      },
    ]);
    const next = summarizeAppended(path, first.result as SessionInfo, first.resume!, first.ino);
    expect(next).toBeDefined();
    const resumed = next!.result as SessionInfo;
    expect(resumed).toStrictEqual(summarizeFileSync(path));
    expect(resumed.summaryText).toBe('before the cut after the cut');
    expect(resumed.summaryEntries.at(-1)).toBe('grown001');
  });

  it('keeps them in the catalogue: a warm start and the refresh of a grown file list what a fresh read does', async () => {
    const store = corpusStore();
    const path = store.files.find((f) => f.endsWith('019c2ea5-509f-70f7-9c6b-a333399f47ff.jsonl'))!;
    const list = async () => {
      const result = await listSessionsCached(store.locations, { scope: 'all', cacheDir: store.cacheDir });
      await result.saved;
      return result.sessions.map(plain).find((s) => s.path === path)!;
    };
    const cold = await list();
    const warm = await list();
    expect(warm.summaryText).toContain('webhook retries via queue');
    expect(warm).toStrictEqual(cold);
    appendLines(path, [
      {
        type: 'branch_summary',
        id: 'grown002',
        parentId: 'e7395c82',
        timestamp: '2026-02-05T18:00:00.000Z',
        fromId: 'e7395c82',
        summary: 'Appended later: a summary of a grown file.',
      },
    ]);
    const grown = await list();
    expect(grown.summaryText.endsWith(' Appended later: a summary of a grown file.')).toBe(true);
    expect(grown).toStrictEqual(plain(listed(path)));
  });
});
