/**
 * The screen's reducer times every step that runs the search for a new query and feeds the time
 * back (`searchTimed`); other steps (a move, a list arriving) are not searches and are not timed.
 */
import { describe, expect, it } from 'vitest';
import { timedPickerReducer } from '../../components/picker/timed-reducer.js';
import { textKey } from '../../src/keymap/tokenize.js';
import { initialPickerState, type PickerAction, type PickerState } from '../../src/picker/reducer.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const sessions = Array.from({ length: 10 }, (_, i) =>
  makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY, allMessagesText: i === 4 ? 'about parsers' : `text ${i}` }),
);

/** A clock that advances `step` ms at each reading. */
function clock(step: number): () => number {
  let t = 0;
  return () => (t += step);
}

function loaded(): PickerState {
  const s = initialPickerState({ printMode: false, columns: 100, rows: 13, scope: 'cwd' });
  return timedPickerReducer(s, { type: 'loadDone', scope: 'cwd', searched: '/p', skipped: 0, sessions }, clock(5));
}

const typed = (ch: string): PickerAction => ({ type: 'key', ...textKey(ch), text: ch, paste: false, nowMs: NOW });

describe('timed searches', () => {
  it('a list arriving is not a search: nothing is timed', () => {
    expect(loaded().searchCost).toBeUndefined();
  });

  it('a key that searched with its echo is timed: ms per session of the list', () => {
    const s = timedPickerReducer(loaded(), typed('p'), clock(5));
    expect(s.rowsQuery).toBe(s.parsed);
    expect(s.searchCost).toBeCloseTo(5 / sessions.length);
  });

  it('a move is not timed', () => {
    const s = timedPickerReducer(loaded(), typed('p'), clock(5));
    const moved = timedPickerReducer(s, { type: 'key', name: 'down', text: '', paste: false, nowMs: NOW }, clock(50));
    expect(moved.cursor).toBe(s.cursor + 1);
    expect(moved.searchCost).toBe(s.searchCost);
  });
});
