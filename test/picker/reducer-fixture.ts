/** The picker reducer tests' keys and list: 30 sessions in this folder, one named, one about the parser. */
import type { KeyName } from '../../src/keymap/keymap.js';
import { textKey } from '../../src/keymap/tokenize.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, makeInfo, NOW } from './make-info.js';

/** A named key (`down`, `ctrl+r`, `a`), or with `name` undefined a run of typed text. */
export const key = (
  name: KeyName | undefined,
  text = name === undefined ? '' : name === 'space' ? ' ' : [...name].length === 1 ? name : '',
): PickerAction => ({ type: 'key', name, text, paste: false, nowMs: NOW });
export const run = (state: PickerState, ...actions: PickerAction[]): PickerState =>
  actions.reduce(pickerReducer, state);
export const typeText = (state: PickerState, text: string): PickerState =>
  run(state, ...[...text].map((ch) => key(textKey(ch).name, ch)));

export const sessions: SessionInfo[] = Array.from({ length: 30 }, (_, i) =>
  makeInfo({
    path: `/s/${String(i).padStart(2, '0')}.jsonl`,
    ageMs: (i + 1) * DAY,
    name: i === 3 ? 'Parser work' : undefined,
    allMessagesText: i === 7 ? 'talk about parser internals' : `text ${i}`,
  }),
);

export function loaded(printMode = false): PickerState {
  const s = initialPickerState({ printMode, columns: 100, rows: 13, scope: 'cwd' });
  return run(s, { type: 'loadDone', scope: 'cwd', searched: '/sessions/--home-u-proj--', skipped: 0, sessions });
}
