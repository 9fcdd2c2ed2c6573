import { describe, expect, it } from 'vitest';
import { createSearchIndex, parseQuery, prepareTexts, rowSnippet, searchSessions } from '../../src/picker/query.js';
import { makeInfo, NOW } from './make-info.js';

/** The row snippet of the first match of `query` among `infos`. */
function snippetOf(query: string, ...infos: ReturnType<typeof makeInfo>[]) {
  prepareTexts(infos, Number.POSITIVE_INFINITY);
  const parsed = parseQuery(query, NOW);
  const outcome = searchSessions(createSearchIndex(infos), parsed, { preparedOnly: false });
  const match = outcome.matches[0];
  if (!match?.textHit) throw new Error(`no text hit for ${query}`);
  return rowSnippet(match.info, match.textHit);
}

describe('row snippets do not repeat the title', () => {
  it('a hit inside the first prompt of an unnamed session (its title) shows the next place the words occur', () => {
    const info = makeInfo({
      path: '/a',
      firstMessage: 'refactor the flux capacitor',
      allMessagesText: 'refactor the flux capacitor Sure. The flux capacitor lives in src/time.ts',
    });
    const snippet = snippetOf('capacitor', info);
    expect(snippet?.match).toBe('capacitor');
    expect(snippet?.before).toBe(' Sure. The flux ');
    expect(snippet?.after).toBe(' lives in src/time.ts');
  });

  it('no later occurrence: no snippet (the title already shows the hit)', () => {
    const info = makeInfo({
      path: '/a',
      firstMessage: 'refactor the flux capacitor',
      allMessagesText: 'refactor the flux capacitor Done, see the diff.',
    });
    expect(snippetOf('capacitor', info)).toBeUndefined();
  });

  it('a named session keeps the snippet of its first prompt (the title is the name)', () => {
    const info = makeInfo({
      path: '/a',
      name: 'Time machine',
      firstMessage: 'refactor the flux capacitor',
      allMessagesText: 'refactor the flux capacitor Done.',
    });
    expect(snippetOf('capacitor', info)).toEqual({ before: 'refactor the flux ', match: 'capacitor', after: ' Done.' });
  });

  it('a hit after the first prompt is shown as it is', () => {
    const info = makeInfo({ path: '/a', firstMessage: 'hello', allMessagesText: 'hello The flux capacitor is ready' });
    expect(snippetOf('capacitor', info)?.before).toBe('hello The flux ');
  });
});
