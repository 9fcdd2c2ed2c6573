/**
 * The picker's full-text search over branch and compaction summaries: on the pi-written corpus
 * (a branch summary "Abandoned: webhook retries via queue."), its rank, snippet, place and the
 * entry the tree opens on; and the row's snippet on screen.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  createSearchIndex,
  parseQuery,
  prepareTexts,
  rowSnippet,
  searchSessions,
  snippetFor,
} from '../../src/picker/query.js';
import { hitFocus, shownHit } from '../../src/picker/text-hit-places.js';
import { type SessionInfo, summarizeFileSync } from '../../src/store/index.js';
import { sessionsRoot } from '../helpers/corpus.js';
import { KEYS } from '../helpers/ink.js';
import { makeInfo, NOW } from './make-info.js';
import { listingSource, renderPicker } from './picker-screen-fixture.js';

function corpusSessions(): SessionInfo[] {
  const root = sessionsRoot('pi-written');
  const out: SessionInfo[] = [];
  for (const dir of readdirSync(root))
    for (const name of readdirSync(join(root, dir))) {
      const info = summarizeFileSync(join(root, dir, name));
      if (!('ok' in info)) out.push(info);
    }
  return out;
}

const sessions = corpusSessions();
const index = createSearchIndex(sessions);
prepareTexts(sessions, Number.POSITIVE_INFINITY);
const WEBSHOP_ID = '019c2ea5-509f-70f7-9c6b-a333399f47ff';

describe('summaries in the full-text search (pi-written corpus)', () => {
  // Tier 2 (query-engine.ts), a message-text hit's, for each term: two words score twice.
  it.each([
    ['webhook retries', 4000],
    ['"webhook retries via"', 2000],
    ['re:webhook\\s+retr[a-z]+', 2000],
  ] as const)('%s finds the session whose branch summary says it, ranked as a message-text hit', (text, score) => {
    const query = parseQuery(text, NOW);
    const { matches } = searchSessions(index, query);
    expect(matches.map((m) => m.info.id)).toEqual([WEBSHOP_ID]);
    const match = matches[0]!;
    expect(match.score).toBe(score);
    expect(match.textHit).toBeDefined();
    const snippet = snippetFor(match.info, match.textHit!);
    // Two words: the hit shown is the first word's.
    expect(snippet.match.toLowerCase()).toMatch(/^webhook/);
    expect(snippet.before.endsWith('Abandoned: ')).toBe(true);
    const row = rowSnippet(match.info, match.textHit!);
    expect(`${row?.match}${row?.after}`).toMatch(/^webhook retries via queue\./);
  });

  it('the hit is where its branch summary is, and the tree opens on that entry', () => {
    const query = parseQuery('webhook retries', NOW);
    const match = searchSessions(index, query).matches[0]!;
    const shown = shownHit(match.info, match.textHit, query);
    // pi writes the summary of the branch it left on the path it goes on: active, as its entry is.
    expect(shown?.place).toBe('active');
    expect(hitFocus(match.info, match.textHit, query)).toEqual({
      text: 'webhook',
      place: 'active',
      entryId: 'e7395c82',
      words: 'webhook retries',
    });
    expect(searchSessions(index, parseQuery('webhook retries in:active', NOW)).matches).toHaveLength(1);
    expect(searchSessions(index, parseQuery('webhook retries in:abandoned', NOW)).matches).toHaveLength(0);
  });

  it('a message-text hit names no summary entry', () => {
    const info = makeInfo({ path: '/m', allMessagesText: 'the queue worker', summaryText: 'a queue summary' });
    info.summaryEntries = ['s1'];
    info.summaryPlaces = [15, 0];
    const query = parseQuery('queue', NOW);
    const match = searchSessions(createSearchIndex([info]), query).matches[0]!;
    expect(hitFocus(info, match.textHit, query)).toEqual({ text: 'queue', place: 'active' });
    const onlySummary = parseQuery('summary', NOW);
    const hit = searchSessions(createSearchIndex([info]), onlySummary).matches[0]!;
    expect(hitFocus(info, hit.textHit, onlySummary)).toEqual({ text: 'summary', place: 'active', entryId: 's1' });
  });
});

describe('the picker shows a summary hit', () => {
  it('lists the session with the summary as its snippet, and → opens the tree on the summary entry', async () => {
    const infos = [
      makeInfo({ path: '/s/plain.jsonl', firstMessage: 'plain session', allMessagesText: 'plain session text' }),
      makeInfo({
        path: '/s/summarised.jsonl',
        firstMessage: 'set up payments',
        allMessagesText: 'set up payments Done.',
        summaryText: 'Abandoned: webhook retries via queue.',
        summaryEntries: ['e7395c82'],
        summaryPlaces: [37, 1],
      }),
    ];
    const { app, onOpenTree } = renderPicker(listingSource(infos), { columns: 120, rows: 20 });
    await app.waitFor('plain session');
    await app.type('webhook retries');
    const frame = await app.waitFor((f) => f.includes('1/2'));
    expect(frame).toContain('set up payments');
    expect(frame).not.toContain('plain session');
    // One hit of each word, both in the abandoned summary.
    expect(frame).toMatch(/2 abandoned: .*Abandoned: webhook retries via queue\./);
    await app.press(KEYS.right);
    await vi.waitFor(() => expect(onOpenTree).toHaveBeenCalled());
    expect(onOpenTree.mock.calls[0]![0]).toBe('/s/summarised.jsonl');
    expect(onOpenTree.mock.calls[0]![2]).toEqual({
      text: 'webhook',
      place: 'abandoned',
      entryId: 'e7395c82',
      words: 'webhook retries',
    });
  });
});
