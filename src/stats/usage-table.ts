/**
 * The ccusage-like table (pure): one row per day, week, month or session with its models, input,
 * output, cache create, cache read, total tokens and cost, then a Total row; `breakdown` adds one
 * indented row per model. It fits the width the way ccusage's does: exact figures with a models
 * column when there is room, else without the models column, else compact figures (`1.2M`).
 * A figure is never cut: only a label (a model's or session's name) is, with `…`; when not even
 * compact figures fit, the lines are wider than asked rather than wrong.
 */
import { formatCost, formatTokens } from '../format.js';
import type { StatsRow, UsageTotals } from '../store/index.js';
import { displayWidth, padEndToWidth, sanitizeInline, truncateToWidth } from '../text/terminal-text.js';
import type { ChartLine } from './chart.js';
import type { TableReport, TableRow } from './usage-rows.js';

export interface TableOptions {
  columns: number;
  breakdown: boolean;
  /** Each session's label (sessions only), already told apart (session-labels.ts). */
  sessionLabels?: ReadonlyMap<string, string>;
}

const HEADS: Record<TableReport, string> = { daily: 'Date', weekly: 'Week', monthly: 'Month', session: 'Session' };
/** The figure columns, each with a two-line header like ccusage's. */
const FIGURES: readonly { head: [string, string]; of: (u: UsageTotals) => number; cost?: true }[] = [
  { head: ['Input', ''], of: (u) => u.input },
  { head: ['Output', ''], of: (u) => u.output },
  { head: ['Cache', 'create'], of: (u) => u.cacheWrite },
  { head: ['Cache', 'read'], of: (u) => u.cacheRead },
  { head: ['Total', 'tokens'], of: (u) => u.totalTokens },
  { head: ['Cost', '(USD)'], of: (u) => u.cost, cost: true },
];

const exact = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '?');
const figureText = (value: number, isCost: boolean, compact: boolean): string =>
  isCost ? formatCost(value) : compact ? formatTokens(value) : exact(value);

/** One printed line of the table before layout: label, models cell, figures (blank on continuation lines). */
interface Line {
  label: string;
  /** The label is a key that must show whole (a date): never cut. */
  whole: boolean;
  model: string;
  usage?: UsageTotals;
  /** A model's row under its day, week, month or session (`--breakdown`). */
  breakdown?: true;
}

const MODELS_MIN = 12;
const MODELS_MAX = 28;
const LABEL_MIN = 14;
/** `  └ ` and enough of a model's name to tell it from the others. */
const BREAKDOWN_MIN = 22;
const LABEL_MAX = 40;
const GAP = 2;

function linesOf(rows: readonly TableRow[], options: TableOptions, models: boolean): Line[] {
  const out: Line[] = [];
  for (const row of rows) {
    const label = row.session ? (options.sessionLabels?.get(row.key) ?? sanitizeInline(row.session.id)) : row.key;
    const names = row.models.map((m) => sanitizeInline(m.key));
    out.push({ label, whole: row.session === undefined, model: models ? (names[0] ?? '') : '', usage: row.usage });
    if (models) for (const name of names.slice(1)) out.push({ label: '', whole: true, model: name });
    if (options.breakdown)
      for (const m of row.models as StatsRow[])
        out.push({ label: `  └ ${sanitizeInline(m.key)}`, whole: false, model: '', usage: m.usage, breakdown: true });
  }
  return out;
}

interface Layout {
  models: boolean;
  compact: boolean;
  label: number;
  modelWidth: number;
  figures: number[];
}

/** The first layout that fits `columns`, exact figures with models tried first; the most compact when none fits. */
function layoutFor(rows: readonly TableRow[], totals: UsageTotals, kind: TableReport, options: TableOptions): Layout {
  const attempts: { models: boolean; compact: boolean }[] = [
    { models: true, compact: false },
    { models: false, compact: false },
    { models: true, compact: true },
    { models: false, compact: true },
  ];
  let last: Layout | undefined;
  for (const { models, compact } of attempts) {
    const lines = linesOf(rows, options, models);
    const usages = [...lines.flatMap((l) => (l.usage ? [l.usage] : [])), totals];
    const figures = FIGURES.map((f) =>
      Math.max(
        displayWidth(f.head[0]),
        displayWidth(f.head[1]),
        ...usages.map((u) => displayWidth(figureText(f.of(u), f.cost === true, compact))),
      ),
    );
    const wholeLabel = Math.max(
      displayWidth(HEADS[kind]),
      'Total'.length,
      ...lines.filter((l) => l.whole).map((l) => displayWidth(l.label)),
    );
    const wantedLabel = Math.max(wholeLabel, ...lines.map((l) => Math.min(LABEL_MAX, displayWidth(l.label))));
    // A session's title and a breakdown row's model keep a readable start.
    const titles = lines
      .filter((l) => !l.whole)
      .map((l) => Math.min(l.breakdown ? BREAKDOWN_MIN : LABEL_MIN, displayWidth(l.label)));
    const labelMin = Math.max(wholeLabel, ...titles);
    const wantedModels = Math.min(MODELS_MAX, Math.max('Models'.length, ...lines.map((l) => displayWidth(l.model))));
    const modelMin = Math.min(MODELS_MIN, wantedModels);
    const fixed = figures.reduce((a, b) => a + b, 0) + GAP * figures.length + (models ? GAP : 0);
    const spare = Math.floor(options.columns) - fixed - labelMin - (models ? modelMin : 0);
    // Spare width goes to the label first (a session's title tells rows apart), then to the models.
    const label = labelMin + Math.max(0, Math.min(spare, wantedLabel - labelMin));
    const modelWidth = models
      ? modelMin + Math.max(0, Math.min(spare - (label - labelMin), wantedModels - modelMin))
      : 0;
    last = { models, compact, label, modelWidth, figures };
    if (spare >= 0) return last;
  }
  return last!;
}

/** The table as lines: the header (two lines), a rule, the rows, a rule and the Total row. */
export function usageTable(
  rows: readonly TableRow[],
  totals: UsageTotals,
  kind: TableReport,
  options: TableOptions,
): ChartLine[] {
  const layout = layoutFor(rows, totals, kind, options);
  const gap = ' '.repeat(GAP);
  const cell = (text: string, width: number, whole: boolean): string =>
    padEndToWidth(whole ? text : truncateToWidth(text, width), width);
  // A model that does not fit shows without its provider first: `gemini-2.5-pro`, not `google/gemini…`.
  const modelCell = (name: string): string =>
    cell(displayWidth(name) > layout.modelWidth ? name.slice(name.indexOf('/') + 1) : name, layout.modelWidth, false);
  const line = (label: string, whole: boolean, model: string, figures: readonly string[]): string =>
    [
      cell(label, layout.label, whole),
      ...(layout.models ? [modelCell(model)] : []),
      ...figures.map((f, i) => f.padStart(layout.figures[i]!)),
    ].join(gap);
  const figuresOf = (u: UsageTotals): string[] =>
    FIGURES.map((f) => figureText(f.of(u), f.cost === true, layout.compact));
  const width =
    layout.label + (layout.models ? GAP + layout.modelWidth : 0) + layout.figures.reduce((a, b) => a + b + GAP, 0);
  const rule: ChartLine = [{ text: '─'.repeat(width), style: 'dim' }];
  const out: ChartLine[] = [
    [
      {
        text: line(
          HEADS[kind],
          true,
          'Models',
          FIGURES.map((f) => f.head[0]),
        ),
        style: 'heading',
      },
    ],
    [
      {
        text: line(
          '',
          true,
          '',
          FIGURES.map((f) => f.head[1]),
        ),
        style: 'heading',
      },
    ],
    rule,
  ];
  for (const l of linesOf(rows, options, layout.models)) {
    const text = line(l.label, l.whole, l.model, l.usage ? figuresOf(l.usage) : FIGURES.map(() => ''));
    out.push([{ text, ...(l.breakdown ? { style: 'dim' as const } : {}) }]);
  }
  out.push(rule, [{ text: line('Total', true, '', figuresOf(totals)), style: 'heading' }]);
  return out;
}
