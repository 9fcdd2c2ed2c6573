/**
 * Pure formatting and parsing of ages, dates, sizes, token counts and costs.
 * Every function takes "now" explicitly (never reads the clock) so tests are deterministic.
 */
import { instantOf, wallTime } from './time-zone.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** Calendar-free approximations: good enough for "how old" and for age filters. */
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** Result type for parsers: errors are values (shown in the status line), never exceptions. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Compact age for list columns: "now", "5m", "3h", "2d", "3w", "4mo", "2y".
 * Future timestamps (clock skew between machines) also show "now".
 */
export function formatRelativeAge(fromMs: number, nowMs: number): string {
  const diff = nowMs - fromMs;
  if (!Number.isFinite(diff)) return '?';
  if (diff < MINUTE) return 'now';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)}m`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)}h`;
  if (diff < WEEK) return `${Math.floor(diff / DAY)}d`;
  if (diff < MONTH) return `${Math.floor(diff / WEEK)}w`;
  if (diff < YEAR) return `${Math.floor(diff / MONTH)}mo`;
  return `${Math.floor(diff / YEAR)}y`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Local time (or the time in `timeZone`) as `YYYY-MM-DD HH:MM` (sorts lexically, fixed width 16). */
export function formatAbsoluteDate(date: Date | number, timeZone?: string): string {
  const ms = typeof date === 'number' ? date : date.getTime();
  if (Number.isNaN(new Date(ms).getTime())) return '????-??-?? ??:??';
  const w = wallTime(ms, timeZone);
  return `${w.year}-${pad2(w.month)}-${pad2(w.day)} ${pad2(w.hour)}:${pad2(w.minute)}`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * Binary (1024-based) sizes with conventional labels: "812 B", "14 KB", "1.2 MB", "3.4 GB".
 * One decimal below 10, integers above, so the column stays short.
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  if (n < 1024) return `${Math.round(n)} B`;
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const oneDecimal = value.toFixed(1);
  let text = Number(oneDecimal) < 10 ? oneDecimal : String(Math.round(value));
  // Rounding can reach the next unit ("1024 KB"): promote it.
  if (Number(text) >= 1024 && unit < BYTE_UNITS.length - 1) {
    unit++;
    text = (Number(text) / 1024).toFixed(1);
  }
  return `${text} ${BYTE_UNITS[unit]}`;
}

/** Token counts: "950", "12.3k", "123k", "1.2M". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  const scaled = (value: number, suffix: string): string => {
    const oneDecimal = value.toFixed(1);
    return Number(oneDecimal) < 100 ? `${oneDecimal}${suffix}` : `${Math.round(value)}${suffix}`;
  };
  if (n < 1000) return String(Math.round(n));
  if (n < 999_950) {
    const k = n / 1000;
    // 999.96k would print "1000k": let it fall through to "1.0M".
    if (Math.round(k) < 1000) return scaled(k, 'k');
  }
  return scaled(n / 1_000_000, 'M');
}

/**
 * US dollars: "$0.00" for zero, "$1.23", "$0.004" below a cent (so small sessions don't all
 * read "$0.00"), "<$0.001" below a tenth of a cent.
 */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return '?';
  if (usd < 0) return `-${formatCost(-usd)}`;
  if (usd === 0) return '$0.00';
  if (usd < 0.001) return '<$0.001';
  if (usd < 0.01) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

const SIZE_MULTIPLIERS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};

/**
 * Parses "10mb", "1.5 GB", "512", "20k" into bytes (1024-based, like `formatBytes`).
 * Case-insensitive; fractional results are rounded to whole bytes.
 */
export function parseSize(text: string): ParseResult<number> {
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match?.[2]?.toLowerCase() ?? '';
  const multiplier = SIZE_MULTIPLIERS[unit];
  if (!match?.[1] || multiplier === undefined) {
    return { ok: false, error: `invalid size "${text}" (examples: 500kb, 10mb, 1.5gb)` };
  }
  return { ok: true, value: Math.round(Number(match[1]) * multiplier) };
}

const AGE_UNITS: Record<string, number> = {
  s: SECOND,
  m: MINUTE,
  min: MINUTE,
  h: HOUR,
  d: DAY,
  w: WEEK,
  mo: MONTH,
  y: YEAR,
};

/** A time given on the command line: where it starts and, for a whole day or month, where it ends. */
export interface TimeSpan {
  startMs: number;
  /** The exclusive end of the day or month named (`2026-03-01`, `2026-03`, `yesterday`); absent for an instant (an age, a date-time). */
  endMs?: number;
}

/** The forms `parseWhen` reads, as `help stats` lists them. */
export const WHEN_FORMS =
  'a day (2026-03-01, 2026/03/01 or 20260301: from its midnight; as --until, up to its end), a month (2026-03 or 2026/03), today, yesterday, ' +
  'a date and time (2026-03-01 14:30[:15], or T between), or an age before now: 30s, 15m or 15min (minutes), 12h, 30d, 2w, 6mo (30 days), 1y (365 days)';

const isDigits = (text: string | undefined): text is string => text !== undefined && /^\d+$/.test(text);

/**
 * Parses a time for filters like `--since` and `--until`, in `timeZone` (an IANA name the
 * caller validated; local time when absent):
 *   - an age relative to `nowMs`: "30s", "15m"/"15min", "3h", "30d", "2w", "6mo", "1y"
 *     (units match `formatRelativeAge`: "m" is minutes, as that column writes them, "mo" months
 *     of 30 days, "y" 365 days);
 *   - a day "2026-01-05", "2026/01/05" or "20260105" (ccusage's form), "today", "yesterday":
 *     its midnight, `endMs` the next midnight;
 *   - a month "2026-01" or "2026/01": its first midnight, `endMs` the next month's;
 *   - a date-time "2026-01-05 14:30[:15]" / "2026-01-05T14:30": that instant.
 */
export function parseWhen(text: string, nowMs: number, timeZone?: string): ParseResult<TimeSpan> {
  const trimmed = text.trim();
  const age = /^(\d+(?:\.\d+)?)\s*(s|min|mo|m|h|d|w|y)$/i.exec(trimmed);
  if (age?.[1] && age[2]) {
    const unit = AGE_UNITS[age[2].toLowerCase()];
    if (unit !== undefined) return { ok: true, value: { startMs: nowMs - Math.round(Number(age[1]) * unit) } };
  }
  const named = trimmed.toLowerCase();
  if (named === 'today' || named === 'yesterday') {
    const now = wallTime(nowMs, timeZone);
    const day = now.day - (named === 'yesterday' ? 1 : 0);
    return {
      ok: true,
      value: {
        startMs: instantOf({ year: now.year, month: now.month, day }, timeZone),
        endMs: instantOf({ year: now.year, month: now.month, day: day + 1 }, timeZone),
      },
    };
  }
  const month = /^(\d{4})([-/])(\d{2})$/.exec(trimmed);
  if (month && isDigits(month[1]) && isDigits(month[3])) {
    const [year, mo] = [Number(month[1]), Number(month[3])];
    if (mo < 1 || mo > 12) return { ok: false, error: `invalid month "${text}"` };
    return {
      ok: true,
      value: {
        startMs: instantOf({ year, month: mo, day: 1 }, timeZone),
        endMs: instantOf({ year, month: mo + 1, day: 1 }, timeZone),
      },
    };
  }
  const date =
    /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed) ??
    /^(\d{4})\/(\d{2})\/(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed) ??
    /^(\d{4})(\d{2})(\d{2})$/.exec(trimmed);
  if (date) {
    const [year, mo, day, hour = 0, minute = 0, second = 0] = date
      .slice(1)
      .map((part) => (part === undefined ? 0 : Number(part)));
    if (year === undefined || mo === undefined || day === undefined)
      return { ok: false, error: `invalid date "${text}"` };
    const startMs = instantOf({ year, month: mo, day, hour, minute, second }, timeZone);
    // Date rolls invalid fields over (Feb 30 → Mar 2): reject instead of guessing.
    const w = wallTime(startMs, timeZone);
    const valid =
      w.year === year &&
      w.month === mo &&
      w.day === day &&
      w.hour === hour &&
      w.minute === minute &&
      w.second === second;
    if (!valid) return { ok: false, error: `invalid date "${text}"` };
    const wholeDay = date[4] === undefined;
    return {
      ok: true,
      value: wholeDay ? { startMs, endMs: instantOf({ year, month: mo, day: day + 1 }, timeZone) } : { startMs },
    };
  }
  return {
    ok: false,
    error: `invalid date or age "${text}" (examples: 2026-03-01, 20260301, 2026-03, yesterday, 2w, 30d, 12h, 6mo)`,
  };
}

/** `parseWhen`'s start: the instant a filter like `after:` compares with. */
export function parseDateOrAge(text: string, nowMs: number, timeZone?: string): ParseResult<number> {
  const parsed = parseWhen(text, nowMs, timeZone);
  return parsed.ok ? { ok: true, value: parsed.value.startMs } : parsed;
}

/** `1 session`, `2 sessions`; `plural(2, 'entry', 'entries')` for irregular words. */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}
