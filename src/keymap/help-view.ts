/**
 * The `?` help as data (pure): its lines, generated from the keymap (grouped by mode) plus extra
 * sections, and the window onto them that both screens scroll (↑↓, PgUp/PgDn, Home/End). The
 * reducers keep the offset; components/common/HelpOverlay.tsx draws exactly this window.
 */
import { type ListMove, listMoveTarget } from '../state/viewport.js';
import { displayWidth, wrapWords } from '../text/terminal-text.js';
import { helpRows, type KeyBinding } from './keymap.js';

export interface HelpSection {
  title: string;
  rows: readonly { keys: string; description: string }[];
}

/** A display line; a row's description wrapped onto more lines continues in rows whose `keys` is ''. */
export type HelpLine =
  | { kind: 'section'; text: string }
  | { kind: 'row'; keys: string; description: string }
  | { kind: 'blank' };

/** Two columns before the keys, two between them and the description. */
export const HELP_KEY_MARGIN = 4;

/** The keys' column: as wide as the widest keys, but at most half the width. */
export function helpKeyWidth(rows: readonly { keys: string }[], width: number): number {
  return Math.min(Math.max(0, ...rows.map((row) => displayWidth(row.keys))), Math.floor(width / 2));
}

/**
 * Flattens the help sections into display lines for `width` columns: each description wrapped at
 * words in the column after the keys, so none is cut short (the reducers count these lines to
 * scroll; components/common/HelpOverlay.tsx draws them).
 */
export function helpLines<C extends string>(
  bindings: readonly KeyBinding<C>[],
  modeTitles: Readonly<Record<string, string>>,
  extra: readonly HelpSection[],
  width: number,
): HelpLine[] {
  const sections: HelpSection[] = helpRows(bindings).map((section) => ({
    title: section.mode === undefined ? 'Everywhere' : (modeTitles[section.mode] ?? section.mode),
    rows: section.rows,
  }));
  const all = [...sections, ...extra];
  const descriptionWidth = Math.max(
    10,
    width -
      helpKeyWidth(
        all.flatMap((section) => section.rows),
        width,
      ) -
      HELP_KEY_MARGIN,
  );
  const lines: HelpLine[] = [];
  all.forEach((section, i) => {
    if (i > 0) lines.push({ kind: 'blank' });
    lines.push({ kind: 'section', text: section.title });
    for (const row of section.rows)
      wrapWords(row.description, descriptionWidth).forEach((description, at) => {
        lines.push({ kind: 'row', keys: at === 0 ? row.keys : '', description });
      });
  });
  return lines;
}

export interface HelpWindow {
  /** First line shown. */
  start: number;
  /** Lines shown (the last body row says where this is when the help does not fit). */
  shown: number;
  total: number;
  overflows: boolean;
  maxOffset: number;
}

/**
 * The lines of `total` shown in `height` rows: a title row, then the body, then (`footer`) a
 * footer row. When the lines do not fit, the body's last row is the position line.
 */
export function helpWindow(total: number, height: number, footer: boolean, offset: number): HelpWindow {
  const body = Math.max(0, height - (footer ? 2 : 1));
  const overflows = total > body;
  const shown = overflows ? Math.max(0, body - 1) : body;
  const maxOffset = Math.max(0, total - shown);
  const start = Math.min(Math.max(0, offset), maxOffset);
  return { start, shown: Math.min(shown, total - start), total, overflows, maxOffset };
}

/** The position line: which lines are shown of how many, and the keys that scroll. */
export function helpPosition(window: HelpWindow): string {
  return `${window.start + 1}–${window.start + window.shown} of ${window.total} · ↑↓ PgUp PgDn scroll`;
}

/** The help scrolls by the list moves (its first line as the cursor). */
export type HelpScroll = ListMove;

/** The offset after a scroll key, clamped to the window (the same object's offset when nothing moves). */
export function scrollHelp(offset: number, scroll: HelpScroll, total: number, height: number, footer: boolean): number {
  const window = helpWindow(total, height, footer, offset);
  const target = listMoveTarget(scroll, window.start, window.shown, window.maxOffset + 1);
  return Math.min(Math.max(0, target), window.maxOffset);
}
