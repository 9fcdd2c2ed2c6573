/**
 * A typed character is on the screen before its search runs (on a list big enough for the search
 * to cost a frame): the reducer changes the query line and queues a `search` effect; `runSearch`
 * with that effect's id runs it, and an older id (a burst's earlier keys) is dropped. Everything
 * that reads the rows runs the search first, so no key ever acts on the rows of the query before.
 */
import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { textKey } from '../../src/keymap/tokenize.js';
import {
  initialPickerState,
  type PickerAction,
  type PickerEffect,
  type PickerState,
  pickerReducer,
  selectedRow,
} from '../../src/picker/reducer.js';
import { echoesFirst } from '../../src/picker/rows.js';
import { ECHO_FIRST, SEARCH_WITH_KEY_MS } from '../../src/picker/state.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const key = (name: KeyName | undefined, text = ''): PickerAction => ({
  type: 'key',
  name,
  text,
  paste: false,
  nowMs: NOW,
});
const typed = (ch: string): PickerAction => key(textKey(ch).name, ch);
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
const typeText = (state: PickerState, text: string): PickerState => run(state, ...[...text].map(typed));

/** 80 sessions (past ECHO_FIRST's count): "parser" is in the text of 7, 23 and 41, and the name of 3. */
const sessions: SessionInfo[] = Array.from({ length: 80 }, (_, i) =>
  makeInfo({
    path: `/s/${String(i).padStart(2, '0')}.jsonl`,
    ageMs: (i + 1) * DAY,
    name: i === 3 ? 'Parser work' : undefined,
    allMessagesText: [7, 23, 41].includes(i) ? `talk about parser internals ${i}` : `text ${i}`,
  }),
);

function loaded(opts: { printMode?: boolean; echoFirst?: { sessions: number; bytes: number } } = {}): PickerState {
  const s = initialPickerState({
    printMode: opts.printMode ?? false,
    columns: 100,
    rows: 13,
    scope: 'cwd',
    ...(opts.echoFirst ? { echoFirst: opts.echoFirst } : {}),
  });
  const ready = run(s, { type: 'loadDone', scope: 'cwd', searched: '/sessions/p', skipped: 0, sessions });
  return run(ready, { type: 'effectsTaken', upTo: ready.nextId });
}

/** The same list searching with every key (its echo-first sizes out of reach). */
const searchingWithKeys = (printMode = false): PickerState =>
  loaded({ printMode, echoFirst: { sessions: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY } });

const searches = (state: PickerState): PickerEffect[] => state.effects.filter((e) => e.kind === 'search');
const paths = (state: PickerState): string[] => state.rows.map((r) => r.info.path);

/** Runs the queued searches in the order the effect runner would, each as its `runSearch`. */
function runSearches(state: PickerState): PickerState {
  return run(state, ...searches(state).map((e): PickerAction => ({ type: 'runSearch', id: e.id })));
}

describe('echo before results', () => {
  it('a typed character changes the query line at once and queues its search; the rows wait for it', () => {
    const before = loaded();
    const echoed = typeText(before, 'p');
    expect(echoed.query.value).toBe('p');
    expect(echoed.query.cursor).toBe(1);
    // The rows, their query and the cursor are untouched: this frame only draws the query line.
    expect(echoed.rows).toBe(before.rows);
    expect(echoed.rowsQuery).toBe(before.rowsQuery);
    expect(echoed.cursor).toBe(before.cursor);
    const [search] = searches(echoed);
    expect(search).toBeDefined();
    expect(echoed.queuedSearch).toBe(search?.id);

    const found = run(echoed, { type: 'runSearch', id: search?.id ?? -1 });
    expect(found.queuedSearch).toBeUndefined();
    expect(found.rowsQuery).toBe(found.parsed);
    expect(paths(found)).toEqual(paths(typeText(searchingWithKeys(), 'p')));
  });

  it('a burst runs one search, for the final text, with exactly the rows of searching at each key', () => {
    const burst = typeText(loaded(), 'parser');
    expect(searches(burst)).toHaveLength(6);
    // Every earlier key's search is stale: dropped without searching (the same state back).
    for (const stale of searches(burst).slice(0, -1))
      expect(pickerReducer(burst, { type: 'runSearch', id: stale.id })).toBe(burst);
    const done = runSearches(burst);
    const oneByOne = typeText(searchingWithKeys(), 'parser');
    expect(paths(done)).toEqual(paths(oneByOne));
    expect(paths(done)).toEqual(['/s/03.jsonl', '/s/07.jsonl', '/s/23.jsonl', '/s/41.jsonl']);
    expect(done.cursor).toBe(0);
    expect(selectedRow(done)?.info.path).toBe('/s/03.jsonl');
    // A runSearch arriving once the rows are the typed query's changes nothing.
    expect(pickerReducer(done, { type: 'runSearch', id: searches(burst).at(-1)?.id ?? -1 })).toBe(done);
  });

  it('a paste is one search for the whole text', () => {
    const pasted = run(loaded(), { type: 'key', name: undefined, text: 'internals', paste: true, nowMs: NOW });
    expect(searches(pasted)).toHaveLength(1);
    expect(paths(runSearches(pasted))).toEqual(['/s/07.jsonl', '/s/23.jsonl', '/s/41.jsonl']);
  });

  it('Enter before the results arrive resumes the best match of the typed query, never the row shown before', () => {
    const typedOnly = typeText(loaded(), 'internals');
    expect(selectedRow(typedOnly)?.info.path).toBe('/s/00.jsonl');
    const entered = run(typedOnly, key('return'));
    expect(entered.queuedSearch).toBeUndefined();
    expect(entered.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/07.jsonl' });
    // The stale search that follows is dropped.
    expect(runSearches(entered).rows).toBe(entered.rows);
    // --print: the path printed is the typed query's best match too.
    const printed = run(typeText(loaded({ printMode: true }), 'internals'), key('return'));
    expect(printed.effects.at(-1)).toMatchObject({ path: '/s/07.jsonl' });
  });

  it('a move, a mark and → before the results act on the typed query’s rows', () => {
    const moved = run(typeText(loaded(), 'internals'), key('down'));
    expect(selectedRow(moved)?.info.path).toBe('/s/23.jsonl');
    const marked = run(typeText(loaded(), 'internals'), key('insert'));
    expect([...marked.marks]).toEqual(['/s/07.jsonl']);
    expect(selectedRow(marked)?.info.path).toBe('/s/23.jsonl');
    const opened = run(typeText(loaded(), 'internals'), key('right'));
    expect(opened.effects.at(-1)).toMatchObject({ kind: 'open', path: '/s/07.jsonl', focus: { text: 'internals' } });
  });

  it('editing the text (Backspace, ←) does not run the search; it queues the next one', () => {
    const before = loaded();
    const s = run(typeText(before, 'parsex'), key('backspace'), key('left'));
    expect(s.query.value).toBe('parse');
    expect(s.query.cursor).toBe(4);
    expect(s.queuedSearch).toBe(searches(s).at(-1)?.id);
    expect(s.rows).toBe(before.rows);
    expect(paths(runSearches(s))).toEqual(paths(typeText(searchingWithKeys(), 'parse')));
  });

  it('a list arriving while a search is queued is searched for the typed query, from its best match', () => {
    const s = run(typeText(loaded(), 'internals'), key('down'), key('backspace'));
    expect(s.queuedSearch).toBeDefined();
    const relisted = run(s, { type: 'sessions', scope: 'cwd', sessions: [...sessions], loaded: 80, total: 80 });
    expect(relisted.queuedSearch).toBeUndefined();
    expect(paths(relisted)).toEqual(paths(typeText(searchingWithKeys(), 'internal')));
    expect(relisted.cursor).toBe(0);
    expect(runSearches(relisted)).toBe(relisted);
  });

  it('an invalid query shows its error at once (nothing to search)', () => {
    const s = typeText(loaded(), 're:(');
    expect(s.parsed.ok).toBe(false);
    expect(s.queuedSearch).toBeUndefined();
    expect(s.rows).toEqual([]);
  });

  it('a small list searches with the key (one frame, no rows of the query before under the new one)', () => {
    const small = initialPickerState({ printMode: false, columns: 100, rows: 13, scope: 'cwd' });
    const few = sessions.slice(0, ECHO_FIRST.sessions - 1);
    const s = typeText(
      run(small, { type: 'loadDone', scope: 'cwd', searched: '/p', skipped: 0, sessions: few }),
      'parser',
    );
    expect(searches(s)).toEqual([]);
    expect(s.queuedSearch).toBeUndefined();
    expect(paths(s)).toEqual(['/s/03.jsonl', '/s/07.jsonl', '/s/23.jsonl', '/s/41.jsonl']);
    // A few sessions holding a lot of bytes search after the echo.
    const heavy = few.slice(0, 3).map((info) => ({ ...info, size: ECHO_FIRST.bytes }));
    const t = typeText(
      run(small, { type: 'loadDone', scope: 'cwd', searched: '/p', skipped: 0, sessions: heavy }),
      'p',
    );
    expect(t.queuedSearch).toBeDefined();
  });

  it('once searches are timed, a list whose search costs little searches with the key, a dear one after the echo', () => {
    const timed = (state: PickerState, ms: number): PickerState =>
      run(state, { type: 'searchTimed', ms, sessions: sessions.length });
    // 80 sessions: past ECHO_FIRST's count, so before any timing the key is echoed first.
    expect(typeText(loaded(), 'p').queuedSearch).toBeDefined();
    // A search of 1 ms over this list: the next key searches in its own frame, rows and all.
    const cheap = typeText(timed(loaded(), 1), 'parser');
    expect(searches(cheap)).toEqual([]);
    expect(cheap.queuedSearch).toBeUndefined();
    expect(paths(cheap)).toEqual(['/s/03.jsonl', '/s/07.jsonl', '/s/23.jsonl', '/s/41.jsonl']);
    // Dearer than SEARCH_WITH_KEY_MS: echoed first again.
    expect(typeText(timed(loaded(), SEARCH_WITH_KEY_MS + 1), 'p').queuedSearch).toBeDefined();
  });

  it('a timed cost decays by half per search: one cheap search after a dear one does not search with the next key', () => {
    const dear = run(loaded(), { type: 'searchTimed', ms: 4 * SEARCH_WITH_KEY_MS, sessions: sessions.length });
    const once = run(dear, { type: 'searchTimed', ms: 0, sessions: sessions.length });
    expect(typeText(once, 'p').queuedSearch).toBeDefined();
    const thrice = run(
      once,
      ...[0, 0].map((): PickerAction => ({ type: 'searchTimed', ms: 0, sessions: sessions.length })),
    );
    expect(typeText(thrice, 'p').queuedSearch).toBeUndefined();
  });

  it('while the search skips text not prepared yet, a key is echoed first however cheap its timing', () => {
    const cheap = run(loaded(), { type: 'searchTimed', ms: 0, sessions: sessions.length });
    expect(typeText({ ...cheap, unindexed: 5 }, 'p').queuedSearch).toBeDefined();
    expect(typeText({ ...cheap, unindexed: 0 }, 'p').queuedSearch).toBeUndefined();
  });

  it('a list smaller than ECHO_FIRST searches with the key even after a dear search', () => {
    const small = initialPickerState({ printMode: false, columns: 100, rows: 13, scope: 'cwd' });
    const few = sessions.slice(0, ECHO_FIRST.sessions - 1);
    const ready = run(small, { type: 'loadDone', scope: 'cwd', searched: '/p', skipped: 0, sessions: few });
    const dear = run(ready, { type: 'searchTimed', ms: 100 * SEARCH_WITH_KEY_MS, sessions: few.length });
    expect(typeText(dear, 'p').queuedSearch).toBeUndefined();
  });

  it('the cost is per session: the same cost on a list ten times the size is echoed first', () => {
    const s = run(loaded(), { type: 'searchTimed', ms: SEARCH_WITH_KEY_MS / 2, sessions: sessions.length * 10 });
    // Half the budget over 800 sessions is a twentieth of it over these 80.
    expect(typeText(s, 'p').queuedSearch).toBeUndefined();
    const t = run(loaded(), { type: 'searchTimed', ms: SEARCH_WITH_KEY_MS / 2, sessions: sessions.length / 10 });
    expect(typeText(t, 'p').queuedSearch).toBeDefined();
  });

  it('a list past the session bound decides without reading a size: every typed key asks, twice', () => {
    let reads = 0;
    const counted = (list: SessionInfo[]): SessionInfo[] =>
      list.map((info) => {
        const copy = { ...info };
        Object.defineProperty(copy, 'size', {
          get: () => {
            reads++;
            return info.size;
          },
        });
        return copy;
      });
    const s = loaded();
    const withList = (list: SessionInfo[]): PickerState => ({
      ...s,
      lists: { ...s.lists, cwd: { ...s.lists.cwd!, sessions: counted(list) } },
    });
    expect(echoesFirst(withList(sessions))).toBe(true);
    expect(reads).toBe(0);
    // Under the bound the sizes still decide, read only until they pass the byte bound.
    expect(echoesFirst(withList(sessions.slice(0, 3)))).toBe(false);
    expect(reads).toBe(3);
  });
});
