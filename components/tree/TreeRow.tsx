/**
 * One tree row, exactly one terminal line: cursor gutter, dim tree prefix, fold marker,
 * active-path / leaf marker, label, label time, then the entry text with search matches
 * highlighted, cut with `…` at the right edge. In a deep tree the bodies of all drawn rows pan
 * left by the same offset (src/tree/pan.ts), so the tree lines stay true; a panned body starts
 * with a dim `…`. The segment maths is pure (`rowBody`, `rowSegments`) so it is tested without
 * rendering.
 */
import { Text } from 'ink';
import { memo } from 'react';
import {
  displayWidth,
  displayWidthUpTo,
  sanitizeInline,
  sliceByWidth,
  truncateToWidth,
} from '../../src/text/terminal-text.js';
import type { EntryDisplay, Tone } from '../../src/tree/entry-display.js';
import { filterMask } from '../../src/tree/filter.js';
import type { FlatRow } from '../../src/tree/flatten.js';
import { rowPrefix } from '../../src/tree/flatten.js';
import type { Forest } from '../../src/tree/forest.js';
import type { PannedRow } from '../../src/tree/pan.js';

export interface Segment {
  text: string;
  tone: Tone | 'prefix' | 'active' | 'leaf' | 'label' | 'fold';
  highlight?: boolean;
}

export const MARK_ACTIVE = '• ';
/** The leaf (where pi resumes) gets its own glyph, unlike pi (§4 #15). */
export const MARK_LEAF = '◆ ';
/**
 * On the nearest shown ancestor of a leaf the filter or search hides: the leaf is below this
 * row, not on it (the counter line says so in words). When only labels or session_info lie
 * between (a label, a rename or a resume just appended), the row gets ◆: pi resumes with its context.
 */
export const MARK_LEAF_HIDDEN = '◇ ';
export const MARK_FOLDED_ROOT = '⊞ ';
/** A compaction's retained message: a dim copy under its row, not an entry. */
export const MARK_RETAINED = '┆ retained ';

/**
 * What the counter line says about the leaf: where pi resumes, and when the filter or search
 * hides it, that it is hidden and below the ◇ row (or not under any row shown).
 */
export function leafLegend(forest: Forest): string {
  const { leaf } = forest.index;
  if (leaf === -1) return '';
  if (forest.leafHost === leaf || forest.leafBelowIsBookkeeping) return `${MARK_LEAF}leaf: pi resumes here`;
  const by = filterMask(forest.index, forest.filter)[leaf] === 1 ? 'the search' : 'the filter';
  if (forest.leafHost === -1) return `${MARK_LEAF}leaf hidden by ${by}`;
  return `${MARK_LEAF}leaf hidden by ${by}: below the ${MARK_LEAF_HIDDEN.trim()} row`;
}

/** The first column of a panned body: there is more of the tree to the left. */
export const MARK_PANNED = '…';

/** Splits `text` into plain and highlighted parts for every occurrence of any token. */
export function highlightParts(text: string, tokens: readonly string[]): { text: string; highlight: boolean }[] {
  if (tokens.length === 0 || text === '') return [{ text, highlight: false }];
  const lower = text.toLowerCase();
  // Lowercasing can change lengths for a few scripts; then offsets don't line up, so don't mark.
  if (lower.length !== text.length) return [{ text, highlight: false }];
  const marks = new Uint8Array(text.length);
  for (const token of tokens) {
    for (let at = lower.indexOf(token); at !== -1; at = lower.indexOf(token, at + Math.max(1, token.length)))
      marks.fill(1, at, at + token.length);
  }
  const parts: { text: string; highlight: boolean }[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i === text.length || marks[i] !== marks[start]) {
      parts.push({ text: text.slice(start, i), highlight: marks[start] === 1 });
      start = i;
    }
  }
  return parts;
}

export interface RowInput {
  row: FlatRow;
  display: EntryDisplay;
  selected: boolean;
  width: number;
  tokens: readonly string[];
  /** Formatted label time when label timestamps are on. */
  labelTime?: string;
  /** Columns every drawn body is panned left by (see src/tree/pan.ts); 0 or absent: none. */
  pan?: number;
}

export interface RowBody extends PannedRow {
  /** The row right of the cursor gutter, unpanned and uncut. */
  readonly segments: Segment[];
}

/** The row's body: tree prefix, markers, label and text, with the column its text starts at. */
export function rowBody({ row, display, tokens, labelTime }: RowInput): RowBody {
  const segments: Segment[] = [];
  const prefix = rowPrefix(row);
  if (prefix !== '') segments.push({ text: prefix, tone: 'prefix' });
  if (row.folded && row.connector === 0) segments.push({ text: MARK_FOLDED_ROOT, tone: 'fold' });
  if (row.isLeaf || row.leafBelowIsBookkeeping) segments.push({ text: MARK_LEAF, tone: 'leaf' });
  else if (row.leafBelow) segments.push({ text: MARK_LEAF_HIDDEN, tone: 'leaf' });
  else if (row.onActivePath) segments.push({ text: MARK_ACTIVE, tone: 'active' });
  const anchor = widthOf(segments);
  if (row.retainedBy !== undefined) {
    // Dim throughout: the message is a copy the compaction keeps, not something to act on.
    segments.push({ text: MARK_RETAINED, tone: 'muted' });
    for (const text of [display.prefix, display.text]) {
      for (const part of highlightParts(text, tokens))
        segments.push({ text: part.text, tone: 'muted', highlight: part.highlight });
    }
    return { segments, anchor, width: widthOf(segments) };
  }
  const parts: Segment[] = [];
  if (row.label !== undefined) {
    // Labels are session data like any text: escape controls before they reach the terminal.
    parts.push({ text: `[${sanitizeInline(row.label)}] `, tone: 'label' });
    // pi shows the label time (muted) right after the label.
    if (labelTime) parts.push({ text: `${labelTime} `, tone: 'muted' });
  }
  if (display.prefix !== '') parts.push({ text: display.prefix, tone: display.prefixTone });
  parts.push({ text: display.text, tone: row.isContext ? 'muted' : display.textTone });
  for (const seg of parts) {
    for (const part of highlightParts(seg.text, tokens))
      segments.push({ text: part.text, tone: seg.tone, highlight: part.highlight });
  }
  return { segments, anchor, width: widthOf(segments) };
}

/** The row as styled segments that fit `width` columns, its body panned by `pan` columns. */
export function rowSegments(input: RowInput, body: RowBody = rowBody(input)): Segment[] {
  const cursor: Segment = { text: input.selected ? '› ' : '  ', tone: 'plain' };
  const pan = input.pan ?? 0;
  if (pan <= 0) return fitSegments([cursor, ...body.segments], input.width);
  // The marker takes the body's first visible column, so every other column keeps its place.
  const shown = dropColumns(body.segments, pan + 1);
  return fitSegments([cursor, { text: MARK_PANNED, tone: 'prefix' }, ...shown], input.width);
}

function widthOf(segments: readonly Segment[]): number {
  let total = 0;
  for (const s of segments) total += displayWidth(s.text);
  return total;
}

/** The segments without their first `columns` columns (a wide character cut in half becomes a space). */
export function dropColumns(segments: readonly Segment[], columns: number): Segment[] {
  const out: Segment[] = [];
  let col = 0;
  for (const s of segments) {
    const w = displayWidth(s.text);
    if (col + w <= columns) {
      col += w;
      continue;
    }
    const text = col >= columns ? s.text : sliceByWidth(s.text, columns - col, w);
    out.push({ ...s, text });
    col += w;
  }
  return out;
}

/**
 * Cuts segments at `width` columns, ending with `…` when something was cut. Widths are measured
 * only as far as the row reaches (`displayWidthUpTo`): an entry's text can be pages long.
 */
export function fitSegments(segments: readonly Segment[], width: number): Segment[] {
  let total = 0;
  for (const s of segments) {
    total += displayWidthUpTo(s.text, width - total);
    if (total > width) break;
  }
  if (total <= width) return [...segments];
  const out: Segment[] = [];
  let used = 0;
  const budget = Math.max(0, width - 1);
  for (const s of segments) {
    const w = displayWidthUpTo(s.text, budget - used);
    if (used + w <= budget) {
      out.push(s);
      used += w;
      continue;
    }
    const cut = truncateToWidth(s.text, budget - used + 1, '…');
    if (cut !== '') out.push({ ...s, text: cut });
    return out;
  }
  return out;
}

const TONE_COLORS: Partial<Record<Segment['tone'], string>> = {
  user: 'cyan',
  assistant: 'green',
  error: 'red',
  custom: 'magenta',
  compaction: 'blue',
  summary: 'yellow',
  label: 'yellow',
  active: 'cyan',
  leaf: 'greenBright',
  fold: 'cyan',
  heading: 'white',
};

const DIM_TONES = new Set<Segment['tone']>(['prefix', 'muted', 'tool']);

export interface TreeRowProps extends RowInput {}

function TreeRowView(props: TreeRowProps) {
  const segments = rowSegments(props);
  return (
    <Text wrap="truncate-end" bold={props.selected}>
      {segments.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row's segments are stateless text in a fixed order; their place in the row is their identity
        <Text key={i} color={TONE_COLORS[s.tone]} dimColor={DIM_TONES.has(s.tone)} inverse={s.highlight === true}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

export const TreeRow = memo(TreeRowView);

export function toneColor(tone: Segment['tone']): string | undefined {
  return TONE_COLORS[tone];
}

export function toneDim(tone: Segment['tone']): boolean {
  return DIM_TONES.has(tone);
}
