/**
 * Horizontal panning of deep trees in narrow terminals (pi's renderHorizontalViewport, §2.3):
 * every drawn row pans by the same offset, chosen from the selected row, so the gutters and
 * connectors of all rows stay in their columns. Pure.
 */

/** Columns on the left of each row that never pan (the `› ` cursor gutter). */
export const CURSOR_GUTTER = 2;

export interface PannedRow {
  /** Body column (right of the cursor gutter) where the entry text starts, after the tree prefix and markers. */
  readonly anchor: number;
  /** Body width in columns. */
  readonly width: number;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * pi's rule: pan only when the selected row's text would start fewer than clamp(viewport/3, 4..20)
 * columns from the right edge, and then put that start clamp(viewport/4, 2..12) columns from the
 * left, never further than the widest drawn row needs. 0 when nothing pans.
 */
export function panOffset(rows: readonly PannedRow[], selected: PannedRow | undefined, width: number): number {
  const viewport = Math.max(0, width - CURSOR_GUTTER);
  let widest = 0;
  for (const row of rows) widest = Math.max(widest, row.width);
  const maxPan = Math.max(0, widest - viewport);
  if (selected === undefined || maxPan === 0) return 0;
  const minVisibleText = clamp(Math.floor(viewport / 3), 4, 20);
  if (selected.anchor <= viewport - minVisibleText) return 0;
  const context = clamp(Math.floor(viewport / 4), 2, 12);
  return Math.max(0, Math.min(maxPan, selected.anchor - context));
}
