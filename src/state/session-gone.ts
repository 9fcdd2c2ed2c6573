/**
 * A listed session whose file is no longer there (deleted or moved by pi, another pi-sessions, a
 * shell) when the user acts on it: every screen says it the same way, in one line that keeps its
 * advice whatever the path's length (the path is cut from the middle, its file name kept).
 */
import { fitPaths } from '../text/elide-path.js';
import { sanitizeInline } from '../text/terminal-text.js';

/** Since when the file was expected: a list drew it, or a screen opened it. */
export type GoneSince = 'the list was drawn' | 'it was opened';

/** Cells a status line takes before its text (`✗ `). */
const STATUS_PREFIX = 2;

/**
 * "`path` was deleted or moved since the list was drawn", fit to `columns` (the status line's
 * width); for several paths, the first and how many more.
 */
export function goneMessage(
  paths: readonly string[],
  columns: number,
  since: GoneSince = 'the list was drawn',
): string {
  const more = paths.length > 1 ? ` (and ${paths.length - 1} more)` : '';
  const tail = `${more} ${paths.length > 1 ? 'were' : 'was'} deleted or moved since ${since}`;
  const path = sanitizeInline(paths[0] ?? '');
  return fitPaths(`${path}${tail}`, columns - STATUS_PREFIX, [path]);
}
