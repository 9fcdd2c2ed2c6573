/**
 * `pi-sessions stats daily|weekly|monthly|session`: ccusage-like tables and their JSON rows, as a
 * user runs them on the pi-written corpus: the rows add up to the totals of `stats --json`, the
 * table keeps every figure whole at 80 and 120 columns, `--breakdown` splits each row by model,
 * `--order` and `--until DAY` behave as ccusage's, and misuse is a usage error.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/text/terminal-text.js';
import { FIXTURES } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';
import { expectCleanRun, jsonOf, runCliAsync } from '../hostile/run.js';

interface Figures {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}
type Row = Figures & { totalCost: number; modelBreakdowns: (Figures & { modelName: string; cost: number })[] };

const agent = (): Record<string, string> => {
  const dir = tempDir('pi-sessions-stats-table-');
  cpSync(join(FIXTURES, 'pi-written', 'sessions'), join(dir, 'sessions'), { recursive: true });
  return { PI_CODING_AGENT_DIR: dir, TZ: 'UTC' };
};
const FIELDS = ['inputTokens', 'outputTokens', 'cacheCreationTokens', 'cacheReadTokens', 'totalTokens'] as const;

describe('pi-sessions stats daily|weekly|monthly|session', () => {
  it('JSON rows carry ccusage’s fields, add up to the totals of stats --json, and each row’s models add up to it', async () => {
    const env = agent();
    const whole = jsonOf(await runCliAsync(['stats', '--all', '--json'], { env })) as {
      totals: { input: number; output: number; totalTokens: number; cost: number };
    };
    for (const [report, field, key] of [
      ['daily', 'daily', 'date'],
      ['weekly', 'weekly', 'week'],
      ['monthly', 'monthly', 'month'],
      ['session', 'sessions', 'sessionId'],
    ] as const) {
      const run = await runCliAsync(['stats', report, '--all', '--json'], { env });
      expectCleanRun(run, report);
      const json = jsonOf(run) as Record<string, unknown>;
      const rows = json[field] as (Row & Record<string, unknown>)[];
      expect(rows.length, report).toBeGreaterThan(0);
      for (const row of rows) {
        expect(typeof row[key], `${report} ${key}`).toBe('string');
        let cost = 0;
        const sums = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<(typeof FIELDS)[number], number>;
        for (const model of row.modelBreakdowns) {
          cost += model.cost;
          for (const f of FIELDS) sums[f] += model[f];
        }
        for (const f of FIELDS) expect(sums[f], `${report} ${String(row[key])} ${f}`).toBe(row[f]);
        expect(cost).toBeCloseTo(row.totalCost, 9);
      }
      const total = (f: keyof Row): number => rows.reduce((sum, row) => sum + (row[f] as number), 0);
      expect(total('inputTokens'), report).toBe(whole.totals.input);
      expect(total('outputTokens'), report).toBe(whole.totals.output);
      expect(total('totalTokens'), report).toBe(whole.totals.totalTokens);
      expect(total('totalCost')).toBeCloseTo(whole.totals.cost, 9);
    }
  });

  it('newest first by default (as @ccusage/pi prints), --order asc reverses; --until DAY includes that day', async () => {
    const env = agent();
    const keys = async (args: string[]): Promise<string[]> =>
      (
        jsonOf(await runCliAsync(['stats', 'daily', '--all', '--json', ...args], { env })) as {
          daily: { date: string }[];
        }
      ).daily.map((row) => row.date);
    const desc = await keys([]);
    expect(desc).toEqual([...desc].sort().reverse());
    expect(await keys(['--order', 'asc'])).toEqual([...desc].reverse());
    const busiest = '2026-02-05';
    expect(desc).toContain(busiest);
    const until = await keys(['--until', busiest]);
    expect(until[0]).toBe(busiest);
    expect(await keys(['--until', '20260205'])).toEqual(until);
    expect(await keys(['--since', busiest, '--until', busiest])).toEqual([busiest]);
  });

  it.each([80, 120])(
    'the table at %i columns: every figure whole, a Total row equal to the JSON totals',
    async (columns) => {
      const env = { ...agent(), COLUMNS: String(columns) };
      const json = jsonOf(await runCliAsync(['stats', 'monthly', '--all', '--json'], { env })) as {
        monthly: Row[];
        totals: Figures & { totalCost: number };
      };
      const run = await runCliAsync(['stats', 'monthly', '--all', '--breakdown'], { env });
      expectCleanRun(run, 'monthly table');
      expect(run.code).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(Math.max(...lines.map(displayWidth))).toBeLessThanOrEqual(columns);
      const totalLine = lines.find((line) => line.startsWith('Total'))!;
      for (const f of FIELDS) expect(totalLine).toContain(json.totals[f].toLocaleString('en-US'));
      for (const row of json.monthly) {
        const line = lines.find((l) => l.startsWith((row as unknown as { month: string }).month))!;
        expect(line).toContain(row.totalTokens.toLocaleString('en-US'));
        // --breakdown: one `└ model` line per model under its month (after the models column's own lines).
        const at = lines.indexOf(line);
        const next = lines.findIndex((l, i) => i > at && /^\S/.test(l));
        const under = lines.slice(at + 1, next === -1 ? undefined : next);
        expect(under.filter((l) => l.startsWith('  └ '))).toHaveLength(row.modelBreakdowns.length);
      }
    },
  );

  it.each([
    [['stats', 'daily', '--by', 'week']],
    [['stats', 'daily', '--timezone', 'Mars/Olympus_Mons']],
    [['stats', '--breakdown']],
    [['stats', 'daily', '--order', 'sideways']],
    [['stats', 'hourly']],
    [['stats', 'daily', '--since', '2026-13-45']],
  ])('%j is a usage error: one line, exit 2', async (args) => {
    const run = await runCliAsync([...args, '--all'], { env: agent() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^pi-sessions: stats: /);
    expect(run.stderr).not.toMatch(/\n\s+at |node:internal|TypeError|RangeError/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toBe('');
  });

  it('--timezone moves the day boundaries: the same usage, other days', async () => {
    const env = agent();
    const days = async (zone: string): Promise<{ date: string; totalTokens: number }[]> =>
      (
        jsonOf(await runCliAsync(['stats', 'daily', '--all', '--json', '--timezone', zone], { env })) as {
          daily: { date: string; totalTokens: number }[];
        }
      ).daily;
    const utc = await days('UTC');
    const tokyo = await days('Asia/Tokyo');
    const sum = (rows: { totalTokens: number }[]): number => rows.reduce((s, r) => s + r.totalTokens, 0);
    expect(sum(tokyo)).toBe(sum(utc));
    expect(tokyo).not.toEqual(utc);
  });
});
