/**
 * The list viewport both screens share (pure): which row is first on screen, given the cursor,
 * the number of visible lines and the number of rows.
 */

/** The offset that keeps `cursor` visible, scrolling as little as possible from `offset`. */
export function clampOffset(offset: number, cursor: number, lines: number, count: number): number {
  if (lines <= 0) return 0;
  let next = offset;
  if (cursor < next) next = cursor;
  if (cursor >= next + lines) next = cursor - lines + 1;
  return Math.max(0, Math.min(next, Math.max(0, count - lines)));
}

/** The offset that puts `cursor` in the middle of the window (for jumps), as pi's lists do. */
export function centredOffset(cursor: number, lines: number, count: number): number {
  return Math.max(0, Math.min(cursor - Math.floor(lines / 2), Math.max(0, count - lines)));
}

/** Rows a PageUp/PageDown moves: one less than a screenful, so one row stays in view. */
export function pageStep(lines: number): number {
  return Math.max(1, lines - 1);
}

/** The cursor moves every list screen shares (the picker, the tree, the labels view). */
export type ListMove = 'up' | 'down' | 'pageUp' | 'pageDown' | 'first' | 'last';

const LIST_MOVES: ReadonlySet<string> = new Set<ListMove>(['up', 'down', 'pageUp', 'pageDown', 'first', 'last']);

export function isListMove(command: string | undefined): command is ListMove {
  return command !== undefined && LIST_MOVES.has(command);
}

/** The row a list move aims at among `count` rows with `lines` on screen; the screen clamps it. */
export function listMoveTarget(move: ListMove, cursor: number, lines: number, count: number): number {
  switch (move) {
    case 'up':
      return cursor - 1;
    case 'down':
      return cursor + 1;
    case 'pageUp':
      return cursor - pageStep(lines);
    case 'pageDown':
      return cursor + pageStep(lines);
    case 'first':
      return 0;
    case 'last':
      return count - 1;
  }
}
