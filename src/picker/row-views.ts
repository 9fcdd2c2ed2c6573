/**
 * The visible rows' views, kept from frame to frame (pure but for the cache it holds). A cursor
 * move changes two rows, the old cursor line and the new one, yet formatting every visible row
 * again (sanitising, measuring and cutting each title and snippet to width) was the biggest part
 * of a move's render. A row's view is taken again while the row, its cursor and mark state, the
 * context all rows share and its clock text (live or not, and its age) are the same: formatRow
 * reads nothing else, so the kept view is the one it would make.
 */
import { formatRelativeAge } from '../format.js';
import { formatRow, isLive, type RightColumns, type RowContext, type RowView } from './layout.js';
import { type ParsedQuery, rowSnippet } from './query.js';
import type { Row } from './sort.js';
import { shownHit } from './text-hit-places.js';

/** What every row of one frame is formatted with, but the clock. */
export interface SharedRowContext {
  width: number;
  columns: RightColumns;
  home: string;
  /** The session pi is in (`--current`). */
  current: string | undefined;
  /** The query the rows were found for: their snippets and hit tags are its hits. */
  rowsQuery: ParsedQuery;
}

/** The part of a row that the clock changes: whether it is live (its colour) and its age. */
export function rowClockText(row: Row, columns: RightColumns, nowMs: number): string {
  const age = columns.age ? formatRelativeAge(row.info.modified.getTime(), nowMs) : '';
  return isLive(row.info, nowMs) ? `live ${age}` : age;
}

/** One row's view, snippet and hit tag included, formatted afresh. */
export function formatRowView(
  row: Row,
  shared: SharedRowContext,
  selected: boolean,
  marked: boolean,
  nowMs: number,
): RowView {
  const ctx: RowContext = {
    width: shared.width,
    columns: shared.columns,
    selected,
    marked,
    current: row.info.path === shared.current,
    nowMs,
    home: shared.home,
  };
  const shown = shownHit(row.info, row.textHit, shared.rowsQuery);
  // No snippet when it would only repeat the title (rowSnippet); the place tag goes with it.
  const snippet = shown ? rowSnippet(row.info, shown.hit) : undefined;
  return formatRow(row, shown && snippet ? { ...ctx, snippet, ...(shown.tag ? { hitTag: shown.tag } : {}) } : ctx);
}

interface KeptView {
  selected: boolean;
  marked: boolean;
  clock: string;
  view: RowView;
}

const sameShared = (a: SharedRowContext, b: SharedRowContext): boolean =>
  a.width === b.width &&
  a.columns === b.columns &&
  a.home === b.home &&
  a.current === b.current &&
  a.rowsQuery === b.rowsQuery;

/**
 * Views by row object: a new search result's rows are new objects (formatted again), a move's
 * are the same ones. Any change to the shared context drops every kept view.
 */
export class RowViewCache {
  private shared: SharedRowContext | undefined;
  private kept = new WeakMap<Row, KeptView>();

  view(row: Row, shared: SharedRowContext, selected: boolean, marked: boolean, nowMs: number): RowView {
    if (this.shared === undefined || !sameShared(this.shared, shared)) {
      this.shared = shared;
      this.kept = new WeakMap();
    }
    const clock = rowClockText(row, shared.columns, nowMs);
    const kept = this.kept.get(row);
    if (kept && kept.selected === selected && kept.marked === marked && kept.clock === clock) return kept.view;
    const view = formatRowView(row, shared, selected, marked, nowMs);
    this.kept.set(row, { selected, marked, clock, view });
    return view;
  }
}
