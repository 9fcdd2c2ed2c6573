/**
 * Terminal charts as text (pure): bars drawn in eighth blocks, sparklines, and a table of labelled
 * bars that fits a width. A chart is a list of lines, each a list of styled segments, so the CLI
 * (ANSI, or none under NO_COLOR) and the Ink stats screen (colour props) draw the same picture.
 * Labels are shown as given: callers pass text already made safe with `sanitizeInline`.
 */
import { displayWidth, padEndToWidth, truncateStart, truncateToWidth } from '../text/terminal-text.js';

/** What a segment is, for whoever paints it. */
export type ChartStyle = 'heading' | 'bar' | 'spark' | 'dim' | 'abandoned';

export interface Segment {
  text: string;
  style?: ChartStyle;
}

export type ChartLine = Segment[];

/** Partial cells, from one eighth to seven eighths of a cell (index = eighths). */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'] as const;
const FULL = '█';
/** Sparkline levels, lowest first. */
export const SPARK_LEVELS = '▁▂▃▄▅▆▇█';

const positive = (n: number): boolean => Number.isFinite(n) && n > 0;

/**
 * A bar for `value` out of `max` across `width` cells, in eighths of a cell. A positive value
 * is never drawn as nothing (at least one eighth), so a cheap row still shows it cost something.
 * Its display width is at most `width` (no padding).
 */
export function bar(value: number, max: number, width: number): string {
  if (!positive(value) || !positive(max) || !(width >= 1)) return '';
  const cells = Math.floor(width);
  const eighths = Math.max(1, Math.round(Math.min(1, value / max) * cells * 8));
  return FULL.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
}

/**
 * One character per value: ▁ (the smallest positive share) to █ (the largest value); zero, a
 * negative or a non-number is a space, so days without usage read as gaps.
 */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values.filter(positive));
  return values
    .map((v) => (positive(v) && max > 0 ? SPARK_LEVELS[Math.min(7, Math.max(0, Math.ceil((v / max) * 8) - 1))]! : ' '))
    .join('');
}

export interface BarRow {
  /** Already sanitised. */
  label: string;
  value: number;
  /** The figures shown after the bar (e.g. `$1.23  45.6k`). */
  text: string;
  style?: ChartStyle;
  /** Cut a long label from the left (a path's tail says more than its head). */
  cutStart?: boolean;
}

/** Narrowest bar worth drawing; below it the bar column is dropped. */
const MIN_BAR = 4;
const GAP = '  ';

/**
 * Rows of `label  bar  text`, every line at most `columns` wide: labels are cut with `…` to at
 * most `labelShare` of the width (a third unless said), figures are right-aligned, and the bar takes what is left,
 * scaled to the largest value.
 */
export function barRows(rows: readonly BarRow[], columns: number, labelShare = 1 / 3): ChartLine[] {
  if (rows.length === 0) return [];
  const width = Math.max(1, Math.floor(columns));
  const max = Math.max(0, ...rows.map((r) => (positive(r.value) ? r.value : 0)));
  const textWidth = Math.max(...rows.map((r) => displayWidth(r.text)));
  const labelWidth = Math.min(
    Math.max(...rows.map((r) => displayWidth(r.label))),
    Math.max(6, Math.floor(width * labelShare)),
  );
  const barWidth = width - labelWidth - textWidth - 2 * GAP.length;
  return rows.map((row) => {
    const label = padEndToWidth(
      row.cutStart ? truncateStart(row.label, labelWidth) : truncateToWidth(row.label, labelWidth),
      labelWidth,
    );
    const figures = ' '.repeat(textWidth - displayWidth(row.text)) + row.text;
    const line: ChartLine = [{ text: label, ...(row.style ? { style: row.style } : {}) }];
    if (barWidth >= MIN_BAR) {
      const drawn = bar(row.value, max, barWidth);
      line.push(
        { text: GAP },
        { text: drawn, style: row.style === 'abandoned' ? 'abandoned' : 'bar' },
        { text: ' '.repeat(barWidth - displayWidth(drawn)) },
      );
    }
    line.push({ text: GAP }, { text: figures });
    return fitLine(line, width);
  });
}

/** The line's text without styles. */
export function lineText(line: ChartLine): string {
  return line.map((s) => s.text).join('');
}

/** `line` cut to `columns` display cells (segments past the edge are dropped or shortened, with `…`). */
export function fitLine(line: ChartLine, columns: number): ChartLine {
  if (displayWidth(lineText(line)) <= columns) return line;
  const out: ChartLine = [];
  let left = columns;
  for (const segment of line) {
    const w = displayWidth(segment.text);
    if (w < left || (w === left && out.length + 1 === line.length)) {
      out.push(segment);
      left -= w;
      continue;
    }
    out.push({ ...segment, text: truncateToWidth(segment.text, left) });
    break;
  }
  return out;
}
