/**
 * Paths shortened from the middle for one-line messages: the file name says which session it is
 * and the head says where, so the cut goes between them. A message built as
 * `${elidePathMiddle(path, n)} was deleted…` then keeps its advice however long the temp folder is.
 * The path must already be made safe for the terminal (`sanitizeInline`).
 */
import { displayWidth, truncateToWidth } from './terminal-text.js';

/** `s` cut from its start to at most `width` cells, with a leading `…`. */
function keepEnd(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  if (width <= 1) return width === 1 ? '…' : '';
  const chars = [...s];
  let out = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = displayWidth(chars[i]!);
    if (used + w > width - 1) break;
    out = chars[i]! + out;
    used += w;
  }
  return `…${out}`;
}

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
  if (slash <= 0 || room < 4) return keepEnd(slash >= 0 ? path.slice(slash + 1) : path, w);
  return truncateToWidth(path.slice(0, slash), room) + name;
}
