/**
 * The detail view's window on its lines (pure): lines wrapped at word boundaries to the width,
 * how many rows show at once, how far it scrolls, and the position it shows (`12–40 of 96`).
 * The screen gives the view the list's rows plus the query and counter lines; the last of them
 * holds the position, so `detailRows` lines of text show at once.
 */
import type { KeyBinding } from '../keymap/keymap.js';
import { wrapToWidth } from '../text/terminal-text.js';
import type { DetailLine } from './entry-detail.js';
import type { TreeCommand, TreeKeyMode } from './keymap.js';

export interface DetailWindow {
  readonly lines: readonly DetailLine[];
  readonly scroll: number;
}

/** Wraps every line to `width` columns at word boundaries (a wrapped line keeps its tone). */
export function wrapDetail(lines: readonly DetailLine[], width: number): DetailLine[] {
  const out: DetailLine[] = [];
  const w = Math.max(4, width);
  for (const line of lines) {
    for (const text of wrapToWidth(line.text, w)) out.push(text === line.text ? line : { text, tone: line.tone });
  }
  return out;
}

/** Lines of text shown at once for a list of `listHeight` rows (the view also has the query and counter rows; one holds the position). */
export function detailRows(listHeight: number): number {
  return Math.max(1, listHeight + 1);
}

export function maxDetailScroll(detail: DetailWindow, listHeight: number): number {
  return Math.max(0, detail.lines.length - detailRows(listHeight));
}

/** Whether anything is out of view (the scroll hints are shown only then). */
export function detailScrolls(detail: DetailWindow, listHeight: number): boolean {
  return maxDetailScroll(detail, listHeight) > 0;
}

/** The lines in view. */
export function visibleDetail(detail: DetailWindow, listHeight: number): readonly DetailLine[] {
  return detail.lines.slice(detail.scroll, detail.scroll + detailRows(listHeight));
}

/** `12–40 of 96`: the first and last line in view, 1-based, and the total. */
export function detailPosition(detail: DetailWindow, listHeight: number): string {
  const total = detail.lines.length;
  if (total === 0) return '0 of 0';
  const first = Math.min(total, detail.scroll + 1);
  const last = Math.min(total, detail.scroll + detailRows(listHeight));
  return `${first}–${last} of ${total}`;
}

const SCROLL_COMMANDS: ReadonlySet<TreeCommand> = new Set([
  'detailUp',
  'detailDown',
  'detailPageUp',
  'detailPageDown',
  'detailHome',
  'detailEnd',
]);

/** The bindings for the footer hints: without the scroll hints when nothing scrolls (the keys still work, harmlessly). */
export function detailHintBindings(
  bindings: readonly KeyBinding<TreeCommand, TreeKeyMode>[],
  scrolls: boolean,
): readonly KeyBinding<TreeCommand, TreeKeyMode>[] {
  if (scrolls) return bindings;
  return bindings.map((b) => {
    if (!SCROLL_COMMANDS.has(b.command) || b.hint === undefined) return b;
    const { hint: _hint, ...rest } = b;
    return rest;
  });
}
