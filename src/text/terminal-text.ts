/**
 * Terminal-safety and display-width helpers (pure).
 *
 * Session files contain arbitrary text written by models, tools and users. Printing it raw would
 * let a stray ESC start a CSI/OSC sequence (colour bleed, title changes, OSC 52 clipboard writes),
 * let CR/BS overwrite what we drew, and let bidi/zero-width characters reorder or hide text. Every
 * string that reaches the screen from session data must go through `sanitizeInline` (list rows,
 * headers) or `sanitizeBlock` (detail views).
 *
 * Escaping policy (visible, never silent, so users can tell something was there):
 *   - ESC (U+001B)                         → `␛` (then the rest of the sequence is plain text);
 *     detail views may drop colour (SGR) sequences instead (`sanitizeBlock`'s `stripColours`)
 *   - other C0 controls, DEL, C1 controls  → `\xNN`       e.g. `\x07`, `\x7f`, `\x9b`
 *   - bidi controls, zero-width/invisible
 *     format characters, BOM, lone surrogates → `\uNNNN` e.g. `\u202e`, `\u200b`, `\ud800`
 *   - TAB → a space (inline) or spaces up to the next tab stop (block)
 *   - line breaks (\n, \r, \r\n, \v, \f, U+0085, U+2028, U+2029):
 *       inline → ` ⏎ ` between non-empty lines (empty lines are dropped; leading/trailing ones trimmed)
 *       block  → split into separate lines
 *
 * A ZWJ (U+200D) between two pictographs is dropped rather than escaped: terminals disagree on the
 * width of ZWJ emoji sequences (1 glyph vs. several), which breaks column alignment, while the
 * separated emoji have a width every terminal agrees on.
 */
import stringWidth from 'string-width';

/** Symbol shown in place of line breaks by `sanitizeInline` (newline: 'symbol'). */
export const NEWLINE_SYMBOL = '⏎';
/** Symbol shown in place of ESC. */
export const ESCAPE_SYMBOL = '␛';

// Characters that are escaped. `u` flag: paired surrogates are one code point, so the
// surrogate range only matches *lone* surrogates.
const ESCAPED_CHARS =
  '\\u0000-\\u0008\\u000e-\\u001f\\u007f-\\u0084\\u0086-\\u009f' + // C0 (minus \t\n\v\f\r), DEL, C1 (minus NEL)
  '\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff' + // bidi, zero-width, invisible
  '\\ud800-\\udfff';
const ESCAPED_CHAR_RE = new RegExp(`[${ESCAPED_CHARS}]`, 'gu');

const LINE_BREAK_RE = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/u;
// Horizontal whitespace collapsed to one space in inline mode (TAB, NBSP, Unicode spaces).
const SPACE_RUN_RE = /[\t \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/gu;
const ZWJ_BETWEEN_PICTOGRAPHS_RE = /(\p{Extended_Pictographic}\ufe0f?)\u200d(?=\p{Extended_Pictographic})/gu;

/**
 * One test that is false for the overwhelmingly common case (plain text with single spaces), so
 * `sanitizeInline` can return its input untouched without allocating.
 */
const NEEDS_INLINE_WORK_RE = new RegExp(
  `[${ESCAPED_CHARS}\\t\\n\\r\\u000b\\u000c\\u0085\\u2028\\u2029\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]|  |^ | $`,
  'u',
);
const NEEDS_BLOCK_WORK_RE = new RegExp(`[${ESCAPED_CHARS}\\t\\n\\r\\u000b\\u000c\\u0085\\u2028\\u2029]| $`, 'u');

/** Characters that `sanitizeInline` would escape (or treat as whitespace/line breaks): used by text inputs to drop them. */
export const UNSAFE_INPUT_CHAR_RE = new RegExp(`[${ESCAPED_CHARS}]`, 'gu');

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (code === 0x1b) return ESCAPE_SYMBOL;
  const hex = code.toString(16).padStart(code < 0x100 ? 2 : 4, '0');
  return code < 0x100 ? `\\x${hex}` : `\\u${hex}`;
}

function escapeControls(s: string): string {
  return s.replace(ZWJ_BETWEEN_PICTOGRAPHS_RE, '$1').replace(ESCAPED_CHAR_RE, escapeChar);
}

/**
 * JSON text in which every character the sanitiser would escape (DEL, C1 controls, bidi and
 * invisible characters; JSON.stringify already escapes C0) is written as a `\uXXXX` escape: the
 * same value for any JSON parser, nothing a terminal acts on when a script's output is shown.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(ESCAPED_CHAR_RE, (ch) => `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/** CSI, OSC (BEL or ST ended) and two-byte ESC sequences, whole. */
const TERMINAL_SEQUENCE_RE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[ -/]*[0-~]/g;

/**
 * Drops whole terminal control sequences (what a program writes to move the cursor or show it,
 * e.g. ink's show-cursor on exit) from text that is then shown as a message; anything else
 * unsafe is left for `sanitizeInline` to make visible.
 */
export function stripTerminalSequences(s: string): string {
  return s.replace(TERMINAL_SEQUENCE_RE, '');
}

export interface SanitizeInlineOptions {
  /** How line breaks are shown: `'symbol'` (default) → ` ⏎ `, `'space'` → a single space. */
  newline?: 'symbol' | 'space';
}

/**
 * Makes any text safe to print on ONE terminal line (see the module comment for the policy).
 * Whitespace runs collapse to one space and the result is trimmed.
 */
export function sanitizeInline(s: string, options: SanitizeInlineOptions = {}): string {
  if (!NEEDS_INLINE_WORK_RE.test(s)) return s;
  const separator = options.newline === 'space' ? ' ' : ` ${NEWLINE_SYMBOL} `;
  const parts: string[] = [];
  for (const line of s.split(LINE_BREAK_RE)) {
    const clean = escapeControls(line).replace(SPACE_RUN_RE, ' ').trim();
    if (clean !== '') parts.push(clean);
  }
  return parts.join(separator);
}

export interface SanitizeBlockOptions {
  /** Tab stop width used to expand TAB characters (default 4). */
  tabWidth?: number;
  /**
   * Drop SGR sequences (ESC [ … m: colours and text styles, as tools print them) instead of
   * escaping them: they carry no text, and `␛[31m` in a detail view is noise. Any other escape
   * sequence is still shown escaped.
   */
  stripColours?: boolean;
}

// CSI … m with numeric parameters (`;` or `:` separated): colour and style only.
// eslint-disable-next-line no-control-regex
const SGR_RE = /\u001b\[[0-9;:]*m/g;

/**
 * Same safety as `sanitizeInline` but keeps the line structure (for detail views): returns one
 * entry per line, tabs expanded to tab stops, trailing whitespace trimmed, indentation kept.
 * An empty string yields `['']`.
 */
export function sanitizeBlock(s: string, options: SanitizeBlockOptions = {}): string[] {
  const tabWidth = Math.max(1, options.tabWidth ?? 4);
  if (!NEEDS_BLOCK_WORK_RE.test(s)) return [s];
  if (options.stripColours === true) s = s.replace(SGR_RE, '');
  return s.split(LINE_BREAK_RE).map((line) => expandTabs(escapeControls(line), tabWidth).trimEnd());
}

function expandTabs(line: string, tabWidth: number): string {
  if (!line.includes('\t')) return line;
  const pieces = line.split('\t');
  let out = '';
  let col = 0;
  pieces.forEach((piece, i) => {
    out += piece;
    col += displayWidth(piece);
    if (i < pieces.length - 1) {
      const pad = tabWidth - (col % tabWidth);
      out += ' '.repeat(pad);
      col += pad;
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Width helpers. All assume already-sanitized text (no escape sequences).

const PRINTABLE_ASCII_RE = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Terminal columns occupied by `s` (CJK/emoji count 2, combining marks 0). */
export function displayWidth(s: string): number {
  if (PRINTABLE_ASCII_RE.test(s)) return s.length;
  return stringWidth(s);
}

interface Cell {
  text: string;
  /** UTF-16 offset of the cell in the source string. */
  index: number;
  width: number;
}

// Non-ASCII graphemes repeat a lot (CJK, box drawing, common emoji): string-width is costly per
// call, so remember widths (bounded, cleared when full).
const cellWidthCache = new Map<string, number>();

function cellWidth(segment: string): number {
  // Most cells are single printable ASCII characters: skip string-width's heavier machinery.
  if (segment.length === 1) {
    const code = segment.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) return 1;
  }
  let w = cellWidthCache.get(segment);
  if (w === undefined) {
    w = stringWidth(segment);
    if (cellWidthCache.size >= 4096) cellWidthCache.clear();
    cellWidthCache.set(segment, w);
  }
  return w;
}

function* graphemes(s: string): Generator<Cell> {
  for (const { segment, index } of segmenter.segment(s)) {
    yield { text: segment, index, width: cellWidth(segment) };
  }
}

/**
 * `displayWidth(s)` when it is at most `max`; otherwise some number above `max`. Scans only one
 * cell past `max`, so asking whether a long text fits a row costs a row, not the text.
 */
export function displayWidthUpTo(s: string, max: number): number {
  if (PRINTABLE_ASCII_RE.test(s)) return s.length;
  if (s.length <= max) return displayWidth(s);
  let used = 0;
  for (const cell of graphemes(s)) {
    used += cell.width;
    if (used > max) return used;
  }
  return used;
}

// Ellipses are a handful of constants: measure each once.
const ellipsisWidths = new Map<string, number>();
function ellipsisWidthOf(ellipsis: string): number {
  let w = ellipsisWidths.get(ellipsis);
  if (w === undefined) {
    w = displayWidth(ellipsis);
    if (ellipsisWidths.size < 16) ellipsisWidths.set(ellipsis, w);
  }
  return w;
}

/** Cuts a path from the left ("…/sessions/x.jsonl"): its tail identifies it better than its head. */
export function truncateStart(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  if (width <= 1) return width === 1 ? '…' : '';
  const chars = [...s];
  let out = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const ch = chars[i] ?? '';
    const w = displayWidth(ch);
    if (used + w > width - 1) break;
    out = ch + out;
    used += w;
  }
  return `…${out}`;
}

/**
 * Cuts `s` to at most `width` columns, ending with `ellipsis` when something was cut.
 * Never splits a grapheme (a wide char that would straddle the limit is dropped).
 * Scans only as far as needed, so truncating very long text is cheap.
 */
export function truncateToWidth(s: string, width: number, ellipsis = '…'): string {
  if (width <= 0) return '';
  const ellipsisWidth = ellipsisWidthOf(ellipsis);
  if (ellipsisWidth > width) return truncateToWidth(ellipsis, width, '');
  const budget = width - ellipsisWidth;
  if (PRINTABLE_ASCII_RE.test(s)) {
    return s.length <= width ? s : s.slice(0, budget) + ellipsis;
  }
  let used = 0;
  let cut = -1; // end of the last cell that fits with the ellipsis
  for (const cell of graphemes(s)) {
    if (cut < 0 && used + cell.width > budget) cut = cell.index;
    used += cell.width;
    if (used > width) return s.slice(0, cut < 0 ? cell.index : cut) + ellipsis;
  }
  return s;
}

/** Pads `s` with spaces to `width` columns; returns `s` unchanged when it is already as wide or wider. */
export function padEndToWidth(s: string, width: number): string {
  const w = displayWidth(s);
  return w >= width ? s : s + ' '.repeat(width - w);
}

/** Truncates then pads: the result is exactly `width` columns wide (for table cells). */
export function fitToWidth(s: string, width: number, ellipsis = '…'): string {
  return padEndToWidth(truncateToWidth(s, width, ellipsis), Math.max(0, width));
}

/**
 * The part of `s` visible in columns [startCol, startCol + width) — for horizontal panning.
 * A wide character cut by either edge is replaced by spaces for its visible half, so columns stay
 * aligned; the result is exactly min(width, max(0, displayWidth(s) - startCol)) columns wide.
 */
export function sliceByWidth(s: string, startCol: number, width: number): string {
  const start = Math.max(0, Math.floor(startCol));
  const end = start + Math.max(0, Math.floor(width));
  if (end <= start) return '';
  if (PRINTABLE_ASCII_RE.test(s)) return s.slice(start, end);
  let out = '';
  let col = 0;
  for (const cell of graphemes(s)) {
    const cellEnd = col + cell.width;
    if (col >= end) break;
    if (cell.width === 0) {
      // Combining marks / zero-width: keep with the preceding visible cell.
      if (col > start && col <= end) out += cell.text;
    } else if (col >= start && cellEnd <= end) {
      out += cell.text;
    } else if (cellEnd > start) {
      // Straddles an edge: show only the visible columns as spaces.
      out += ' '.repeat(Math.min(cellEnd, end) - Math.max(col, start));
    }
    col = cellEnd;
  }
  return out;
}

/**
 * Wraps one line (already sanitized, no line breaks) to `width` columns at word boundaries: a
 * line breaks at a run of spaces (which it drops), a word wider than a line is broken between
 * graphemes, and continuation lines keep the first line's indentation (up to half the width) so
 * wrapped code and JSON stay readable. Returns `[line]` when it fits. With `cutLongWords: false`
 * a word wider than a line gets a line of its own, uncut.
 */
export function wrapToWidth(line: string, width: number, options: { cutLongWords?: boolean } = {}): string[] {
  const w = Math.max(1, Math.floor(width));
  if (displayWidth(line) <= w) return [line];
  const leading = /^ */.exec(line)![0];
  const indent = leading.length <= w / 2 ? leading : '';
  const out: string[] = [];
  let current = '';
  let used = 0;
  let fresh = true; // nothing but indentation on the current line yet
  const newLine = (): void => {
    out.push(current.trimEnd());
    current = indent;
    used = indent.length;
    fresh = true;
  };
  for (const token of line.match(/ +|[^ ]+/g) ?? []) {
    const tokenWidth = displayWidth(token);
    if (token.startsWith(' ')) {
      if (out.length > 0 && fresh) continue; // a continuation line starts at the indentation
      if (used + tokenWidth > w) newLine();
      else {
        current += token;
        used += tokenWidth;
      }
      continue;
    }
    if (used + tokenWidth > w && !fresh) newLine();
    if (used + tokenWidth <= w || options.cutLongWords === false) {
      current += token;
      used += tokenWidth;
      fresh = false;
      continue;
    }
    // Wider than a whole line: break it between graphemes, never through a wide character.
    for (const cell of graphemes(token)) {
      if (used + cell.width > w && !fresh) newLine();
      current += cell.text;
      used += cell.width;
      fresh = false;
    }
  }
  if (!fresh || out.length === 0) out.push(current.trimEnd());
  return out;
}

/**
 * Splits `s` at spaces into lines of at most `width` columns (a word wider than `width` gets a
 * line of its own, uncut; space runs count as one). For help texts; assumes already-sanitized
 * single-line text.
 */
export function wrapWords(s: string, width: number): string[] {
  return wrapToWidth(
    s
      .split(' ')
      .filter((w) => w !== '')
      .join(' '),
    width,
    { cutLongWords: false },
  );
}
