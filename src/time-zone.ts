/**
 * Wall-clock time in a time zone (an IANA name such as `Europe/Berlin`), or in the local zone when
 * none is given. Pure: the zone rules come from the runtime's Intl data, the clock is never read.
 * Local time goes through `Date`'s own getters, so the default costs nothing on a large store.
 */

export interface WallTime {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 (Sunday) – 6 (Saturday). */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows `name` as a time zone (`UTC`, `Asia/Tokyo`; not `Mars/Base`, not ``). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '') return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone local time is in (the runtime's, from TZ or the system), as an IANA name when it knows one. */
export const localTimeZone = (): string => new Intl.DateTimeFormat().resolvedOptions().timeZone;

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock reading of the instant `ms` in `timeZone` (local time when undefined). */
export function wallTime(ms: number, timeZone?: string): WallTime {
  if (timeZone === undefined) {
    const d = new Date(ms);
    return {
      year: d.getFullYear(),
      month: d.getMonth() + 1,
      day: d.getDate(),
      hour: d.getHours(),
      minute: d.getMinutes(),
      second: d.getSeconds(),
      weekday: d.getDay(),
    };
  }
  const parts: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  return {
    year: Number(parts['year']),
    month: Number(parts['month']),
    day: Number(parts['day']),
    hour: Number(parts['hour']),
    minute: Number(parts['minute']),
    second: Number(parts['second']),
    weekday: WEEKDAYS.indexOf(parts['weekday'] ?? ''),
  };
}

/** How far `timeZone`'s clock is ahead of UTC at the instant `ms`, in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallTime(ms, timeZone);
  const whole = Math.floor(ms / 1000) * 1000;
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

/**
 * The instant whose wall-clock reading in `timeZone` (local when undefined) is this; fields roll
 * over as `Date`'s do (day 32 is the next month's 1st), so a caller can step by calendar units.
 * A reading a clock change skips lands after the change.
 */
export function instantOf(
  t: { year: number; month: number; day: number; hour?: number; minute?: number; second?: number },
  timeZone?: string,
): number {
  const [h, mi, s] = [t.hour ?? 0, t.minute ?? 0, t.second ?? 0];
  if (timeZone === undefined) return new Date(t.year, t.month - 1, t.day, h, mi, s).getTime();
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, h, mi, s);
  const first = asUtc - offsetAt(asUtc, timeZone);
  // Near a clock change the offset at the first guess can differ from the one at the answer.
  const second = asUtc - offsetAt(first, timeZone);
  return second === first ? first : Math.max(first, second);
}

const two = (n: number): string => String(n).padStart(2, '0');

/** `2026-01-05` in `timeZone` (local when undefined). */
export function dayKey(ms: number, timeZone?: string): string {
  const w = wallTime(ms, timeZone);
  return `${w.year}-${two(w.month)}-${two(w.day)}`;
}

/** `2026-W02`: the ISO 8601 week of the date in `timeZone` (local when undefined). */
export function isoWeekKey(ms: number, timeZone?: string): string {
  const w = wallTime(ms, timeZone);
  const day = w.weekday || 7;
  // The week's Thursday decides its year; computed on the calendar date, so DST cannot shift it.
  const thursday = Date.UTC(w.year, w.month - 1, w.day + 4 - day);
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) + 1;
  return `${year}-W${two(week)}`;
}
