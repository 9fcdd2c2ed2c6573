/**
 * The picker's rows skip the sort by recency when the matches are newest first already (a listing
 * is): a list in another order, and conflict copies folded into an older original, still sort.
 */
import { describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../src/picker/query.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const key = (ch: string): PickerAction =>
  ({ type: 'key', name: ch, text: ch, paste: false, nowMs: NOW }) as PickerAction;

function typedOver(sessions: SessionInfo[], text: string): string[] {
  const start = initialPickerState({ printMode: false, columns: 120, rows: 20, scope: 'cwd' });
  const state = [
    { type: 'loadDone', scope: 'cwd', searched: '/s', skipped: 0, sessions } as PickerAction,
    ...[...text].map(key),
  ].reduce(pickerReducer, start as PickerState);
  return state.rows.map((r) => r.info.path);
}

const at = (path: string, days: number, text = 'shared words') =>
  makeInfo({ path, ageMs: days * DAY, allMessagesText: text });

describe('rows by recency', () => {
  it('the index knows whether its list is newest first', () => {
    expect(createSearchIndex([at('/s/a', 1), at('/s/b', 1), at('/s/c', 2)]).newestFirst).toBe(true);
    expect(createSearchIndex([at('/s/a', 2), at('/s/b', 1)]).newestFirst).toBe(false);
  });

  it('a list that is not newest first is sorted', () => {
    const sessions = [at('/s/old', 9), at('/s/new', 1), at('/s/mid', 4)];
    expect(typedOver(sessions, 'shared')).toEqual(['/s/new', '/s/mid', '/s/old']);
  });

  it('a copy folded into an older original moves the row to the original’s age', () => {
    const name = '/s/2026-01-05T09-00-00-000Z_019b';
    const copy = makeInfo({
      path: `${name}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`,
      id: 'one-id',
      ageMs: DAY,
      allMessagesText: 'shared words',
    });
    const between = at('/s/between.jsonl', 2);
    const original = makeInfo({ path: `${name}.jsonl`, id: 'one-id', ageMs: 3 * DAY, allMessagesText: 'other' });
    // The copy matches first in the list, newest first: its row is the original's, three days old.
    expect(typedOver([copy, between, original], 'shared')).toEqual(['/s/between.jsonl', `${name}.jsonl`]);
  });
});
