/**
 * The mouse in the check view (the picker's and the tree's habits, on a list of files that are
 * blocks of lines): a wheel notch scrolls WHEEL_ROWS lines, the cursor following to the first
 * file starting on screen as it does a page's scroll (at either end a notch does nothing), a
 * click on any line of a file selects that file, and a double click (a second click on the same
 * file within DOUBLE_CLICK_MS) does what Enter does: opens its tree, or says why it cannot. A
 * click on the summary, the blank line between files, the title or the footer does nothing; the
 * help ignores the mouse (it does not scroll either).
 */
import type { MouseEvent } from '../keymap/tokenize.js';
import { isDoubleClick, type ListArea, type ListMouseCommand, rowAtCell, WHEEL_ROWS } from '../state/list-mouse.js';
import { openSelected, scroll } from './navigation.js';
import type { CheckState } from './state.js';

/** The terminal line of the first line: under the title (components/check/CheckScreen.tsx draws it, one line). */
export const CHECK_LIST_TOP = 2;

export function checkListArea(state: Pick<CheckState, 'width' | 'height'>): ListArea {
  return { top: CHECK_LIST_TOP, left: 1, width: state.width, lines: state.height };
}

function wheel(state: CheckState, by: number): CheckState {
  const max = Math.max(0, state.view.lines.length - state.height);
  // At an end the page stays, and so does the cursor (a page's scroll would send it to the first file on screen).
  if (Math.max(0, Math.min(max, state.offset + by)) === state.offset) return state;
  return scroll(state, by);
}

/** The wheel or a click; `nowMs` undefined (a key without a clock) is never a double click. */
export function checkMouse(
  state: CheckState,
  command: ListMouseCommand,
  mouse: MouseEvent | undefined,
  nowMs: number | undefined,
): CheckState {
  if (command !== 'click') return wheel(state, command === 'wheelUp' ? -WHEEL_ROWS : WHEEL_ROWS);
  if (mouse === undefined) return state;
  const { lines, files } = state.view;
  const line = rowAtCell(checkListArea(state), state.offset, lines.length, mouse.x, mouse.y);
  const cursor = line === undefined ? -1 : files.findIndex((f) => line >= f.first && line <= f.last);
  const file = files[cursor];
  if (file === undefined) return state;
  // The file's first line (where its `›` mark is) comes on screen if it was above it: the line
  // clicked moves down, still in the same file, so a second click there is a double click.
  const selected: CheckState = { ...state, cursor, offset: Math.min(state.offset, file.first), status: undefined };
  if (nowMs !== undefined && isDoubleClick(state.lastClick, file.path, nowMs))
    return openSelected({ ...selected, lastClick: undefined });
  return { ...selected, lastClick: nowMs === undefined ? undefined : { target: file.path, atMs: nowMs } };
}
