/**
 * `pi-sessions stats [--all] [--json] [--since WHEN] [--until WHEN] [--by day|week|month] [--all-periods]`: the
 * store's tokens and cost (src/store/stats/stats.ts) as charts (src/stats/) or JSON. Bad dates and
 * periods are usage errors (exit 2).
 */

import { parseDateOrAge } from '../format.js';
import { paintLines } from '../stats/paint.js';
import { PERIODS, type Period, reportLines } from '../stats/report-lines.js';
import { type Locations, type StatsRange, storeStats } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { CommandResult, Output } from './commands.js';
import { jsonOutput } from './json.js';

export interface StatsOptions {
  all: boolean;
  json: boolean;
  since?: string;
  until?: string;
  by?: string;
  /** A bar for every period with usage, not only the latest. */
  allPeriods?: boolean;
  nowMs: number;
  /** Width of the charts. */
  columns: number;
  /** Draw colours (the CLI's decision for stdout). */
  colour: boolean;
}

const USAGE =
  'usage: pi-sessions stats [--all] [--json] [--since WHEN] [--until WHEN] [--by day|week|month] [--all-periods]';

/** The chart width: the terminal's, else `COLUMNS`, else 80 (a pipe has no width). */
export function chartColumns(terminalColumns: number | undefined, env: Record<string, string | undefined>): number {
  if (terminalColumns !== undefined && terminalColumns > 0) return terminalColumns;
  const fromEnv = Number.parseInt(env['COLUMNS'] ?? '', 10);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 80;
}

/** `stats`: the usage report (src/store/stats/stats.ts), drawn or as JSON. */
export function statsCommand(locations: Locations, options: StatsOptions, io: Output): CommandResult {
  const range: StatsRange = {};
  for (const [name, text] of [
    ['since', options.since],
    ['until', options.until],
  ] as const) {
    if (text === undefined) continue;
    const parsed = parseDateOrAge(text, options.nowMs);
    if (!parsed.ok) {
      io.err(`pi-sessions: --${name}: ${sanitizeInline(parsed.error)} (${USAGE})`);
      return { code: 2 };
    }
    range[name === 'since' ? 'sinceMs' : 'untilMs'] = parsed.value;
  }
  const by = options.by ?? 'day';
  if (!(PERIODS as readonly string[]).includes(by)) {
    io.err(`pi-sessions: --by: "${sanitizeInline(by)}" is not day, week or month (${USAGE})`);
    return { code: 2 };
  }
  const report = storeStats(locations, options.all ? 'all' : 'cwd', range, options.nowMs);
  if (report.dirProblem) {
    io.err(`pi-sessions: ${sanitizeInline(report.dirProblem)}`);
    return { code: 1 };
  }
  if (!options.json) {
    for (const line of paintLines(
      reportLines(report, {
        columns: options.columns,
        by: by as Period,
        range,
        ...(options.allPeriods ? { periods: 'all' as const } : { morePeriodsHint: 'see --all-periods' }),
      }),
      options.colour,
    ))
      io.out(line);
    return { code: 0 };
  }
  const { dirProblem: _unused, searched, ...rest } = report;
  // `excluded` (a value that cannot be real, left out of every figure) is a field added: the
  // version stays (src/cli/json.ts).
  io.out(
    jsonOutput({
      searched,
      since: range.sinceMs === undefined ? null : new Date(range.sinceMs).toISOString(),
      until: range.untilMs === undefined ? null : new Date(range.untilMs).toISOString(),
      ...rest,
    }),
  );
  return { code: 0 };
}
