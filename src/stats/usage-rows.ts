/**
 * The rows of the ccusage-like tables (`stats daily|weekly|monthly|session`), pure: the store's
 * figures (src/store/stats) regrouped, never recounted, so a table and the charts agree to the
 * token. The JSON rows use `@ccusage/pi`'s field names, so a script written for its `--json`
 * reads ours; `totalTokens` and, for sessions, `path` and `title` are ours alone.
 */
import type { SessionStats, StatsReport, StatsRow, UsageTotals } from '../store/index.js';
import { dayKey } from '../time-zone.js';

export const TABLE_REPORTS = ['daily', 'weekly', 'monthly', 'session'] as const;
export type TableReport = (typeof TABLE_REPORTS)[number];
export type RowOrder = 'asc' | 'desc';
export const ROW_ORDERS: readonly RowOrder[] = ['asc', 'desc'];

export interface TableRow {
  /** The day (`2026-03-01`), ISO week (`2026-W09`), month (`2026-03`), or the session's path. */
  key: string;
  usage: UsageTotals;
  /** Per model, by cost. */
  models: StatsRow[];
  /** Sessions only: the session, for its title. */
  session?: SessionStats;
}

const hasUsage = (u: UsageTotals): boolean => u.totalTokens > 0 || u.cost > 0;

/**
 * The rows of `kind`, oldest first for `asc` (the latest first for `desc`, as `@ccusage/pi`
 * prints them by default). Sessions are ordered by their latest usage, as ccusage orders them.
 */
export function tableRows(report: StatsReport, kind: TableReport, order: RowOrder): TableRow[] {
  const periods: Record<Exclude<TableReport, 'session'>, StatsRow[]> = {
    daily: report.byDay,
    weekly: report.byWeek,
    monthly: report.byMonth,
  };
  const rows: TableRow[] =
    kind === 'session'
      ? report.bySession
          .filter((s) => s.lastActivity !== undefined && hasUsage(s.usage))
          .sort((a, b) => (a.lastActivity! < b.lastActivity! ? -1 : a.lastActivity! > b.lastActivity! ? 1 : 0))
          .map((s) => ({ key: s.path, usage: s.usage, models: s.models, session: s }))
      : periods[kind].map((r) => ({ key: r.key, usage: r.usage, models: r.models ?? [] }));
  return order === 'asc' ? rows : rows.reverse();
}

/** ccusage's figure names for a usage. */
function figures(u: UsageTotals): Record<string, number> {
  return {
    inputTokens: u.input,
    outputTokens: u.output,
    cacheCreationTokens: u.cacheWrite,
    cacheReadTokens: u.cacheRead,
    totalTokens: u.totalTokens,
  };
}

const KEY_FIELD: Record<TableReport, string> = {
  daily: 'date',
  weekly: 'week',
  monthly: 'month',
  session: 'sessionId',
};
/** The list's field in the JSON, as ccusage names it. */
export const LIST_FIELD: Record<TableReport, string> = {
  daily: 'daily',
  weekly: 'weekly',
  monthly: 'monthly',
  session: 'sessions',
};

/** One row as JSON: `{date|week|month|sessionId, …figures, totalCost, modelsUsed, modelBreakdowns}`. */
export function rowJson(row: TableRow, kind: TableReport, timeZone?: string): Record<string, unknown> {
  const s = row.session;
  return {
    [KEY_FIELD[kind]]: s ? s.id : row.key,
    ...(s
      ? {
          path: s.path,
          title: s.title,
          projectPath: s.cwd,
          lastActivity: s.lastActivity === undefined ? null : dayKey(Date.parse(s.lastActivity), timeZone),
        }
      : {}),
    ...figures(row.usage),
    totalCost: row.usage.cost,
    modelsUsed: row.models.map((m) => m.key).sort(),
    modelBreakdowns: row.models.map((m) => ({ modelName: m.key, ...figures(m.usage), cost: m.usage.cost })),
  };
}

/** The totals row as JSON (ccusage's `totals`). */
export function totalsJson(u: UsageTotals): Record<string, number> {
  return { ...figures(u), totalCost: u.cost };
}
