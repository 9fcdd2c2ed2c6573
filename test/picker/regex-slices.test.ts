/**
 * A `re:` search runs in slices (src/picker/regex-search.ts): a pass stops starting new sessions
 * when its budget is spent and says how many are pending; the next pass goes on from the cache,
 * and the last one gives what one unbudgeted pass gives. The picker's `searchMore` runs the
 * passes; a regex's hits in one session are counted up to REGEX_HITS_COUNTED.
 */
import { describe, expect, it } from 'vitest';
import { createSearchIndex, parseQuery, searchSessions } from '../../src/picker/query.js';
import { initialPickerState, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import { hitCountsText, REGEX_HITS_COUNTED, tagHits } from '../../src/picker/text-hit-places.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const sessions: SessionInfo[] = Array.from({ length: 40 }, (_, i) =>
  makeInfo({
    path: `/s/${String(i).padStart(2, '0')}.jsonl`,
    ageMs: (i + 1) * DAY,
    name: i === 5 ? 'Parser rewrite' : undefined,
    allMessagesText: `${'filler words here '.repeat(2000)}${i % 3 === 0 ? `the parser${i} cache` : 'nothing'}`,
  }),
);

function parsed(query: string) {
  const result = parseQuery(query, NOW);
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('a regex search in slices', () => {
  it('a pass past its budget leaves sessions pending; later passes finish from the cache with the unbudgeted answer', () => {
    const query = parsed('re:pars\\w+ c.che');
    const whole = searchSessions(createSearchIndex(sessions), query);
    expect(whole.pending).toBe(0);
    expect(whole.matches.length).toBe(14);
    const index = createSearchIndex(sessions);
    let outcome = searchSessions(index, query, { budgetMs: 0 });
    // A pass always searches at least one session: it never stands still.
    expect(outcome.pending).toBe(sessions.length - 1);
    const passes = [outcome.pending];
    while (outcome.pending > 0) {
      outcome = searchSessions(index, query, { budgetMs: 0 });
      passes.push(outcome.pending);
    }
    expect(passes).toEqual(Array.from({ length: sessions.length }, (_, i) => sessions.length - 1 - i));
    expect(outcome.matches).toEqual(whole.matches);
  });

  it('the picker runs the passes (searchMore) and shows the rows of one unbudgeted search', () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      makeInfo({ path: `/m/${i}.jsonl`, ageMs: (i + 1) * DAY, allMessagesText: `${'x y '.repeat(5_000)}${i}z` }),
    );
    let state: PickerState = initialPickerState({ printMode: false, columns: 100, rows: 20, scope: 'cwd' });
    state = pickerReducer(state, { type: 'loadDone', scope: 'cwd', searched: '/m', skipped: 0, sessions: many });
    state = pickerReducer(state, { type: 'key', name: undefined, text: 're:(x y )+1\\d*z$', paste: false, nowMs: NOW });
    // A list this big echoes the typed text first; its search runs when the screen says the frame is drawn.
    expect(state.queuedSearch).toBeDefined();
    state = pickerReducer(state, { type: 'runSearch', id: state.queuedSearch ?? -1 });
    // 1,000 texts of 20,000 characters (111 of them matching, found by RE2's slower matcher): 20 MB,
    // many times one 20 ms slice on any machine (100 texts were done within one on a quiet one).
    expect(state.searchPending).toBeGreaterThan(0);
    let guard = 0;
    while (state.searchPending > 0 && guard++ < 10_000) state = pickerReducer(state, { type: 'searchMore' });
    expect(state.searchPending).toBe(0);
    const expected = searchSessions(createSearchIndex(many), parsed('re:(x y )+1\\d*z$')).matches.map(
      (m) => m.info.path,
    );
    expect(state.rows.map((r) => r.info.path).sort()).toEqual([...expected].sort());
    expect(expected.length).toBe(111);
  });

  it('counts a regex’s hits in a session up to the bound, and says there are more', () => {
    const info = makeInfo({ path: '/c.jsonl', allMessagesText: 'e '.repeat(5000) });
    const query = parsed('re:e');
    const tags = tagHits(info, query)!;
    expect(tags.counts.active).toBe(REGEX_HITS_COUNTED);
    expect(tags.atLeast).toBe(true);
    expect(hitCountsText(tags)).toBe(`${REGEX_HITS_COUNTED}+ active`);
    // A substring's hits are all counted, as before.
    expect(tagHits(info, parsed('e'))!.counts.active).toBe(5000);
  });
});
