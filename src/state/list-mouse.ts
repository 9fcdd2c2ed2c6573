/**
 * The mouse on a list both screens share (pure): which row a click lands on, given where the
 * list is drawn and how far it is scrolled, how far a wheel notch moves, and when two clicks are
 * a double click. The screens know their own layout (src/picker/mouse.ts, src/tree/mouse.ts);
 * this only maps a terminal cell to a row.
 */

/** The commands every screen's keymap binds the mouse reports to (`wheelup`, `wheeldown`, `click`). */
export type ListMouseCommand = 'wheelUp' | 'wheelDown' | 'click';

export function isListMouseCommand(command: string | undefined): command is ListMouseCommand {
  return command === 'wheelUp' || command === 'wheelDown' || command === 'click';
}

/** Rows one wheel notch moves the cursor: a few, as fzf and lazygit scroll. */
export const WHEEL_ROWS = 3;

/** A second click on the same row within this long is a double click (fzf's 500 ms). */
export const DOUBLE_CLICK_MS = 500;

/** Where a list is drawn on the terminal: its first line and column (1-based, as mouse reports count) and its size. */
export interface ListArea {
  readonly top: number;
  readonly left: number;
  readonly width: number;
  readonly lines: number;
}

/**
 * The row under the cell (x, y): `offset` is the first row drawn, `count` how many rows there
 * are. Undefined off the list (above, below, beside it: a preview pane, the header, a dialog) and
 * below its last row.
 */
export function rowAtCell(area: ListArea, offset: number, count: number, x: number, y: number): number | undefined {
  if (x < area.left || x >= area.left + area.width || y < area.top || y >= area.top + area.lines) return undefined;
  const row = offset + (y - area.top);
  return row >= 0 && row < count ? row : undefined;
}

/** The last click: on what (a session's path, an entry's id, so a list re-sorted in between is no double click) and when. */
export interface LastClick {
  readonly target: string;
  readonly atMs: number;
}

/** Whether a click on `target` at `nowMs` makes a double click with `last`. */
export function isDoubleClick(last: LastClick | undefined, target: string, nowMs: number): boolean {
  return last !== undefined && last.target === target && nowMs >= last.atMs && nowMs - last.atMs <= DOUBLE_CLICK_MS;
}
