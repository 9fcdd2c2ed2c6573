/**
 * The mouse in the tree (fzf's and lazygit's habits): a wheel notch moves the cursor a few rows
 * (clamped at the ends; only Up and Down wrap around, as pi's do), a click selects the row under
 * it, and a double click (a second click on the same row within DOUBLE_CLICK_MS) does what Enter
 * does: the actions menu, or a ⑂ fork row's tree. In the detail view and the help the wheel
 * scrolls; in a menu it moves the choice (keymap.ts binds it to the menu's moves); prompts and
 * the undo question ignore the mouse.
 */
import type { MouseEvent } from '../keymap/tokenize.js';
import { isDoubleClick, type ListArea, type ListMouseCommand, rowAtCell, WHEEL_ROWS } from '../state/list-mouse.js';
import { openMenu, scrollDetail } from './actions.js';
import { rowId } from './flatten.js';
import { scrollTreeHelp } from './help.js';
import { openForkRow } from './lineage-actions.js';
import { moveTo } from './navigation.js';
import type { TreeState } from './state.js';

/**
 * The terminal line of the first row: under the screen's title, its facts line and the query
 * line (components/tree/TreeScreen.tsx and TreeBody.tsx draw them, one line each).
 */
export const TREE_LIST_TOP = 4;

export function treeListArea(state: Pick<TreeState, 'width' | 'listHeight'>): ListArea {
  return { top: TREE_LIST_TOP, left: 1, width: state.width, lines: state.listHeight };
}

/** The wheel or a click; `nowMs` undefined (a key without a clock) is never a double click. */
export function treeMouse(
  state: TreeState,
  command: ListMouseCommand,
  mouse: MouseEvent | undefined,
  nowMs: number | undefined,
): TreeState {
  const by = command === 'wheelUp' ? -WHEEL_ROWS : WHEEL_ROWS;
  switch (state.mode.kind) {
    case 'detail':
      return command === 'click' ? state : scrollDetail(state, (scroll) => scroll + by);
    case 'help': {
      if (command === 'click') return state;
      let next = state;
      for (let i = 0; i < WHEEL_ROWS; i++) next = scrollTreeHelp(next, by < 0 ? 'detailUp' : 'detailDown') ?? next;
      return next;
    }
    case 'browse':
      break;
    default:
      return state;
  }
  if (command !== 'click') return moveTo(state, state.cursor + by);
  if (mouse === undefined) return state;
  const row = rowAtCell(treeListArea(state), state.offset, state.layout.count, mouse.x, mouse.y);
  const id = row === undefined ? undefined : rowId(state.layout, row);
  if (row === undefined || id === undefined) return state;
  const selected = moveTo(state, row);
  if (nowMs !== undefined && isDoubleClick(state.lastClick, id, nowMs)) {
    const opened = { ...selected, lastClick: undefined };
    return openForkRow(opened) ?? openMenu(opened);
  }
  return { ...selected, lastClick: nowMs === undefined ? undefined : { target: id, atMs: nowMs } };
}
