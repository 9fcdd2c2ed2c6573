import { describe, expect, it } from 'vitest';
import {
  formatAbsoluteDate,
  formatBytes,
  formatCost,
  formatRelativeAge,
  formatTokens,
  parseDateOrAge,
  parseSize,
  parseWhen,
} from '../src/format.js';

const NOW = new Date(2026, 0, 15, 12, 0, 0).getTime();
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('formatRelativeAge', () => {
  it.each([
    [0, 'now'],
    [59 * S, 'now'],
    [-5 * M, 'now'],
    [M, '1m'],
    [5 * M + 30 * S, '5m'],
    [59 * M, '59m'],
    [H, '1h'],
    [3 * H, '3h'],
    [23 * H + 59 * M, '23h'],
    [D, '1d'],
    [2 * D, '2d'],
    [6 * D, '6d'],
    [7 * D, '1w'],
    [21 * D, '3w'],
    [29 * D, '4w'],
    [30 * D, '1mo'],
    [125 * D, '4mo'],
    [364 * D, '12mo'],
    [365 * D, '1y'],
    [2 * 365 * D + 10 * D, '2y'],
  ])('%i ms ago → %s', (ago, expected) => {
    expect(formatRelativeAge(NOW - ago, NOW)).toBe(expected);
  });

  it('handles invalid input', () => {
    expect(formatRelativeAge(Number.NaN, NOW)).toBe('?');
  });
});

describe('formatAbsoluteDate', () => {
  it('formats local time with zero padding', () => {
    expect(formatAbsoluteDate(new Date(2026, 0, 5, 9, 7, 59))).toBe('2026-01-05 09:07');
    expect(formatAbsoluteDate(new Date(1999, 11, 31, 23, 59).getTime())).toBe('1999-12-31 23:59');
  });
  it('handles invalid dates', () => {
    expect(formatAbsoluteDate(new Date(Number.NaN))).toBe('????-??-?? ??:??');
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [812, '812 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [9.97 * 1024, '10 KB'],
    [14 * 1024 + 100, '14 KB'],
    [1023.7 * 1024, '1.0 MB'],
    [1.2 * 1024 ** 2, '1.2 MB'],
    [345 * 1024 ** 2, '345 MB'],
    [3.4 * 1024 ** 3, '3.4 GB'],
    [2 * 1024 ** 4, '2.0 TB'],
    [-1, '?'],
  ])('%d → %s', (n, expected) => {
    expect(formatBytes(n)).toBe(expected);
  });
});

describe('formatTokens', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [999, '999'],
    [1000, '1.0k'],
    [12_345, '12.3k'],
    [99_949, '99.9k'],
    [99_960, '100k'],
    [123_456, '123k'],
    [999_499, '999k'],
    [999_999, '1.0M'],
    [1_234_567, '1.2M'],
    [250_000_000, '250M'],
    [Number.NaN, '?'],
  ])('%d → %s', (n, expected) => {
    expect(formatTokens(n)).toBe(expected);
  });
});

describe('formatCost', () => {
  it.each([
    [0, '$0.00'],
    [1.234, '$1.23'],
    [0.004, '$0.004'],
    [0.0123, '$0.01'],
    [0.0004, '<$0.001'],
    [152.5, '$152.50'],
    [-2, '-$2.00'],
    [Number.POSITIVE_INFINITY, '?'],
  ])('%d → %s', (n, expected) => {
    expect(formatCost(n)).toBe(expected);
  });
});

describe('parseSize', () => {
  it.each([
    ['10mb', 10 * 1024 ** 2],
    ['10MB', 10 * 1024 ** 2],
    ['1.5 GB', 1.5 * 1024 ** 3],
    ['512', 512],
    ['20k', 20 * 1024],
    ['2KiB', 2048],
    ['  7b ', 7],
    ['.5k', 512],
  ])('%s → %d', (text, bytes) => {
    expect(parseSize(text)).toEqual({ ok: true, value: bytes });
  });

  it.each(['', 'mb', '10 parsecs', '-5mb', '1,5mb', '10 mb extra'])('rejects %j', (text) => {
    const result = parseSize(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('invalid size');
  });
});

describe('parseDateOrAge', () => {
  it.each([
    ['2w', NOW - 14 * D],
    ['30d', NOW - 30 * D],
    ['12h', NOW - 12 * H],
    ['15m', NOW - 15 * M],
    ['15min', NOW - 15 * M],
    ['45s', NOW - 45 * S],
    ['6mo', NOW - 180 * D],
    ['1y', NOW - 365 * D],
    ['1.5d', NOW - 36 * H],
    [' 2W ', NOW - 14 * D],
    ['2026-01-05', new Date(2026, 0, 5).getTime()],
    ['2026-01-05 14:30', new Date(2026, 0, 5, 14, 30).getTime()],
    ['2026-01-05T14:30:15', new Date(2026, 0, 5, 14, 30, 15).getTime()],
    ['2024-02-29', new Date(2024, 1, 29).getTime()],
  ])('%s → %d', (text, ms) => {
    expect(parseDateOrAge(text, NOW)).toEqual({ ok: true, value: ms });
  });

  it.each([
    '',
    'tomorrow',
    '2w3d',
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-01-05 25:00',
    '2026-1-5',
    '-2d',
    '20260230',
    '2026-13',
    '2026/00',
    '2026-03/01',
    '202603',
  ])('rejects %j', (text) => {
    const result = parseDateOrAge(text, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/invalid (date|month)/);
  });
});

describe('parseWhen: the forms ccusage users write, and the span a day or month covers', () => {
  const day = (y: number, m: number, d: number): number => new Date(y, m - 1, d).getTime();
  it.each([
    ['20260301', day(2026, 3, 1), day(2026, 3, 2)],
    ['2026-03-01', day(2026, 3, 1), day(2026, 3, 2)],
    ['2026/03/01', day(2026, 3, 1), day(2026, 3, 2)],
    ['2026-03', day(2026, 3, 1), day(2026, 4, 1)],
    ['2026/12', day(2026, 12, 1), day(2027, 1, 1)],
    ['today', day(2026, 1, 15), day(2026, 1, 16)],
    ['Yesterday', day(2026, 1, 14), day(2026, 1, 15)],
    ['2026-02-28', day(2026, 2, 28), day(2026, 3, 1)],
  ])('%s is the whole day or month', (text, startMs, endMs) => {
    expect(parseWhen(text, NOW)).toEqual({ ok: true, value: { startMs, endMs } });
  });

  it.each([
    ['2026-03-01 14:30', new Date(2026, 2, 1, 14, 30).getTime()],
    ['2026/03/01 14:30', new Date(2026, 2, 1, 14, 30).getTime()],
    ['1m', NOW - M],
    ['1mo', NOW - 30 * D],
  ])('%s is an instant (no end)', (text, startMs) => {
    expect(parseWhen(text, NOW)).toEqual({ ok: true, value: { startMs } });
  });

  it('reads a day in the time zone given', () => {
    expect(parseWhen('2026-03-01', NOW, 'Asia/Tokyo')).toEqual({
      ok: true,
      value: { startMs: Date.UTC(2026, 1, 28, 15), endMs: Date.UTC(2026, 2, 1, 15) },
    });
    // New York leaves winter time on 2026-03-08: that day is 23 hours long.
    const dst = parseWhen('2026-03-08', NOW, 'America/New_York');
    expect(dst).toEqual({ ok: true, value: { startMs: Date.UTC(2026, 2, 8, 5), endMs: Date.UTC(2026, 2, 9, 4) } });
    // "today" is the zone's today: 23:30 UTC on the 15th is already the 16th in Tokyo.
    const late = Date.UTC(2026, 0, 15, 23, 30);
    expect(parseWhen('today', late, 'Asia/Tokyo')).toEqual({
      ok: true,
      value: { startMs: Date.UTC(2026, 0, 15, 15), endMs: Date.UTC(2026, 0, 16, 15) },
    });
    expect(parseWhen('2026-03-08 02:30', NOW, 'America/New_York').ok).toBe(false);
  });
});

describe('formatAbsoluteDate in a time zone', () => {
  it('prints the wall clock of the zone', () => {
    expect(formatAbsoluteDate(Date.UTC(2026, 0, 15, 23, 30), 'Asia/Tokyo')).toBe('2026-01-16 08:30');
    expect(formatAbsoluteDate(Date.UTC(2026, 0, 15, 23, 30), 'UTC')).toBe('2026-01-15 23:30');
    expect(formatAbsoluteDate(1e20)).toBe('????-??-?? ??:??');
  });
});
