/**
 * The picker's list body: the visible rows, cut to the list's width. Memoised on what the rows
 * show, so a frame that changes only the query line (a typed character echoed before its search
 * runs) or the footer does not format, diff or lay out forty rows again.
 */
import { Box } from 'ink';
import { memo, useMemo, useState } from 'react';
import { columnContent, rightColumns } from '../../src/picker/layout.js';
import type { ParsedQuery } from '../../src/picker/query.js';
import { RowViewCache, type SharedRowContext } from '../../src/picker/row-views.js';
import type { Row, SortMode } from '../../src/picker/sort.js';
import { SessionRow } from './SessionRow.js';

export interface SessionListProps {
  /** Every row of the search; only `lines` of them from `offset` are drawn. */
  rows: readonly Row[];
  offset: number;
  lines: number;
  width: number;
  cursor: number;
  marks: ReadonlySet<string>;
  /** The session pi is in (`--current`). */
  current: string | undefined;
  /** The query the rows were found for: their snippets and hit tags are its hits. */
  rowsQuery: ParsedQuery;
  /** The cwd column shows (any scope but this folder). */
  showCwd: boolean;
  showPaths: boolean;
  sort: SortMode;
  home: string;
  /** The clock, read for the ages and the live column when what the rows show changes. */
  now: () => number;
}

function SessionListView(props: SessionListProps) {
  const { rows, offset, lines, width, cursor, marks, current, rowsQuery, showCwd, showPaths, sort, home, now } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: now is the clock, read for the live column when the rows change; a new clock function (a test's inline one) is no reason to measure the rows again
  const content = useMemo(
    () => columnContent(rows, { home, nowMs: now(), cwd: showCwd, path: showPaths }),
    [rows, showCwd, showPaths, home],
  );
  const columns = useMemo(
    () =>
      rightColumns(width, {
        showPath: showPaths,
        showCwd,
        content,
        ...(sort === 'size' || sort === 'cost' ? { figure: sort } : {}),
      }),
    [width, showPaths, showCwd, content, sort],
  );
  const nowMs = now();
  const shared: SharedRowContext = { width, columns, home, current, rowsQuery };
  // Kept across renders: a move formats only the two rows whose cursor state changed.
  const [views] = useState(() => new RowViewCache());
  const visible = rows.slice(offset, offset + lines);
  return (
    <Box flexDirection="column" width={width} height={lines} overflow="hidden">
      {visible.map((row, i) => {
        const isSelected = offset + i === cursor;
        const marked = marks.has(row.info.path);
        const view = views.view(row, shared, isSelected, marked, nowMs);
        // Keyed by screen line, not by session: a new search result reuses the lines' ink nodes
        // (their text changes) instead of unmounting 40 rows and building 40 new ones.
        // biome-ignore lint/suspicious/noArrayIndexKey: keyed by screen line on purpose, so a new result reuses the rows' ink nodes
        return <SessionRow key={i} view={view} selected={isSelected} marked={marked} />;
      })}
    </Box>
  );
}

export const SessionList = memo(SessionListView);
