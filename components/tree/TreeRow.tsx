/**
 * One tree row, exactly one terminal line: cursor gutter, dim tree prefix (compressed with `…`
 * when deep nesting would eat the line), fold marker, active-path / leaf marker, label, label
 * time, then the entry text with search matches highlighted, cut with `…` at the right edge.
 * The segment maths is pure (`rowSegments`) so it is tested without rendering.
 */
import { Text } from 'ink';
import { memo } from 'react';
import { displayWidth, sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';
import type { EntryDisplay, Tone } from '../../src/tree/entry-display.js';
import type { FlatRow } from '../../src/tree/flatten.js';
import { rowPrefix } from '../../src/tree/flatten.js';

export interface Segment {
  text: string;
  tone: Tone | 'prefix' | 'active' | 'leaf' | 'label' | 'fold';
  highlight?: boolean;
}

export const MARK_ACTIVE = '• ';
/** The leaf (where pi resumes) gets its own glyph, unlike pi (§4 #15). */
export const MARK_LEAF = '◆ ';
export const MARK_FOLDED_ROOT = '⊞ ';
/** A compaction's retained message: a dim copy under its row, not an entry. */
export const MARK_RETAINED = '┆ retained ';

/** Compresses a deep prefix to at most `max` columns, keeping its right (nearest) part. */
export function compressPrefix(prefix: string, max: number): string {
  if (prefix.length <= max) return prefix;
  if (max <= 1) return max === 1 ? '…' : '';
  return '…' + prefix.slice(prefix.length - (max - 1));
}

/** Splits `text` into plain and highlighted parts for every occurrence of any token. */
export function highlightParts(text: string, tokens: readonly string[]): { text: string; highlight: boolean }[] {
  if (tokens.length === 0 || text === '') return [{ text, highlight: false }];
  const lower = text.toLowerCase();
  // Lowercasing can change lengths for a few scripts; then offsets don't line up, so don't mark.
  if (lower.length !== text.length) return [{ text, highlight: false }];
  const marks = new Uint8Array(text.length);
  for (const token of tokens) {
    for (let at = lower.indexOf(token); at !== -1; at = lower.indexOf(token, at + Math.max(1, token.length))) marks.fill(1, at, at + token.length);
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
}

/** The row as styled segments that fit `width` columns. */
export function rowSegments({ row, display, selected, width, tokens, labelTime }: RowInput): Segment[] {
  const segments: Segment[] = [{ text: selected ? '› ' : '  ', tone: 'plain' }];
  const body = Math.max(0, width - 2);
  const prefix = compressPrefix(rowPrefix(row), Math.max(6, Math.floor(body * 0.4)));
  if (prefix !== '') segments.push({ text: prefix, tone: 'prefix' });
  if (row.folded && row.connector === 0) segments.push({ text: MARK_FOLDED_ROOT, tone: 'fold' });
  if (row.isLeaf || row.leafBelow) segments.push({ text: MARK_LEAF, tone: 'leaf' });
  else if (row.onActivePath) segments.push({ text: MARK_ACTIVE, tone: 'active' });
  if (row.retainedBy !== undefined) {
    // Dim throughout: the message is a copy the compaction keeps, not something to act on.
    segments.push({ text: MARK_RETAINED, tone: 'muted' });
    for (const text of [display.prefix, display.text]) {
      for (const part of highlightParts(text, tokens)) segments.push({ text: part.text, tone: 'muted', highlight: part.highlight });
    }
    return fitSegments(segments, width);
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
    for (const part of highlightParts(seg.text, tokens)) segments.push({ text: part.text, tone: seg.tone, highlight: part.highlight });
  }
  return fitSegments(segments, width);
}

/** Cuts segments at `width` columns, ending with `…` when something was cut. */
export function fitSegments(segments: readonly Segment[], width: number): Segment[] {
  let total = 0;
  for (const s of segments) total += displayWidth(s.text);
  if (total <= width) return [...segments];
  const out: Segment[] = [];
  let used = 0;
  const budget = Math.max(0, width - 1);
  for (const s of segments) {
    const w = displayWidth(s.text);
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
