/**
 * Picker geometry and row text (pure): how the terminal is split between header, list, dialog,
 * preview and footer, and what one list row says at a given width.
 *
 * The root box is `rows - 1` lines tall (ink 6 clears the whole screen on every frame once a frame
 * is as tall as the terminal), and every row is exactly one line.
 */
import { formatBytes, formatCost, formatRelativeAge } from '../format.js';
import { type SessionInfo, sessionTitle } from '../store/index.js';
import { displayWidth, padEndToWidth, sanitizeInline, truncateStart, truncateToWidth } from '../text/terminal-text.js';
import { isOwnLastWrite } from './own-write.js';
import { LIVE_WINDOW_MS, type Snippet } from './query.js';
import type { Row } from './sort.js';

export const HEADER_LINES = 2;
export const FOOTER_LINES = 1;
/** Below this width the preview goes under the list instead of beside it. */
export const SIDE_PREVIEW_MIN_COLUMNS = 110;
const MIN_LIST_LINES = 3;

export interface PickerLayout {
  columns: number;
  /** Height of the root box (terminal rows - 1). */
  height: number;
  listLines: number;
  listWidth: number;
  dialogLines: number;
  preview: { position: 'side' | 'bottom' | 'none'; width: number; lines: number };
}

/**
 * Splits the screen. `dialogLines`: lines a confirmation or input dialog needs below the list.
 * The preview is dropped (position 'none') when it would leave fewer than three list lines.
 */
export function computeLayout(
  size: { columns: number; rows: number },
  previewOn: boolean,
  dialogLines = 0,
): PickerLayout {
  const columns = Math.max(1, size.columns);
  const height = Math.max(1, size.rows - 1);
  const body = Math.max(0, height - HEADER_LINES - FOOTER_LINES - dialogLines);
  const none = { position: 'none' as const, width: 0, lines: 0 };
  if (!previewOn) return { columns, height, listLines: body, listWidth: columns, dialogLines, preview: none };
  if (columns >= SIDE_PREVIEW_MIN_COLUMNS) {
    const width = Math.min(72, Math.floor(columns * 0.42));
    // One column of separation between list and preview.
    return {
      columns,
      height,
      listLines: body,
      listWidth: columns - width - 1,
      dialogLines,
      preview: { position: 'side', width, lines: body },
    };
  }
  const lines = Math.min(16, Math.floor(body / 2));
  if (body - lines < MIN_LIST_LINES || lines < 4) {
    return { columns, height, listLines: body, listWidth: columns, dialogLines, preview: none };
  }
  return {
    columns,
    height,
    listLines: body - lines,
    listWidth: columns,
    dialogLines,
    preview: { position: 'bottom', width: columns, lines },
  };
}

/** Replaces the home directory prefix with `~` (display only). */
export function shortenHome(path: string, home: string): string {
  if (home !== '' && home !== '/' && (path === home || path.startsWith(`${home}/`)))
    return `~${path.slice(home.length)}`;
  return path;
}

/** Written to in the last few minutes, and not last by us (our own rename is not pi running). */
export function isLive(info: SessionInfo, nowMs: number): boolean {
  return !isOwnLastWrite(info) && nowMs - Math.max(info.modified.getTime(), info.mtimeMs) < LIVE_WINDOW_MS;
}

/**
 * What a row shows as its title: the store's `sessionTitle` (the name, else the first prompt) with
 * a blank name passed over, trimmed, and always one safe line ('(no messages)' when blank).
 */
export function rowTitle(info: SessionInfo): string {
  const text = sessionTitle({ name: info.name?.trim() || undefined, firstMessage: info.firstMessage }).trim();
  return text === '' ? '(no messages)' : sanitizeInline(text, { newline: 'space' });
}

export interface RightColumns {
  path: number;
  cwd: number;
  live: boolean;
  /** Width of the message count with its label (`12 msgs`), 0 when not shown. */
  count: number;
  size: boolean;
  /** Width of the cost column (shown while the list is sorted by cost), 0 when not shown. */
  cost: number;
  age: boolean;
  /** Total width of the right block including separators (0 when empty). */
  width: number;
}

/** What the rows hold, so the columns are as wide as their content and no wider. */
export interface ColumnContent {
  /** Widest message count (digits). */
  count: number;
  /** Widest cost as the cost column shows it. */
  cost: number;
  /** Widest cwd and path as shown (`~`-shortened, sanitised). */
  cwd: number;
  path: number;
  /** Whether any row is live: otherwise no column is kept for the marker. */
  anyLive: boolean;
}

const SIZE_WIDTH = 7; // "1023 KB"
const AGE_WIDTH = 4; // "11mo"
const LIVE_WIDTH = 6; // "◉ live"
const SEP = 1;
/** Columns before the title: cursor, mark, space. */
export const LEAD_WIDTH = 3;
/** pi's /resume leaves the title about this much at 80 columns; the size column only shows when it still can. */
const TITLE_ROOM = 68;

/** What columnContent needs of one session, measured once per session object (and home). */
interface ColumnFacts {
  home: string;
  digits: number;
  cost: number;
  cwd: number;
  path: number | undefined;
  /** Live while the clock is before this (ms); -Infinity for our own last write. */
  liveUntil: number;
}

const columnFacts = new WeakMap<SessionInfo, ColumnFacts>();
/** A cwd or path as its column shows it: `~`-shortened, one safe line. */
const shownPath = (text: string, home: string): string => sanitizeInline(shortenHome(text, home));
const shownWidth = (text: string, home: string): number => displayWidth(shownPath(text, home));

function factsOf(info: SessionInfo, home: string): ColumnFacts {
  let facts = columnFacts.get(info);
  if (facts === undefined || facts.home !== home) {
    facts = {
      home,
      digits: String(info.messageCount).length,
      cost: formatCost(info.usage.cost).length,
      cwd: shownWidth(info.cwd, home),
      path: undefined,
      liveUntil: isOwnLastWrite(info)
        ? Number.NEGATIVE_INFINITY
        : Math.max(info.modified.getTime(), info.mtimeMs) + LIVE_WINDOW_MS,
    };
    columnFacts.set(info, facts);
  }
  return facts;
}

/**
 * The content widths of `rows` (their cwds and paths as the rows would show them). Runs on every
 * search keystroke over every matching row (10,000 on a big store), so each session is measured
 * once and remembered.
 */
export function columnContent(
  rows: readonly Row[],
  opts: { home: string; nowMs: number; cwd: boolean; path: boolean },
): ColumnContent {
  let count = 1;
  let cost = 0;
  let cwd = 0;
  let path = 0;
  let anyLive = false;
  for (const { info } of rows) {
    const facts = factsOf(info, opts.home);
    if (facts.digits > count) count = facts.digits;
    if (facts.cost > cost) cost = facts.cost;
    if (opts.cwd && facts.cwd > cwd) cwd = facts.cwd;
    if (opts.path) {
      facts.path ??= shownWidth(info.path, opts.home);
      path = Math.max(path, facts.path);
    }
    if (!anyLive && opts.nowMs < facts.liveUntil) anyLive = true;
  }
  return { count, cost, cwd, path, anyLive };
}

const NO_CONTENT: ColumnContent = { count: 3, cost: 5, cwd: 32, path: 60, anyLive: false };

/** What follows the count: pi's number is every message, so the row says so. */
const COUNT_LABEL = ' msgs';

/** `12 msgs`, `1 msg ` (the labels line up), the number right-aligned in `digits`. */
export function countText(count: number, digits: number): string {
  return `${String(count).padStart(digits)}${count === 1 ? ' msg ' : COUNT_LABEL}`;
}

/** The figure a sort orders by, which the row then always shows. */
export type SortFigure = 'size' | 'cost';

/**
 * Which right-block columns fit at `width`, the same for every row so they line up, each as wide
 * as its content. Kept longest: age, the figure the list is sorted by (`figure`: size or cost,
 * so a sort by it can be read off the rows), the live marker (only when a row is live), the
 * message count (`12 msgs`), the path (when toggled on), the cwd (other scopes than this folder);
 * the title keeps at least ~35% of the row and gets everything left over. Otherwise the size is a
 * luxury: shown only when the title still gets TITLE_ROOM columns.
 */
export function rightColumns(
  width: number,
  opts: { showPath: boolean; showCwd: boolean; content?: ColumnContent; figure?: SortFigure },
): RightColumns {
  const content = opts.content ?? NO_CONTENT;
  const minTitle = Math.min(24, Math.max(10, Math.floor(width * 0.35)));
  const budget = width - LEAD_WIDTH - minTitle - 1;
  type Col = { key: 'age' | 'size' | 'cost' | 'live' | 'count' | 'path' | 'cwd'; min: number; max: number };
  const countWidth = content.count + COUNT_LABEL.length;
  const wanted: Col[] = [
    { key: 'age', min: AGE_WIDTH, max: AGE_WIDTH },
    ...(opts.figure === 'size' ? [{ key: 'size' as const, min: SIZE_WIDTH, max: SIZE_WIDTH }] : []),
    ...(opts.figure === 'cost' ? [{ key: 'cost' as const, min: content.cost, max: content.cost }] : []),
    ...(content.anyLive ? [{ key: 'live' as const, min: LIVE_WIDTH, max: LIVE_WIDTH }] : []),
    { key: 'count', min: countWidth, max: countWidth },
    ...(opts.showPath && content.path > 0
      ? [
          {
            key: 'path' as const,
            min: Math.min(16, content.path),
            max: Math.min(content.path, Math.floor(width * 0.4)),
          },
        ]
      : []),
    ...(opts.showCwd && content.cwd > 0
      ? [{ key: 'cwd' as const, min: Math.min(10, content.cwd), max: Math.min(content.cwd, Math.floor(width * 0.3)) }]
      : []),
  ];
  const chosen: Col[] = [];
  let used = 0;
  for (const col of wanted) {
    const extra = col.min + (chosen.length > 0 ? SEP : 0);
    // Stop at the first column that does not fit: a less useful one must not take its place.
    if (used + extra > budget) break;
    chosen.push(col);
    used += extra;
  }
  const out: RightColumns = { path: 0, cwd: 0, live: false, count: 0, size: false, cost: 0, age: false, width: used };
  let spare = budget - used;
  for (const col of chosen) {
    if (col.key === 'path' || col.key === 'cwd') {
      const grow = Math.max(0, Math.min(spare, col.max - col.min));
      out[col.key] = col.min + grow;
      spare -= grow;
      out.width += grow;
    } else if (col.key === 'count' || col.key === 'cost') {
      out[col.key] = col.min;
    } else {
      out[col.key] = true;
    }
  }
  const sizeExtra = SIZE_WIDTH + (out.width > 0 ? SEP : 0);
  if (!out.size && chosen.length === wanted.length && width - LEAD_WIDTH - 1 - out.width - sizeExtra >= TITLE_ROOM) {
    out.size = true;
    out.width += sizeExtra;
  }
  return out;
}

export interface RowView {
  /** Cursor and mark columns plus a space (LEAD_WIDTH wide). */
  lead: string;
  prefix: string;
  /** `[current] ` on the session pi is in (`--current`), else ''. */
  currentMark: string;
  /** `★ ` for named sessions, else ''. */
  nameMark: string;
  /** `⇄2 ` on a session with conflict copies (the files it stands for), else ''. */
  conflictMark: string;
  title: string;
  /**
   * Sanitised, fitted snippet parts; the match is shown highlighted. `tag`: where the hits are
   * (`1 abandoned · 3 active: `, the shown hit's place first), or ''.
   */
  snippet?: { tag: string; before: string; match: string; after: string };
  /** Spaces between the text and the right block. */
  gap: string;
  right: string;
  live: boolean;
  named: boolean;
}

export interface RowContext {
  width: number;
  columns: RightColumns;
  selected: boolean;
  marked: boolean;
  /** The session pi is in (`--current`). */
  current?: boolean;
  nowMs: number;
  home: string;
  snippet?: Snippet;
  /**
   * The hits' places (text-hit-places.ts hitCountsText), shown before the snippet, and the short
   * form used when the full one would crowd the match out (the shown hit's place alone).
   */
  hitTag?: { full: string; short: string };
}

export const CURRENT_MARK = '[current] ';

function fitSnippet(snippet: Snippet, hitTag: RowContext['hitTag'], fullWidth: number): RowView['snippet'] {
  const clean = (s: string): string => sanitizeInline(s, { newline: 'space' });
  // The tag gives way before the match does: the counts take at most 40 % of the room, else the
  // shown hit's place alone (at most half of it).
  const full = hitTag ? `${hitTag.full}: ` : '';
  const tag = !hitTag
    ? ''
    : displayWidth(full) <= Math.floor(fullWidth * 0.4)
      ? full
      : truncateToWidth(`${hitTag.short}: `, Math.floor(fullWidth / 2));
  const width = fullWidth - displayWidth(tag);
  const rawBefore = snippet.before;
  const match = truncateToWidth(clean(snippet.match), Math.max(1, width - 2));
  const beforeBudget = Math.min(Math.floor(width / 4), width - displayWidth(match) - 1);
  // Keep the space next to the match: sanitizeInline trims edges.
  const beforeText = clean(rawBefore) + (/\s$/.test(rawBefore) ? ' ' : '');
  const before = beforeBudget > 0 ? truncateStart(beforeText, beforeBudget) : '';
  const afterText = (/^\s/.test(snippet.after) ? ' ' : '') + clean(snippet.after);
  const after = truncateToWidth(afterText, Math.max(0, width - displayWidth(before) - displayWidth(match)));
  return { tag, before, match, after };
}

/** The text of one row, exactly `ctx.width` columns wide. */
export function formatRow(row: Row, ctx: RowContext): RowView {
  const { info } = row;
  const { columns: cols } = ctx;
  const named = info.name !== undefined && info.name.trim() !== '';
  const live = isLive(info, ctx.nowMs);
  const parts: string[] = [];
  // File names are bytes from disk like any session text (ESC and BEL are legal in them).
  if (cols.path > 0) parts.push(padEndToWidth(truncateStart(shownPath(info.path, ctx.home), cols.path), cols.path));
  if (cols.cwd > 0) parts.push(padEndToWidth(truncateStart(shownPath(info.cwd, ctx.home), cols.cwd), cols.cwd));
  if (cols.live) parts.push(live ? '◉ live' : ' '.repeat(LIVE_WIDTH));
  // Every message, as pi's /resume counts them, with a label (pi's number is bare).
  if (cols.count > 0) parts.push(countText(info.messageCount, cols.count - COUNT_LABEL.length));
  if (cols.size) parts.push(formatBytes(info.size).padStart(SIZE_WIDTH));
  if (cols.cost > 0) parts.push(formatCost(info.usage.cost).padStart(cols.cost));
  if (cols.age) parts.push(formatRelativeAge(info.modified.getTime(), ctx.nowMs).padStart(AGE_WIDTH));
  const right = parts.join(' '.repeat(SEP));

  const lead = `${ctx.selected ? '›' : ' '}${ctx.marked ? '●' : ' '} `;
  const textWidth = Math.max(0, ctx.width - LEAD_WIDTH - cols.width - (cols.width > 0 ? 1 : 0));
  const prefix = truncateToWidth(row.prefix, Math.max(0, textWidth - 8), '');
  const currentMark = ctx.current
    ? truncateToWidth(CURRENT_MARK, Math.max(0, textWidth - displayWidth(prefix)), '')
    : '';
  const nameMark = named ? '★ ' : '';
  const conflictMark = row.conflictFiles ? `⇄${row.conflictFiles} ` : '';
  const marks = displayWidth(currentMark) + displayWidth(nameMark) + displayWidth(conflictMark);
  const titleSpace = Math.max(0, textWidth - displayWidth(prefix) - marks);
  const fullTitle = rowTitle(info);
  let title: string;
  let snippet: RowView['snippet'];
  if (ctx.snippet && titleSpace >= 24) {
    // The title yields to the snippet: the snippet is what explains why the row matched.
    title = truncateToWidth(fullTitle, Math.min(displayWidth(fullTitle), Math.max(10, Math.floor(titleSpace * 0.35))));
    snippet = fitSnippet(ctx.snippet, ctx.hitTag, titleSpace - displayWidth(title) - 3);
  } else {
    title = truncateToWidth(fullTitle, titleSpace);
  }
  const used =
    displayWidth(prefix) +
    marks +
    displayWidth(title) +
    (snippet
      ? 3 +
        displayWidth(snippet.tag) +
        displayWidth(snippet.before) +
        displayWidth(snippet.match) +
        displayWidth(snippet.after)
      : 0);
  const gap = ' '.repeat(Math.max(0, ctx.width - LEAD_WIDTH - used - displayWidth(right)));
  return snippet
    ? { lead, prefix, currentMark, nameMark, conflictMark, title, snippet, gap, right, live, named }
    : { lead, prefix, currentMark, nameMark, conflictMark, title, gap, right, live, named };
}

/** The row as plain text (what a colourless terminal shows). The snippet is set off by ` · `. */
export function rowText(view: RowView): string {
  const snippet = view.snippet
    ? ` · ${view.snippet.tag}${view.snippet.before}${view.snippet.match}${view.snippet.after}`
    : '';
  return `${view.lead}${view.prefix}${view.currentMark}${view.conflictMark}${view.nameMark}${view.title}${snippet}${view.gap}${view.right}`;
}
