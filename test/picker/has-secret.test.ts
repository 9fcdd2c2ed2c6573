/**
 * `has:secret` in the picker: the query language parses it (and says what it takes when the value
 * is wrong), the search keeps only sessions the secret scan found something in, and the reducer
 * asks for the scope's scan once, shows only the scanned findings, and scans again after the list
 * was reloaded (files may have changed since).
 */
import { describe, expect, it } from 'vitest';
import { textKey } from '../../src/keymap/tokenize.js';
import { asksForSecrets, createSearchIndex, parseQuery, searchSessions } from '../../src/picker/query.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const sessions = Array.from({ length: 6 }, (_, i) => makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY }));
const key = (ch: string): PickerAction => ({
  type: 'key',
  name: textKey(ch).name,
  text: ch,
  paste: false,
  nowMs: NOW,
});
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
const typeText = (state: PickerState, text: string): PickerState => run(state, ...[...text].map(key));
const loadDone: PickerAction = { type: 'loadDone', scope: 'cwd', searched: '/sessions/p', skipped: 0, sessions };
const paths = (state: PickerState): string[] => state.rows.map((r) => r.info.path);

describe('has:secret', () => {
  it('parses, also under ! and |, and names what has: takes when the value is wrong', () => {
    expect(parseQuery('has:secret', NOW)).toEqual({ ok: true, terms: [{ kind: 'has', what: 'secret' }] });
    expect(parseQuery('HAS:Secret', NOW)).toEqual({ ok: true, terms: [{ kind: 'has', what: 'secret' }] });
    expect(parseQuery('has:key', NOW)).toEqual({ ok: false, error: 'unknown has:key (use has:secret)' });
    // Still typing: no error flashes.
    expect(parseQuery('has:', NOW)).toEqual({ ok: true, terms: [] });
    for (const query of ['has:secret', '!has:secret', 'is:named|has:secret', 'fix has:secret'])
      expect(asksForSecrets(parseQuery(query, NOW)), query).toBe(true);
    for (const query of ['secret', '"has:secret"', 'is:named', 'has:'])
      expect(asksForSecrets(parseQuery(query, NOW)), query).toBe(false);
  });

  it('keeps the sessions with findings; an unscanned session does not match', () => {
    const index = createSearchIndex(sessions);
    const secrets = new Map([
      ['/s/1.jsonl', 2],
      ['/s/3.jsonl', 0],
      ['/s/4.jsonl', 1],
    ]);
    const found = (query: string) =>
      searchSessions(index, parseQuery(query, NOW), { secrets }).matches.map((m) => m.info.path);
    expect(found('has:secret')).toEqual(['/s/1.jsonl', '/s/4.jsonl']);
    expect(found('!has:secret')).toEqual(['/s/0.jsonl', '/s/2.jsonl', '/s/3.jsonl', '/s/5.jsonl']);
    expect(found('has:secret|first prompt of /s/2')).toContain('/s/2.jsonl');
    expect(searchSessions(index, parseQuery('has:secret', NOW)).matches).toEqual([]);
  });

  it('the first has:secret asks for the scope’s scan once; its findings filter the rows; a reload scans again', () => {
    let s = run(initialPickerState({ printMode: false, columns: 100, rows: 20, scope: 'cwd' }), loadDone);
    s = typeText(s, 'has:secre');
    expect(s.effects.filter((e) => e.kind === 'scanSecrets')).toEqual([]);
    s = typeText(s, 't');
    expect(s.effects.filter((e) => e.kind === 'scanSecrets')).toEqual([
      { id: expect.any(Number), kind: 'scanSecrets', scope: 'cwd' },
    ]);
    expect(paths(s)).toEqual([]);
    // Typing on does not ask again while the scan runs.
    s = typeText(s, ' ');
    s = run(s, { type: 'key', name: 'backspace', text: '', paste: false, nowMs: NOW });
    expect(s.query.value).toBe('has:secret');
    expect(s.effects.filter((e) => e.kind === 'scanSecrets')).toHaveLength(1);
    s = run(s, { type: 'secretsProgress', scope: 'cwd', scanned: 3, total: 6 });
    expect(s.secrets).toMatchObject({ running: true, scanned: 3, total: 6 });
    s = run(s, {
      type: 'secretsScanned',
      scope: 'cwd',
      counts: new Map([
        ['/s/2.jsonl', 1],
        ['/s/5.jsonl', 3],
        ['/s/0.jsonl', 0],
      ]),
    });
    expect(paths(s)).toEqual(['/s/2.jsonl', '/s/5.jsonl']);
    expect(s.secrets?.running).toBe(false);

    // The list loaded again (after a write, a scope switch back): the next derive scans again,
    // keeping the rows it has meanwhile.
    s = run(s, { type: 'effectsTaken', upTo: s.nextId });
    s = run(s, loadDone);
    expect(s.effects.map((e) => e.kind)).toEqual(['scanSecrets']);
    expect(paths(s)).toEqual(['/s/2.jsonl', '/s/5.jsonl']);
  });

  it('a failed scan says why in the status and keeps what it had', () => {
    let s = typeText(run(initialPickerState({ printMode: false, columns: 100, rows: 20 }), loadDone), 'has:secret');
    s = run(s, { type: 'secretsScanned', scope: 'cwd', counts: new Map(), problem: 'EACCES: permission denied' });
    expect(s.status).toMatchObject({ tone: 'error', text: 'The secret scan failed: EACCES: permission denied' });
    expect(s.secrets?.running).toBe(false);
  });
});
