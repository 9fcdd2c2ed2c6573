/** Wall-clock time in an IANA zone: day and week keys, the instant of a reading, zone names. */
import { describe, expect, it } from 'vitest';
import { dayKey, instantOf, isoWeekKey, isTimeZone, wallTime } from '../src/time-zone.js';

describe('time zones', () => {
  it('knows IANA names and rejects others', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Base')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('reads the day and ISO week of an instant in the zone', () => {
    const ms = Date.UTC(2026, 0, 4, 20); // a Sunday evening in UTC, Monday morning in Tokyo
    expect(dayKey(ms, 'UTC')).toBe('2026-01-04');
    expect(dayKey(ms, 'Asia/Tokyo')).toBe('2026-01-05');
    expect(isoWeekKey(ms, 'UTC')).toBe('2026-W01');
    expect(isoWeekKey(ms, 'Asia/Tokyo')).toBe('2026-W02');
    expect(wallTime(ms, 'Asia/Tokyo')).toMatchObject({ hour: 5, weekday: 1 });
  });

  it('finds the instant of a reading, rolling fields over like Date', () => {
    expect(instantOf({ year: 2026, month: 1, day: 32 }, 'UTC')).toBe(Date.UTC(2026, 1, 1));
    expect(instantOf({ year: 2026, month: 7, day: 1 }, 'Europe/Berlin')).toBe(Date.UTC(2026, 5, 30, 22));
    expect(instantOf({ year: 2026, month: 1, day: 1 }, 'Europe/Berlin')).toBe(Date.UTC(2025, 11, 31, 23));
    expect(instantOf({ year: 2026, month: 1, day: 5, hour: 9 })).toBe(new Date(2026, 0, 5, 9).getTime());
  });
});
