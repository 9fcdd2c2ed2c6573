/**
 * Cursor, filter, search and fold moves of the tree navigator (pure; see reducer.ts for the
 * cursor policy: the cursor is kept by entry id, the anchor survives filters and searches).
 */
import { centredOffset, clampOffset } from '../state/viewport.js';
import type { FilterMode, TreeIndex } from './flatten.js';
import {
  buildForest,
  FILTER_CYCLE,
  foldsHiding,
  layoutForest,
  nearestDrawn,
  rowId,
  search,
  segmentDown,
  segmentStartAbove,
} from './flatten.js';
import { selectedId, selectedRow, type TreeState, withStatus } from './state.js';

/** Moves the cursor to `row` (clamped), scrolling minimally. Sets the anchor to that entry. */
export function moveTo(state: TreeState, row: number): TreeState {
  const count = state.layout.count;
  const cursor = count === 0 ? 0 : Math.max(0, Math.min(count - 1, row));
  const anchorId = rowId(state.layout, cursor) ?? state.anchorId;
  const offset = clampOffset(state.offset, cursor, state.listHeight, count);
  if (cursor === state.cursor && offset === state.offset && anchorId === state.anchorId) return state;
  return { ...state, cursor, offset, anchorId };
}

/** Moves to `row` and centres it (for jumps: leaf, matches, filter changes), as pi's window does. */
export function centerOn(state: TreeState, row: number, setAnchor: boolean): TreeState {
  const count = state.layout.count;
  const cursor = count === 0 ? 0 : Math.max(0, Math.min(count - 1, row));
  const offset = centredOffset(cursor, state.listHeight, count);
  const anchorId = setAnchor ? (rowId(state.layout, cursor) ?? state.anchorId) : state.anchorId;
  return { ...state, cursor, offset, anchorId };
}

/** Keeps the cursor on the anchor (or its nearest drawn ancestor) after the layout changed. */
export function reposition(state: TreeState, previousRowId: string | null): TreeState {
  const { layout, index } = state;
  const count = layout.count;
  if (count === 0) return { ...state, cursor: 0, offset: 0 };
  for (const id of [state.anchorId, previousRowId]) {
    if (id === null) continue;
    const num = index.numOf.get(id);
    if (num === undefined) continue;
    const drawn = nearestDrawn(layout, num);
    if (drawn !== -1) return keepInView(state, layout.rowOf[drawn]!);
  }
  const host = state.forest.leafHost;
  return keepInView(state, host !== -1 && layout.rowOf[host]! !== -1 ? layout.rowOf[host]! : count - 1);
}

/** Places the cursor without touching the anchor; scrolls only if the row left the window. */
export function keepInView(state: TreeState, row: number): TreeState {
  const count = state.layout.count;
  const cursor = Math.max(0, Math.min(count - 1, row));
  const inView = cursor >= state.offset && cursor < state.offset + state.listHeight;
  if (inView) return { ...state, cursor, offset: clampOffset(state.offset, cursor, state.listHeight, count) };
  return centerOn(state, cursor, false);
}

export interface Recompute {
  index?: TreeIndex;
  filter?: FilterMode;
  query?: string;
  folds?: ReadonlySet<string>;
}

/** Recomputes only the stages that depend on what changed. */
export function recompute(state: TreeState, change: Recompute): TreeState {
  const index = change.index ?? state.index;
  const filter = change.filter ?? state.filter;
  const query = change.query ?? state.query;
  const folds = change.folds ?? state.folds;
  const indexChanged = index !== state.index;
  const queryChanged = query !== state.query;
  let result = state.search;
  if (indexChanged || queryChanged) result = search(index, query, indexChanged ? undefined : state.search);
  let forest = state.forest;
  if (indexChanged || queryChanged || filter !== state.filter) forest = buildForest(index, filter, result);
  const layout = forest === state.forest && folds === state.folds ? state.layout : layoutForest(forest, folds);
  const previousRowId = selectedId(state);
  return reposition({ ...state, index, filter, query, search: result, forest, layout, folds }, previousRowId);
}

export function setFilter(state: TreeState, filter: FilterMode): TreeState {
  if (filter === state.filter) return state;
  return withStatus(recompute(state, { filter }), null);
}

/** pi's toggles: pressing the key of the active filter returns to default. */
export function toggleFilter(state: TreeState, filter: FilterMode): TreeState {
  return setFilter(state, state.filter === filter ? 'default' : filter);
}

export function cycleFilter(state: TreeState, step: number): TreeState {
  const at = FILTER_CYCLE.indexOf(state.filter);
  const next = FILTER_CYCLE[(at + step + FILTER_CYCLE.length) % FILTER_CYCLE.length]!;
  return setFilter(state, next);
}

export function setQuery(state: TreeState, query: string): TreeState {
  if (query === state.query) return state;
  const next = recompute(state, { query });
  if (query === '' || !next.search) return next;
  // Land on a match: the anchor if it matches, else the first match at or after it, else the last.
  const rows = next.layout.matchRows;
  if (rows.length === 0) return next;
  const at = next.cursor;
  if (rows.includes(at)) return moveTo(next, at);
  const after = rows.find((r) => r >= at);
  return centerOn(next, after ?? rows[rows.length - 1]!, true);
}

export function jumpMatch(state: TreeState, direction: 1 | -1): TreeState {
  const result = state.search;
  if (!result) return withStatus(state, { text: 'No search: type to search', tone: 'info' });
  // Open the folds that hide matches first, so "next" really visits every match.
  let next = state;
  const hiding = new Set<string>();
  for (const m of result.matches) {
    if (!state.forest.visible[m] || state.layout.rowOf[m]! !== -1) continue;
    for (const id of foldsHiding(state.layout, m)) hiding.add(id);
  }
  if (hiding.size > 0) {
    const folds = new Set([...state.folds].filter((id) => !hiding.has(id)));
    next = recompute(state, { folds });
  }
  const rows = next.layout.matchRows;
  if (rows.length === 0) return withStatus(next, { text: 'No matches', tone: 'info' });
  const cur = next.cursor;
  let target: number;
  if (direction === 1) target = rows.find((r) => r > cur) ?? rows[0]!;
  else {
    const before = rows.filter((r) => r < cur);
    target = before.length > 0 ? before[before.length - 1]! : rows[rows.length - 1]!;
  }
  return centerOn(next, target, true);
}

export function foldOrUp(state: TreeState): TreeState {
  const row = selectedRow(state);
  if (!row) return state;
  if (row.foldable && !row.folded) {
    const folds = new Set(state.folds);
    folds.add(row.id);
    return moveTo(recompute({ ...state, anchorId: row.id }, { folds }), state.cursor);
  }
  const target = segmentStartAbove(state.forest, row.num);
  return moveTo(state, state.layout.rowOf[target]!);
}

export function unfoldOrDown(state: TreeState): TreeState {
  const row = selectedRow(state);
  if (!row) return state;
  if (row.folded) {
    const folds = new Set(state.folds);
    folds.delete(row.id);
    return moveTo(recompute({ ...state, anchorId: row.id }, { folds }), state.cursor);
  }
  const target = segmentDown(state.layout, row.num);
  return moveTo(state, state.layout.rowOf[target]!);
}
