/** Which sessions the stats screen adds up when opened from the picker: the current scope's list. */
import { describe, expect, it } from 'vitest';
import { initialPickerState, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import { statsScopeOf } from '../../src/stats/picker-scope.js';
import { MIN, makeInfo, NOW } from '../picker/make-info.js';

describe('statsScopeOf', () => {
  const sessions = [makeInfo({ path: '/s/a.jsonl', ageMs: MIN }), makeInfo({ path: '/s/b.jsonl', ageMs: 2 * MIN })];
  const withList = (done: boolean): PickerState => {
    const state = pickerReducer(
      initialPickerState({ printMode: false, columns: 100, rows: 30, scope: 'all', nowMs: NOW }),
      { type: 'sessions', scope: 'all', sessions, loaded: 2, total: done ? 2 : 9 },
    );
    return done
      ? pickerReducer(state, { type: 'loadDone', scope: 'all', searched: '/root', skipped: 0, sessions })
      : state;
  };

  it('the scope’s sessions, named like the picker names the scope', () => {
    expect(statsScopeOf(withList(true))).toEqual({
      paths: ['/s/a.jsonl', '/s/b.jsonl'],
      scopeTitle: 'all projects',
      searched: '/root',
    });
  });

  it('says so while the list is still loading', () => {
    expect(statsScopeOf(withList(false))).toMatchObject({
      paths: ['/s/a.jsonl', '/s/b.jsonl'],
      scopeTitle: 'all projects (2 of 9 listed so far)',
    });
  });
});
