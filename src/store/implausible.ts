/**
 * Values in a session that cannot be real (pure): a usage figure that is not a finite number, is
 * negative or is larger than any model could spend on one message, and an entry date that cannot
 * be when it was written. The aggregates (stats.ts, every usage total through `addUsage`) leave
 * such a value out, so one corrupt or hostile file cannot turn every other session's figures into
 * Infinity or stretch the timeline over millennia; `stats` lists what it left out and `check`
 * reports each one with its file and line.
 *
 * This module imports nothing from the store, so entry.ts can build on it.
 */

/**
 * The most tokens one usage figure (input, output, cache read or write, total) can hold: ten times
 * the largest context window any model offers (10M tokens), since one usage is one model call.
 */
export const MAX_TOKENS_PER_USAGE = 100_000_000;

/**
 * The most one usage can cost, in USD: a full 10M-token call at the dearest output price
 * (about $75 per million) is $750; more than ten times that is not a price but a broken number.
 */
export const MAX_COST_PER_USAGE = 10_000;

/** No pi session was written before 2020 (pi, and coding agents like it, came years later). */
export const EARLIEST_SESSION_MS = Date.UTC(2020, 0, 1);

/** How far past "now" (or the file's mtime, if later) an entry may be dated: clocks and zones disagree by hours, not days. */
export const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

/** The token fields of pi's `Usage`, in its order. */
export const USAGE_TOKEN_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens'] as const;

/** One value left out: its field (a dotted path in the entry), the value as written, and why. */
export interface ImplausibleValue {
  field: string;
  /** A finite number as is; anything else as short text (`"Infinity"`, `"\"1e308\""`, `"null"`), at most 80 characters. */
  value: number | string;
  why: string;
}

const VALUE_TEXT_MAX = 80;

/** The value, fit for a report: numbers as they are, the rest as JSON-ish text cut short. */
export function shownValue(value: unknown): number | string {
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > VALUE_TEXT_MAX ? `${text.slice(0, VALUE_TEXT_MAX - 1)}…` : text;
}

const kindOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * Why `value` cannot be a usage figure whose ceiling is `max`, or undefined when it can (an absent
 * field, `undefined`, is fine: older files lack the newer fields and pi counts them as 0).
 */
function implausibleFigure(value: unknown, max: number, unit: (n: number) => string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number') return `${kindOf(value)}, not a number`;
  if (!Number.isFinite(value)) return 'not a finite number';
  if (value < 0) return 'negative';
  if (value > max) return `over ${unit(max)} in one usage`;
  return undefined;
}

const tokens = (n: number): string => `${n / 1_000_000}M tokens`;
const dollars = (n: number): string => `$${n.toLocaleString('en-US')}`;

/** Whether a token figure can be real (absent counts as a plausible 0). */
export const isPlausibleTokens = (value: unknown): boolean =>
  implausibleFigure(value, MAX_TOKENS_PER_USAGE, tokens) === undefined;

/** Whether a cost can be real (absent counts as a plausible 0). */
export const isPlausibleCost = (value: unknown): boolean =>
  implausibleFigure(value, MAX_COST_PER_USAGE, dollars) === undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every figure of a pi `Usage` object that cannot be real; `at` names where the object sits (`message.usage`). */
export function implausibleUsageValues(usage: unknown, at: string): ImplausibleValue[] {
  if (!isRecord(usage)) return [];
  const out: ImplausibleValue[] = [];
  for (const field of USAGE_TOKEN_FIELDS) {
    const why = implausibleFigure(usage[field], MAX_TOKENS_PER_USAGE, tokens);
    if (why) out.push({ field: `${at}.${field}`, value: shownValue(usage[field]), why });
  }
  const cost = usage['cost'];
  if (isRecord(cost)) {
    const why = implausibleFigure(cost['total'], MAX_COST_PER_USAGE, dollars);
    if (why) out.push({ field: `${at}.cost.total`, value: shownValue(cost['total']), why });
  }
  return out;
}

/** The latest time an entry of a file last written at `mtimeMs` can be dated, when it is read at `nowMs`. */
export const latestPlausibleMs = (nowMs: number, mtimeMs: number): number =>
  Math.max(nowMs, Number.isFinite(mtimeMs) ? mtimeMs : 0) + FUTURE_SLACK_MS;

/** Epoch ms of a timestamp as written (an ISO string or epoch ms), NaN when it is neither or is not a date. */
export function timestampMs(timestamp: unknown): number {
  return typeof timestamp === 'string' || typeof timestamp === 'number' ? new Date(timestamp).getTime() : NaN;
}

/** Why an entry's `timestamp` cannot be when it was written (`latestMs`: see `latestPlausibleMs`), or undefined. */
export function impossibleTimestamp(timestamp: unknown, latestMs: number): ImplausibleValue | undefined {
  const ms = timestampMs(timestamp);
  const value = shownValue(timestamp);
  if (Number.isNaN(ms)) return { field: 'timestamp', value, why: timestamp === undefined ? 'missing' : 'not a date' };
  if (ms < EARLIEST_SESSION_MS) return { field: 'timestamp', value, why: 'before 2020, when no pi session existed' };
  if (ms > latestMs)
    return { field: 'timestamp', value, why: 'more than a day after both now and the time the file was last written' };
  return undefined;
}
