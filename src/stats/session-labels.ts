/**
 * The names of sessions in the stats (pure): a session's title, else its id's start, told apart
 * from the others where they would read the same. Shared by the charts and the tables.
 */
import { formatAbsoluteDate } from '../format.js';
import type { SessionStats } from '../store/index.js';
import { sanitizeInline, truncateToWidth } from '../text/terminal-text.js';

export const sessionLabel = (s: SessionStats): string => sanitizeInline(s.title) || sanitizeInline(s.id).slice(0, 8);

/**
 * Each session's label, told apart from the others: a title that reads the same as another's
 * within `width` cells (the same first prompt, a fork's copied title) gets its creation date in
 * front (`01-05 09:00 · ok, now also…`; its id's start when it has no date), and its id's start
 * as well when even that repeats.
 */
export function sessionLabels(
  sessions: readonly SessionStats[],
  width: number,
  timeZone?: string,
): Map<string, string> {
  const cut = (text: string) => truncateToWidth(text, width);
  const group = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
    const out = new Map<string, T[]>();
    for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
    return out;
  };
  const labels = new Map<string, string>();
  for (const same of group(sessions, (s) => cut(sessionLabel(s))).values()) {
    if (same.length === 1) {
      labels.set(same[0]!.path, sessionLabel(same[0]!));
      continue;
    }
    // A header without a readable date: its id's start says which it is instead.
    const dated = (s: SessionStats) =>
      `${s.created === null ? sanitizeInline(s.id).slice(0, 8) : formatAbsoluteDate(Date.parse(s.created), timeZone).slice(5)} · ${sessionLabel(s)}`;
    for (const again of group(same, (s) => cut(dated(s))).values())
      for (const s of again)
        labels.set(s.path, again.length === 1 ? dated(s) : `${sanitizeInline(s.id).slice(0, 8)} · ${dated(s)}`);
  }
  return labels;
}
