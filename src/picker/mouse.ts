/**
 * The mouse in the picker (fzf's habits): a wheel notch moves the cursor a few rows, a click
 * selects the session under it, and a double click (a second click on the same session within
 * DOUBLE_CLICK_MS) does what Enter does: resume it. A click beside the list (the preview pane),
 * on the header or the footer does nothing. In the help the wheel scrolls; in a menu it moves
 * the choice (keymap.ts binds it to the menu's own moves); prompts ignore the mouse.
 */
import type { MouseEvent } from '../keymap/tokenize.js';
import { isDoubleClick, type ListArea, type ListMouseCommand, rowAtCell, WHEEL_ROWS } from '../state/list-mouse.js';
import { browseCommand } from './browse.js';
import { helpCommand } from './help.js';
import { computeLayout, HEADER_LINES } from './layout.js';
import { dialogLinesFor } from './mode.js';
import { moveTo, type PickerState } from './state.js';

/** Where the list is drawn: under the header (its title and search lines), as wide as the list column. */
export function pickerListArea(state: Pick<PickerState, 'size' | 'preview' | 'mode'>): ListArea {
  const layout = computeLayout(state.size, state.preview, dialogLinesFor(state.mode));
  return { top: HEADER_LINES + 1, left: 1, width: layout.listWidth, lines: layout.listLines };
}

/** A mouse command in the list (browse mode). */
export function browseMouse(
  state: PickerState,
  command: ListMouseCommand,
  mouse: MouseEvent | undefined,
  nowMs: number,
): PickerState {
  if (command !== 'click') return moveTo(state, state.cursor + (command === 'wheelUp' ? -WHEEL_ROWS : WHEEL_ROWS));
  if (mouse === undefined) return state;
  const row = rowAtCell(pickerListArea(state), state.offset, state.rows.length, mouse.x, mouse.y);
  const path = row === undefined ? undefined : state.rows[row]?.info.path;
  if (row === undefined || path === undefined) return state;
  const selected = moveTo(state, row);
  if (isDoubleClick(state.lastClick, path, nowMs))
    return browseCommand({ ...selected, lastClick: undefined }, 'open', nowMs);
  return { ...selected, lastClick: { target: path, atMs: nowMs } };
}

/** The wheel in the help scrolls it a few lines; a click does nothing there. */
export function helpMouse(state: PickerState, command: ListMouseCommand): PickerState {
  if (command === 'click') return state;
  let next = state;
  for (let i = 0; i < WHEEL_ROWS; i++)
    next = next.mode.kind === 'help' ? helpCommand(next, next.mode, command === 'wheelUp' ? 'up' : 'down') : next;
  return next;
}
