import { describe, expect, it } from 'vitest';
import { DOUBLE_CLICK_MS, isDoubleClick, rowAtCell } from '../../src/state/list-mouse.js';

describe('rowAtCell: a terminal cell to a list row', () => {
  const area = { top: 3, left: 1, width: 40, lines: 5 };

  it('counts lines from the list top, plus the scroll offset', () => {
    expect(rowAtCell(area, 0, 100, 1, 3)).toBe(0);
    expect(rowAtCell(area, 0, 100, 40, 7)).toBe(4);
    expect(rowAtCell(area, 20, 100, 10, 4)).toBe(21);
  });

  it('is nothing above, below or beside the list, or under its last row', () => {
    expect(rowAtCell(area, 0, 100, 1, 2)).toBeUndefined();
    expect(rowAtCell(area, 0, 100, 1, 8)).toBeUndefined();
    expect(rowAtCell(area, 0, 100, 41, 3)).toBeUndefined();
    expect(rowAtCell({ ...area, left: 5 }, 0, 100, 4, 3)).toBeUndefined();
    expect(rowAtCell(area, 0, 2, 1, 5)).toBeUndefined();
    expect(rowAtCell(area, 0, 0, 1, 3)).toBeUndefined();
  });
});

describe('isDoubleClick', () => {
  it('is a second click on the same target within DOUBLE_CLICK_MS', () => {
    const last = { target: 'a', atMs: 1000 };
    expect(isDoubleClick(last, 'a', 1000)).toBe(true);
    expect(isDoubleClick(last, 'a', 1000 + DOUBLE_CLICK_MS)).toBe(true);
    expect(isDoubleClick(last, 'a', 1001 + DOUBLE_CLICK_MS)).toBe(false);
    expect(isDoubleClick(last, 'b', 1100)).toBe(false);
    expect(isDoubleClick(undefined, 'a', 1100)).toBe(false);
    // A clock that went back is no double click.
    expect(isDoubleClick(last, 'a', 900)).toBe(false);
  });
});
