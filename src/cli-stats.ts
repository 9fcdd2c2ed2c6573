/**
 * `pi-sessions stats --json [--all] [--since WHEN] [--until WHEN]`: the store's tokens and cost
 * (src/store/stats.ts) as JSON. Bad dates are usage errors (exit 2).
 */
import type { CommandResult, Output } from './cli-commands.js';
import { parseDateOrAge } from './format.js';
import { storeStats, type Locations, type StatsRange } from './store/index.js';
import { sanitizeInline, terminalSafeJson } from './text/terminal-text.js';

/** `stats --json`: the usage report (src/store/stats.ts). */
export function statsCommand(locations: Locations, options: { all: boolean; since?: string; until?: string; nowMs: number }, io: Output): CommandResult {
  const range: StatsRange = {};
  for (const [name, text] of [['since', options.since], ['until', options.until]] as const) {
    if (text === undefined) continue;
    const parsed = parseDateOrAge(text, options.nowMs);
    if (!parsed.ok) {
      io.err(`pi-sessions: --${name}: ${sanitizeInline(parsed.error)} (usage: pi-sessions stats [--all] --json [--since WHEN] [--until WHEN])`);
      return { code: 2 };
    }
    range[name === 'since' ? 'sinceMs' : 'untilMs'] = parsed.value;
  }
  const report = storeStats(locations, options.all ? 'all' : 'cwd', range);
  if (report.dirProblem) {
    io.err(`pi-sessions: ${sanitizeInline(report.dirProblem)}`);
    return { code: 1 };
  }
  const { dirProblem: _unused, searched, ...rest } = report;
  const json = {
    version: 1,
    searched,
    since: range.sinceMs === undefined ? null : new Date(range.sinceMs).toISOString(),
    until: range.untilMs === undefined ? null : new Date(range.untilMs).toISOString(),
    ...rest,
  };
  io.out(terminalSafeJson(JSON.stringify(json, null, 2)));
  return { code: 0 };
}
