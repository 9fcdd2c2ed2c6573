/**
 * Paths shortened from the middle for one-line messages: the file name says which session it is
 * and the head says where, so the cut goes between them. A message built as
 * `${elidePathMiddle(path, n)} was deleted…` then keeps its advice however long the temp folder is.
 * The path must already be made safe for the terminal (`sanitizeInline`).
 */
import { displayWidth, truncateStart, truncateToWidth } from './terminal-text.js';

/**
 * `path` in at most `width` display cells: whole when it fits; else its start, `…`, and its last
 * component whole (`/tmp/pi-sessi…/2026-01-05_abc.jsonl`); when even the name is too wide, the
 * name's end (`…05_abc.jsonl`).
 */
export function elidePathMiddle(path: string, width: number): string {
  const w = Math.max(0, Math.floor(width));
  if (displayWidth(path) <= w) return path;
  const slash = path.lastIndexOf('/');
  const name = slash >= 0 ? path.slice(slash) : path;
  const room = w - displayWidth(name);
  // Fewer than 4 cells of head ("/t…") says nothing: spend them on the name instead.
  if (slash <= 0 || room < 4) return truncateStart(slash >= 0 ? path.slice(slash + 1) : path, w);
  return truncateToWidth(path.slice(0, slash), room) + name;
}

/**
 * A path inside a message: `/…` or `~/…` at the start or after a space, `(`, a quote, `=` or `:`,
 * up to a space, a parenthesis or a quote (messages put paths in parentheses and quotes; square
 * brackets stay in: escaped control sequences in hostile names hold them).
 */
const PATH_IN_TEXT_RE = /(?<=^|[\s(“"'=:])~?\/[^\s()“”"']+/gu;
/** Sentence punctuation after a path belongs to the message, not the path. */
const TRAILING_PUNCTUATION_RE = /[.,;:!?]+$/u;
/** Cells a path keeps at least when a message is shortened (a file name's end: its id and extension). */
const PATH_FLOOR = 12;

interface Span {
  start: number;
  end: number;
}

/** Where the paths are in `text`: each of `known` (which may hold spaces), then anything that looks like one. */
function pathSpans(text: string, known: readonly string[]): Span[] {
  const spans: Span[] = [];
  const overlaps = (s: Span) => spans.some((o) => s.start < o.end && o.start < s.end);
  for (const path of [...known].sort((a, b) => b.length - a.length)) {
    if (path === '') continue;
    for (let at = text.indexOf(path); at >= 0; at = text.indexOf(path, at + path.length)) {
      const span = { start: at, end: at + path.length };
      if (!overlaps(span)) spans.push(span);
    }
  }
  for (const match of text.matchAll(PATH_IN_TEXT_RE)) {
    const path = match[0].replace(TRAILING_PUNCTUATION_RE, '');
    const span = { start: match.index, end: match.index + path.length };
    if (path.length > 1 && !overlaps(span)) spans.push(span);
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * `text` (already terminal-safe) with its paths cut from the middle, widest first, until it fits
 * `width` cells: a message that quotes a long temp path keeps what it says after the path. `known`:
 * paths the caller knows are in it (found even with spaces in them). When the paths cannot shrink
 * enough, the result is still wider than `width` (the caller cuts its end, as for any line).
 */
export function fitPaths(text: string, width: number, known: readonly string[] = []): string {
  let excess = displayWidth(text) - Math.max(0, Math.floor(width));
  if (excess <= 0) return text;
  const spans = pathSpans(text, known);
  const shown = spans.map((s) => text.slice(s.start, s.end));
  const widest = shown.map((_, i) => i).sort((a, b) => displayWidth(shown[b]!) - displayWidth(shown[a]!));
  for (const i of widest) {
    if (excess <= 0) break;
    const was = displayWidth(shown[i]!);
    const room = Math.max(Math.min(was, PATH_FLOOR), was - excess);
    shown[i] = elidePathMiddle(shown[i]!, room);
    excess -= was - displayWidth(shown[i]!);
  }
  let out = '';
  let from = 0;
  spans.forEach((s, i) => {
    out += text.slice(from, s.start) + shown[i];
    from = s.end;
  });
  return out + text.slice(from);
}
