/**
 * The labels' time column, one width for every row so the labels after it start in one column:
 * `MM-DD HH:MM` while every label is from this year, `YYYY-MM-DD HH:MM` as soon as one is not
 * (decided over all rows, not the ones on screen, so the column does not jump while scrolling).
 * Local time, as pi's `/tree` shows label times.
 */
import { padEndToWidth } from '../text/terminal-text.js';

export interface TimeColumn {
  width: number;
  /** The row's time in the column's form, padded to `width`; `?` when it has none or it is not a date. */
  format(iso: string | null): string;
}

const two = (n: number): string => String(n).padStart(2, '0');

export function labelTimeColumn(times: readonly (string | null)[], nowMs: number): TimeColumn {
  const year = new Date(nowMs).getFullYear();
  const years = times.flatMap((t) => {
    const ms = t === null ? Number.NaN : Date.parse(t);
    return Number.isNaN(ms) ? [] : [new Date(ms).getFullYear()];
  });
  const withYear = years.some((y) => y !== year);
  // A year past 9999 (a date that cannot be real, still shown as written) widens the column.
  const width = withYear ? 12 + Math.max(4, ...years.map((y) => String(y).length)) : 11;
  return {
    width,
    format(iso) {
      const d = new Date(iso ?? Number.NaN);
      if (Number.isNaN(d.getTime())) return padEndToWidth('?', width);
      const day = `${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
      return padEndToWidth(withYear ? `${d.getFullYear()}-${day}` : day, width);
    },
  };
}
