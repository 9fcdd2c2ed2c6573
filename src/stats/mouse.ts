/**
 * The mouse on the stats screen (the picker's and the tree's habits): a wheel notch does what
 * WHEEL_ROWS presses of Up or Down do (the next session or branch row on screen, else a line's
 * scroll), a click selects the session or branch row under it, and a double click (a second
 * click on the same row within DOUBLE_CLICK_MS) does what Enter does: opens its tree. A click on
 * a chart line that names no row, the title or the key line does nothing; the help ignores the
 * mouse (it does not scroll either).
 */
import type { MouseEvent } from '../keymap/tokenize.js';
import { isDoubleClick, type ListArea, type ListMouseCommand, rowAtCell, WHEEL_ROWS } from '../state/list-mouse.js';
import type { RowTarget } from './report-lines.js';
import { chartViewOf, moveOrScroll, openSelected, type StatsScreenState } from './screen-state.js';

/** The terminal line of the first chart line: under the title (components/stats/StatsScreen.tsx draws it, one line). */
export const STATS_LIST_TOP = 2;

export function statsListArea(state: Pick<StatsScreenState, 'columns' | 'viewLines'>): ListArea {
  return { top: STATS_LIST_TOP, left: 1, width: state.columns, lines: state.viewLines };
}

/** What a click is on, for the double click: the session, and the branch on a branch row. */
const clickTarget = (target: RowTarget): string => JSON.stringify([target.path, target.leafId ?? null]);

function withoutLastClick(state: StatsScreenState): StatsScreenState {
  const { lastClick: _dropped, ...rest } = state;
  return rest;
}

/** The wheel or a click in the charts; `nowMs` undefined (a key without a clock) is never a double click. */
export function statsMouse(
  state: StatsScreenState,
  command: ListMouseCommand,
  mouse: MouseEvent | undefined,
  nowMs: number | undefined,
): StatsScreenState {
  if (command !== 'click') {
    let next = state;
    for (let i = 0; i < WHEEL_ROWS; i++) next = moveOrScroll(next, command === 'wheelUp' ? -1 : 1);
    return next;
  }
  if (mouse === undefined) return state;
  const { targets } = chartViewOf(state);
  const line = rowAtCell(statsListArea(state), state.offset, targets.length, mouse.x, mouse.y);
  const target = line === undefined ? undefined : targets[line];
  if (target === undefined) return state;
  const selected = { ...state, selected: target };
  const id = clickTarget(target);
  if (nowMs !== undefined && isDoubleClick(state.lastClick, id, nowMs)) return openSelected(withoutLastClick(selected));
  return nowMs === undefined ? withoutLastClick(selected) : { ...selected, lastClick: { target: id, atMs: nowMs } };
}
