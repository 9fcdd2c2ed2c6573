/**
 * A usage report (src/store/stats/stats.ts) as charts (pure): the total, a sparkline and bars per day,
 * week or month, and bars per project, model, session and abandoned branch. Shared by
 * `pi-sessions stats` and the picker's stats screen. Every name from the store (cwd, model,
 * title, prompt) goes through `sanitizeInline`: a hostile name cannot reach the terminal raw.
 */
import { formatAbsoluteDate, formatCost, formatTokens, plural } from '../format.js';
import { goneMessage } from '../state/session-gone.js';
import {
  isoWeek,
  localDay,
  type StatsRange,
  type StatsReport,
  type StatsRow,
  type UsageTotals,
} from '../store/index.js';
import { displayWidth, sanitizeInline } from '../text/terminal-text.js';
import { type BarRow, barRows, type ChartLine, fitLine, sparkline } from './chart.js';
import { excludedLines } from './excluded-lines.js';
import { sessionLabel, sessionLabels } from './session-labels.js';

export type Period = 'day' | 'week' | 'month';
export const PERIODS: readonly Period[] = ['day', 'week', 'month'];

export interface ReportOptions {
  columns: number;
  by: Period;
  /** Rows per section before "… and N more". */
  top?: number;
  /** The `--since`/`--until` range the report covers, said in its first line. */
  range?: StatsRange;
  /**
   * Timeline bars: `'all'` lists every period with usage (the stats screen, `--all-periods`);
   * a number lists the latest that many, then "… and N more" with `morePeriodsHint` after it.
   */
  periods?: number | 'all';
  /** How to see the periods left out (`--all-periods`); said in the "… and N more" line. */
  morePeriodsHint?: string;
}

const DEFAULT_TOP = 10;

/** What a row names that can be opened: a session, or one of its branches (by its leaf). */
export interface RowTarget {
  path: string;
  leafId?: string;
}

/** The chart lines, and for each the session or branch it names (the stats screen opens those rows). */
export interface ReportView {
  lines: ChartLine[];
  targets: (RowTarget | undefined)[];
}

/** Bars measure cost, or tokens when nothing in the report has a cost (local models). */
type Measure = 'cost' | 'tokens';
const measureOf = (report: StatsReport): Measure => (report.totals.cost > 0 ? 'cost' : 'tokens');
const measured = (usage: UsageTotals, measure: Measure): number =>
  measure === 'cost' ? usage.cost : usage.totalTokens;
/** The figures column of a bar: `$1.23   45.6k` (tokens right-aligned), or the tokens alone. */
const figures = (usage: UsageTotals, measure: Measure): string =>
  measure === 'cost'
    ? `${formatCost(usage.cost)}  ${formatTokens(usage.totalTokens).padStart(6)}`
    : formatTokens(usage.totalTokens);
/** The same figures inside a sentence: `$1.23, 45.6k`. */
const inlineFigures = (usage: UsageTotals, measure: Measure): string =>
  measure === 'cost'
    ? `${formatCost(usage.cost)}, ${formatTokens(usage.totalTokens)}`
    : formatTokens(usage.totalTokens);

/** The day after `key` (`2026-01-05`, local time). */
function nextDay(key: string): string {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  return localDay(new Date(y, m - 1, d + 1).getTime());
}

const periodOfDay = (day: string, by: Period): string => {
  if (by === 'day') return day;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return by === 'week' ? isoWeek(new Date(y, m - 1, d).getTime()) : day.slice(0, 7);
};

/** Every period from the first to the last day with usage, empty ones included (for the sparkline). */
export function periodSeries(report: StatsReport, by: Period): { key: string; value: number }[] {
  const measure = measureOf(report);
  const values = new Map(rowsOf(report, by).map((r) => [r.key, measured(r.usage, measure)]));
  const days = report.byDay.map((r) => r.key);
  const series: { key: string; value: number }[] = [];
  if (days.length === 0) return series;
  const last = days[days.length - 1]!;
  // Impossible dates never reach the rows (the store leaves them out); the cap is a last guard.
  for (let day = days[0]!, steps = 0; day <= last && steps < 100_000; day = nextDay(day), steps++) {
    const key = periodOfDay(day, by);
    if (series[series.length - 1]?.key !== key) series.push({ key, value: values.get(key) ?? 0 });
  }
  return series;
}

function heading(text: string, columns: number): ChartLine {
  return fitLine([{ text, style: 'heading' }], columns);
}

/** Rows past `top` folded into one "… and N more" line with their total. */
function section(
  title: string,
  rows: BarRow[],
  rest: UsageTotals | undefined,
  restCount: number,
  measure: Measure,
  columns: number,
  labelShare?: number,
): ChartLine[] {
  if (rows.length === 0) return [];
  const lines = [heading(title, columns), ...barRows(rows, columns, labelShare)];
  if (rest && restCount > 0)
    lines.push(
      fitLine([{ text: `  … and ${restCount} more (${inlineFigures(rest, measure)})`, style: 'dim' }], columns),
    );
  return [...lines, []];
}

function sumOf(usages: readonly UsageTotals[]): UsageTotals {
  const total: UsageTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
  for (const u of usages) for (const key of Object.keys(total) as (keyof UsageTotals)[]) total[key] += u[key];
  return total;
}

function rowsSection(
  title: string,
  rows: readonly StatsRow[],
  label: (key: string) => string,
  measure: Measure,
  options: Required<ReportOptions>,
  cutStart = false,
  labelShare?: number,
): ChartLine[] {
  const shown = rows.slice(0, options.top);
  const rest = rows.slice(options.top);
  return section(
    title,
    shown.map((r) => ({
      label: label(r.key),
      value: measured(r.usage, measure),
      text: figures(r.usage, measure),
      cutStart,
    })),
    sumOf(rest.map((r) => r.usage)),
    rest.length,
    measure,
    options.columns,
    labelShare,
  );
}

/** Share of the width a session's or branch's label may take (more than other labels: titles are long). */
const TITLE_SHARE = 0.45;

/** The timeline: a sparkline over the latest periods that fit, then bars for every period (or the latest). */
function timeline(report: StatsReport, measure: Measure, options: Required<ReportOptions>): ChartLine[] {
  const series = periodSeries(report, options.by);
  if (series.length === 0) return [];
  const first = series[0]!.key;
  const last = series[series.length - 1]!.key;
  const peak = series.reduce((a, b) => (b.value > a.value ? b : a));
  // `first ▁▃█ last`: as many periods as fit, the latest kept.
  const room = Math.max(1, options.columns - displayWidth(first) - displayWidth(last) - 2);
  const shown = series.slice(-room);
  const lines: ChartLine[] = [
    heading(
      `Per ${options.by} (${plural(series.length, options.by)}, peak ${measure === 'cost' ? formatCost(peak.value) : formatTokens(peak.value)} on ${peak.key})`,
      options.columns,
    ),
    fitLine(
      [
        { text: `${shown[0]!.key} ` },
        { text: sparkline(shown.map((p) => p.value)), style: 'spark' },
        { text: ` ${last}` },
      ],
      options.columns,
    ),
  ];
  // The sparkline cannot hold more periods than columns: say which it starts at and that bars follow.
  if (shown.length < series.length)
    lines.push(
      fitLine(
        [
          {
            text: `  latest ${shown.length} of ${plural(series.length, options.by)} drawn above`,
            style: 'dim',
          },
        ],
        options.columns,
      ),
    );
  const used = series.filter((p) => p.value > 0).reverse();
  const latest = options.periods === 'all' ? used : used.slice(0, options.periods);
  const left = used.slice(latest.length);
  const rows = usageByKey(report, options.by);
  lines.push(
    ...barRows(
      latest.map((p) => ({ label: p.key, value: p.value, text: figures(rows.get(p.key)!, measure) })),
      options.columns,
    ),
  );
  if (left.length > 0) {
    const rest = sumOf(left.map((p) => rows.get(p.key)!));
    const span = `from ${left[left.length - 1]!.key}`;
    const hint = options.morePeriodsHint === '' ? '' : `: ${options.morePeriodsHint}`;
    lines.push(
      fitLine(
        [
          {
            text: `  … and ${left.length} more ${plural(left.length, options.by).replace(/^\d+ /, '')} ${span} (${inlineFigures(rest, measure)})${hint}`,
            style: 'dim',
          },
        ],
        options.columns,
      ),
    );
  }
  return [...lines, []];
}

const rowsOf = (report: StatsReport, period: Period): StatsRow[] =>
  period === 'day' ? report.byDay : period === 'week' ? report.byWeek : report.byMonth;

function usageByKey(report: StatsReport, period: Period): Map<string, UsageTotals> {
  return new Map(rowsOf(report, period).map((r) => [r.key, r.usage]));
}

/** Abandoned branches (not the one pi resumes), most expensive first, labelled `session › prompt`. */
function branchesSection(
  report: StatsReport,
  measure: Measure,
  options: Required<ReportOptions>,
  titles: ReadonlyMap<string, string>,
): ReportView {
  const abandoned = report.bySession.flatMap((s) =>
    s.branches.length > 1
      ? s.branches.filter((b) => !b.active && measured(b.usage, measure) > 0).map((b) => ({ session: s, branch: b }))
      : [],
  );
  abandoned.sort((a, b) => measured(b.branch.usage, measure) - measured(a.branch.usage, measure));
  const total = sumOf(abandoned.map((a) => a.branch.usage));
  const share =
    measured(report.totals, measure) > 0
      ? Math.round((measured(total, measure) / measured(report.totals, measure)) * 100)
      : 0;
  const title = `Abandoned branches (${abandoned.length}: ${inlineFigures(total, measure)}, ${share}% of the total)`;
  if (abandoned.length === 0) return { lines: [], targets: [] };
  const shown = abandoned.slice(0, options.top);
  const rest = abandoned.slice(options.top);
  const lines = section(
    title,
    shown.map(({ session, branch }) => ({
      // The branch's own first prompt tells it apart from its siblings; the session comes after.
      label: `${sanitizeInline(branch.prompt) || `at ${sanitizeInline(branch.leafId).slice(0, 8)}`} · ${titles.get(session.path) ?? sessionLabel(session)}`,
      value: measured(branch.usage, measure),
      text: figures(branch.usage, measure),
      style: 'abandoned',
    })),
    sumOf(rest.map((r) => r.branch.usage)),
    rest.length,
    measure,
    options.columns,
    TITLE_SHARE,
  );
  return {
    lines,
    targets: rowTargets(
      lines,
      shown.map(({ session, branch }) => ({ path: session.path, leafId: branch.leafId })),
    ),
  };
}

/** A section's targets, line by line: its heading, then one line per row shown, in order. */
function rowTargets(lines: readonly ChartLine[], rows: readonly RowTarget[]): (RowTarget | undefined)[] {
  return lines.map((_, i) => (i >= 1 && i <= rows.length ? rows[i - 1] : undefined));
}

/** ` since … until …` of a range (its time zone's wall clock, named when one was asked for). */
export function rangeText(range: StatsRange | undefined): string {
  const zone = range?.timeZone;
  const since = range?.sinceMs === undefined ? '' : ` since ${formatAbsoluteDate(range.sinceMs, zone)}`;
  const until = range?.untilMs === undefined ? '' : ` until ${formatAbsoluteDate(range.untilMs, zone)}`;
  return `${since}${until}${zone === undefined ? '' : ` (${zone})`}`;
}

/** The whole report as chart lines, none wider than `options.columns`. */
export function reportLines(report: StatsReport, options: ReportOptions): ChartLine[] {
  return reportView(report, options).lines;
}

/** The report's lines with the session or branch each row names (`targets`, parallel to `lines`). */
export function reportView(report: StatsReport, options: ReportOptions): ReportView {
  const full: Required<ReportOptions> = {
    top: DEFAULT_TOP,
    range: {},
    periods: options.top ?? DEFAULT_TOP,
    morePeriodsHint: '',
    ...options,
    columns: Math.max(20, Math.floor(options.columns)),
  };
  const measure = measureOf(report);
  const sessions = report.bySession.filter((s) => s.usage.totalTokens > 0 || s.usage.cost > 0);
  const t = report.totals;
  const lines: ChartLine[] = [
    heading(`Usage in ${sanitizeInline(report.searched)}${rangeText(full.range)}`, full.columns),
    fitLine(
      [
        {
          // Of every session read, so the count agrees with the one the screen's title gives.
          text: `${formatCost(t.cost)}, ${formatTokens(t.totalTokens)} tokens in ${sessions.length === report.bySession.length ? plural(sessions.length, 'session') : `${sessions.length} of ${plural(report.bySession.length, 'session')}`}`,
        },
      ],
      full.columns,
    ),
    fitLine(
      [
        {
          text: `${formatTokens(t.input)} in, ${formatTokens(t.output)} out, ${formatTokens(t.cacheRead)} cache read, ${formatTokens(t.cacheWrite)} cache write`,
          style: 'dim',
        },
      ],
      full.columns,
    ),
    [],
  ];
  const excluded = [
    ...(report.gone && report.gone.length > 0
      ? [fitLine([{ text: goneMessage(report.gone, full.columns), style: 'dim' }], full.columns), []]
      : []),
    ...excludedLines(report.excluded, full.columns),
  ];
  if (sessions.length === 0) {
    const empty = [
      ...lines.slice(0, 1),
      fitLine([{ text: 'No usage recorded in this range.', style: 'dim' }], full.columns),
      ...(excluded.length > 0 ? [[], ...excluded.slice(0, -1)] : []),
    ];
    return { lines: empty, targets: empty.map(() => undefined) };
  }
  const bySessionRows: StatsRow[] = [...sessions]
    .sort((a, b) => measured(b.usage, measure) - measured(a.usage, measure))
    .map((s) => ({ key: s.path, usage: s.usage }));
  const titles = sessionLabels(sessions, Math.floor(full.columns * TITLE_SHARE), full.range.timeZone);
  const before = [
    ...lines,
    ...excluded,
    ...timeline(report, measure, full),
    ...rowsSection('Per project', report.byProject, (key) => sanitizeInline(key) || '(no cwd)', measure, full, true),
    ...rowsSection('Per model', report.byModel, (key) => sanitizeInline(key), measure, full),
  ];
  const perSession = rowsSection(
    'Per session',
    bySessionRows,
    (key) => titles.get(key) ?? '',
    measure,
    full,
    false,
    TITLE_SHARE,
  );
  const branches = branchesSection(report, measure, full, titles);
  return {
    lines: [...before, ...perSession, ...branches.lines],
    targets: [
      ...before.map(() => undefined),
      ...rowTargets(
        perSession,
        bySessionRows.slice(0, full.top).map((r) => ({ path: r.key })),
      ),
      ...branches.targets,
    ],
  };
}
