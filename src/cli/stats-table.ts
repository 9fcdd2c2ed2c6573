/**
 * `stats daily|weekly|monthly|session`: the ccusage-like table (src/stats/usage-table.ts) under a
 * heading that says what was read, in which range and zone, and what was left out; or its JSON,
 * `{version, report, searched, since, until, timeZone, daily|weekly|monthly|sessions, totals, excluded}`.
 */
import type { ChartLine } from '../stats/chart.js';
import { fitLine } from '../stats/chart.js';
import { excludedLines } from '../stats/excluded-lines.js';
import { rangeText } from '../stats/report-lines.js';
import { sessionLabels } from '../stats/session-labels.js';
import { LIST_FIELD, type RowOrder, rowJson, type TableReport, tableRows, totalsJson } from '../stats/usage-rows.js';
import { usageTable } from '../stats/usage-table.js';
import type { StatsRange, StatsReport } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { localTimeZone } from '../time-zone.js';

export interface TableRequest {
  kind: TableReport;
  order: RowOrder;
  range: StatsRange;
  columns: number;
  breakdown: boolean;
}

const TITLES: Record<TableReport, string> = {
  daily: 'Usage per day',
  weekly: 'Usage per ISO week',
  monthly: 'Usage per month',
  session: 'Usage per session',
};

/** Share of the width a session's title may take before it is told apart from the others. */
const TITLE_SHARE = 0.4;

export function tableLines(report: StatsReport, request: TableRequest): ChartLine[] {
  const columns = Math.max(20, Math.floor(request.columns));
  const rows = tableRows(report, request.kind, request.order);
  const heading = fitLine(
    [
      {
        text: `${TITLES[request.kind]} in ${sanitizeInline(report.searched)}${rangeText(request.range)}`,
        style: 'heading',
      },
    ],
    columns,
  );
  const excluded = excludedLines(report.excluded, columns);
  if (rows.length === 0)
    return [heading, fitLine([{ text: 'No usage recorded in this range.', style: 'dim' }], columns), ...excluded];
  const labels =
    request.kind === 'session'
      ? sessionLabels(
          rows.flatMap((r) => (r.session ? [r.session] : [])),
          Math.floor(columns * TITLE_SHARE),
          request.range.timeZone,
        )
      : undefined;
  return [
    heading,
    [],
    ...excluded,
    ...usageTable(rows, report.totals, request.kind, {
      columns,
      breakdown: request.breakdown,
      ...(labels ? { sessionLabels: labels } : {}),
    }),
  ];
}

export function tableJson(report: StatsReport, request: TableRequest): Record<string, unknown> {
  const rows = tableRows(report, request.kind, request.order);
  const { range } = request;
  return {
    report: request.kind,
    searched: report.searched,
    since: range.sinceMs === undefined ? null : new Date(range.sinceMs).toISOString(),
    until: range.untilMs === undefined ? null : new Date(range.untilMs).toISOString(),
    timeZone: range.timeZone ?? localTimeZone(),
    [LIST_FIELD[request.kind]]: rows.map((row) => rowJson(row, request.kind, range.timeZone)),
    totals: totalsJson(report.totals),
    excluded: report.excluded,
  };
}
