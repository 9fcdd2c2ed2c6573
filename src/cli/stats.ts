/**
 * `pi-sessions stats [daily|weekly|monthly|session] [--all] [--json] [--since WHEN] [--until WHEN]
 * [--timezone TZ] …`: the store's tokens and cost (src/store/stats/stats.ts) as charts
 * (src/stats/), as a ccusage-like table (src/stats/usage-table.ts) or as JSON. Bad dates, zones,
 * periods and orders are usage errors (exit 2).
 */

import { parseWhen } from '../format.js';
import { paintLines } from '../stats/paint.js';
import { PERIODS, type Period, reportLines } from '../stats/report-lines.js';
import { ROW_ORDERS, type RowOrder, TABLE_REPORTS, type TableReport } from '../stats/usage-rows.js';
import { type Locations, type StatsRange, storeStats } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { isTimeZone, localTimeZone } from '../time-zone.js';
import type { CommandResult, Output } from './commands.js';
import { jsonOutput } from './json.js';
import { tableJson, tableLines } from './stats-table.js';

export interface StatsOptions {
  /** `daily`, `weekly`, `monthly` or `session`: a table instead of the charts. */
  report?: string;
  all: boolean;
  json: boolean;
  since?: string;
  until?: string;
  timezone?: string;
  by?: string;
  order?: string;
  /** A table's rows with one row per model under each. */
  breakdown?: boolean;
  /** A bar for every period with usage, not only the latest. */
  allPeriods?: boolean;
  nowMs: number;
  /** Width of the charts and tables. */
  columns: number;
  /** Draw colours (the CLI's decision for stdout). */
  colour: boolean;
}

const USAGE =
  'usage: pi-sessions stats [daily|weekly|monthly|session] [--all] [--json] [--since WHEN] [--until WHEN] [--timezone TZ] [--by day|week|month] [--all-periods] [--order asc|desc] [--breakdown]';

/** The chart width: the terminal's, else `COLUMNS`, else 80 (a pipe has no width). */
export function chartColumns(terminalColumns: number | undefined, env: Record<string, string | undefined>): number {
  if (terminalColumns !== undefined && terminalColumns > 0) return terminalColumns;
  const fromEnv = Number.parseInt(env['COLUMNS'] ?? '', 10);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

type Checked = { range: StatsRange; report?: TableReport; by: Period; order: RowOrder } | { error: string };

/** The options as a range and a report, or the usage error they make. */
function checkOptions(options: StatsOptions): Checked {
  const report = options.report;
  if (report !== undefined && !(TABLE_REPORTS as readonly string[]).includes(report))
    return { error: `"${report}" is not daily, weekly, monthly or session` };
  const table = report !== undefined;
  if (!table && (options.breakdown || options.order !== undefined))
    return {
      error: `--${options.breakdown ? 'breakdown' : 'order'} is for the tables (stats daily|weekly|monthly|session)`,
    };
  if (table && (options.by !== undefined || options.allPeriods))
    return { error: `--${options.by !== undefined ? 'by' : 'all-periods'} is for the charts (stats without a table)` };
  const zone = options.timezone;
  if (zone !== undefined && !isTimeZone(zone))
    return {
      error: `--timezone: "${zone}" is not a time zone the system knows (IANA names: UTC, Europe/Berlin, America/New_York)`,
    };
  const range: StatsRange = zone === undefined ? {} : { timeZone: zone };
  for (const [name, text] of [
    ['since', options.since],
    ['until', options.until],
  ] as const) {
    if (text === undefined) continue;
    const parsed = parseWhen(text, options.nowMs, zone);
    if (!parsed.ok) return { error: `--${name}: ${parsed.error}` };
    // A day or month given as --until is included whole, as ccusage reads it; an instant is where it stops.
    if (name === 'since') range.sinceMs = parsed.value.startMs;
    else range.untilMs = parsed.value.endMs ?? parsed.value.startMs;
  }
  const by = options.by ?? 'day';
  if (!(PERIODS as readonly string[]).includes(by)) return { error: `--by: "${by}" is not day, week or month` };
  const order = options.order ?? 'desc';
  if (!(ROW_ORDERS as readonly string[]).includes(order)) return { error: `--order: "${order}" is not asc or desc` };
  return { range, by: by as Period, order: order as RowOrder, ...(table ? { report: report as TableReport } : {}) };
}

/** `stats`: the usage report (src/store/stats/stats.ts), drawn, as a table, or as JSON. */
export function statsCommand(locations: Locations, options: StatsOptions, io: Output): CommandResult {
  const checked = checkOptions(options);
  if ('error' in checked) {
    io.err(`pi-sessions: stats: ${sanitizeInline(checked.error)} (${USAGE})`);
    return { code: 2 };
  }
  const { range, by, order } = checked;
  const report = storeStats(locations, options.all ? 'all' : 'cwd', range, options.nowMs);
  if (report.dirProblem) {
    io.err(`pi-sessions: ${sanitizeInline(report.dirProblem)}`);
    return { code: 1 };
  }
  if (checked.report !== undefined) {
    const table = {
      kind: checked.report,
      order,
      range,
      columns: options.columns,
      breakdown: options.breakdown === true,
    };
    if (options.json) io.out(jsonOutput(tableJson(report, table)));
    else for (const line of paintLines(tableLines(report, table), options.colour)) io.out(line);
    return { code: 0 };
  }
  if (!options.json) {
    for (const line of paintLines(
      reportLines(report, {
        columns: options.columns,
        by,
        range,
        ...(options.allPeriods ? { periods: 'all' as const } : { morePeriodsHint: 'see --all-periods' }),
      }),
      options.colour,
    ))
      io.out(line);
    return { code: 0 };
  }
  const { dirProblem: _unused, searched, ...rest } = report;
  // `excluded` (a value that cannot be real, left out of every figure), `timeZone`, the rows'
  // `models` and a session's `lastActivity` are fields added: the version stays (src/cli/json.ts).
  io.out(
    jsonOutput({
      searched,
      since: range.sinceMs === undefined ? null : new Date(range.sinceMs).toISOString(),
      until: range.untilMs === undefined ? null : new Date(range.untilMs).toISOString(),
      timeZone: range.timeZone ?? localTimeZone(),
      ...rest,
    }),
  );
  return { code: 0 };
}
