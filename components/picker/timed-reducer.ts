/**
 * The picker's reducer with its searches timed, at the screen's edge so the reducer stays pure:
 * a step that ran the search for a new query (the rows are now another query's) feeds its time
 * back as `searchTimed`, from which the next typed key's search runs with its echo or after it
 * (src/picker/rows.ts echoesFirst). Every path is timed the same way: a key that searched with
 * its echo, a queued search run after one, a command that ran the queued search first.
 */
import { type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';

export function timedPickerReducer(
  state: PickerState,
  action: PickerAction,
  clock: () => number = performance.now.bind(performance),
): PickerState {
  const started = clock();
  const next = pickerReducer(state, action);
  if (next.rowsQuery === state.rowsQuery || next.index === undefined) return next;
  return pickerReducer(next, { type: 'searchTimed', ms: clock() - started, sessions: next.index.sessions.length });
}
