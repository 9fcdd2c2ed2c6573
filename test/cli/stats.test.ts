/** `pi-sessions stats --json` as a user runs it: the shape, the range options, usage errors, and a FIFO in the store. */
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  discoverSessionFiles,
  type LoadedSession,
  readSessionSync,
  resolveLocations,
  statsOf,
  type UsageTotals,
} from '../../src/store/index.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { impossibleSessions, writeImpossibleSessions } from '../helpers/impossible-values.js';
import { expectCleanRun, jsonOf, runCliAsync } from '../hostile/run.js';

interface StatsJson {
  version: number;
  since: string | null;
  until: string | null;
  totals: UsageTotals;
  byDay: { key: string; usage: UsageTotals }[];
  bySession: { path: string; copiedEntries: number }[];
}

describe('pi-sessions stats (charts)', () => {
  const agent = (): Record<string, string> => {
    const dir = tempDir('pi-sessions-stats-');
    cpSync(join(FIXTURES, 'pi-written', 'sessions'), join(dir, 'sessions'), { recursive: true });
    return { PI_CODING_AGENT_DIR: dir, TZ: 'UTC' };
  };

  it('piped: 80 columns (or COLUMNS), bars and a sparkline, and no escape code without FORCE_COLOR', async () => {
    const env = agent();
    const run = await runCliAsync(['stats', '--all'], { env });
    expectCleanRun(run, 'stats');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('\u001b');
    const lines = run.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map(displayWidth))).toBe(80);
    expect(lines).toContain('Per day (93 days, peak $1.99 on 2026-02-05)');
    expect(lines.find((l) => l.startsWith('2026-02-05  '))).toMatch(/^2026-02-05 {2}█+ +\$1\.99 +1\.4M$/);
    expect(run.stdout).toMatch(/[▁▂▃▄▅▆▇]/);
    for (const heading of [
      'Per project',
      'Per model',
      'Per session',
      'Abandoned branches (17: $0.44, 293k, 20% of the total)',
    ])
      expect(lines).toContain(heading);
    const narrow = await runCliAsync(['stats', '--all', '--by', 'week'], { env: { ...env, COLUMNS: '44' } });
    const narrowLines = narrow.stdout.trimEnd().split('\n');
    expect(Math.max(...narrowLines.map(displayWidth))).toBeLessThanOrEqual(44);
    expect(narrowLines.some((l) => l.startsWith('Per week (14 weeks'))).toBe(true);
  });

  it('the latest 10 days, then "… and N more" naming --all-periods, which draws a bar for every day with usage', async () => {
    const dir = tempDir('pi-sessions-stats-');
    for (let i = 0; i < 15; i++) {
      const b = new SessionBuilder({ cwd: '/home/dev/p', startMs: Date.UTC(2026, 0, 1 + i, 9) });
      b.user(`day ${i}`);
      b.assistant('ok', { tokens: 100, cost: 0.01 });
      b.writeTo(join(dir, 'sessions', '--home-dev-p--', `${i}.jsonl`));
    }
    const env = { PI_CODING_AGENT_DIR: dir, TZ: 'UTC' };
    const dayBar = /^\d{4}-\d\d-\d\d {2}[█▏▎▍▌▋▊▉]/;
    const latest = await runCliAsync(['stats', '--all'], { env });
    const lines = latest.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => dayBar.test(l)).map((l) => l.slice(0, 10))).toEqual(
      Array.from({ length: 10 }, (_, i) => `2026-01-${String(15 - i).padStart(2, '0')}`),
    );
    expect(lines).toContain('  … and 5 more days from 2026-01-01 ($0.05, 500): see --all-periods');
    const all = await runCliAsync(['stats', '--all', '--all-periods'], { env });
    expectCleanRun(all, 'stats --all-periods');
    const allLines = all.stdout.trimEnd().split('\n');
    expect(allLines.filter((l) => dayBar.test(l))).toHaveLength(15);
    expect(all.stdout).not.toContain('more days');
  });

  it('FORCE_COLOR colours the bars; NO_COLOR and --no-color draw none', async () => {
    const env = agent();
    const forced = await runCliAsync(['stats', '--all'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(/\u001b\[36m█/);
    for (const [extra, args] of [
      [{ NO_COLOR: '1' }, []],
      [{ FORCE_COLOR: '1' }, ['--no-color']],
    ] as const) {
      const plain = await runCliAsync(['stats', '--all', ...args], { env: { ...env, ...extra } });
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain('█');
      expect(plain.stdout).not.toContain('\u001b');
    }
  });
});

describe('pi-sessions stats --json', () => {
  it('reports the store (a FIFO in it is skipped, not opened) with the same figures as the store module', async () => {
    const agent = tempDir('pi-sessions-stats-');
    cpSync(join(FIXTURES, 'pi-written', 'sessions'), join(agent, 'sessions'), { recursive: true });
    const fifo = join(agent, 'sessions', '--home-dev-code-webshop--', '2026-03-01T00-00-00-000Z_fifo.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const env = { PI_CODING_AGENT_DIR: agent, TZ: 'UTC' };
    const run = await runCliAsync(['stats', '--all', '--json'], { env, timeoutMs: 20_000 });
    expectCleanRun(run, 'stats');
    expect(run.code).toBe(0);
    const report = jsonOf(run) as StatsJson;
    const { files } = discoverSessionFiles(resolveLocations({ env: { PI_CODING_AGENT_DIR: agent }, cwd: '/' }), 'all');
    const sessions = files
      .filter((f) => f !== fifo)
      .map((f) => readSessionSync(f))
      .filter((r): r is LoadedSession => r.ok);
    expect(report).toMatchObject({ version: 1, since: null, until: null, excluded: [] });
    expect(report.totals).toEqual(JSON.parse(JSON.stringify(statsOf(sessions).totals)));
    expect(report.bySession.some((s) => s.copiedEntries > 0)).toBe(true);
    const ranged = jsonOf(
      await runCliAsync(['stats', '--all', '--json', '--since', '2026-02-06', '--until', '2026-03-01'], { env }),
    ) as StatsJson;
    expect(ranged.since).toBe('2026-02-06T00:00:00.000Z');
    expect(ranged.byDay.map((r) => r.key).every((k) => k >= '2026-02-06' && k < '2026-03-01')).toBe(true);
    expect(ranged.totals.cost).toBeLessThan(report.totals.cost);
  });

  it('exits 2 with a bad date, period or argument, with one line naming the usage', async () => {
    const dir = tempDir('pi-sessions-stats-');
    writeFileSync(join(dir, 'x.txt'), '');
    for (const args of [
      ['stats', '--json', '--since', 'yesterday-ish'],
      ['stats', '--json', 'extra'],
      ['stats', '--by', 'year'],
      ['stats', '--by'],
    ]) {
      const run = await runCliAsync([...args, '--session-dir', dir]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^pi-sessions: [^\n]*usage: pi-sessions stats[^\n]*\n$/);
    }
  });
});

describe('pi-sessions stats and check with sessions whose values cannot be real', () => {
  it('the other sessions’ figures are those of the store without them; what was left out is listed, and check reports each', async () => {
    const clean = tempDir('pi-sessions-stats-');
    cpSync(join(FIXTURES, 'pi-written', 'sessions'), join(clean, 'sessions'), { recursive: true });
    const poisoned = tempDir('pi-sessions-stats-');
    cpSync(join(FIXTURES, 'pi-written', 'sessions'), join(poisoned, 'sessions'), { recursive: true });
    const bad = writeImpossibleSessions(join(poisoned, 'sessions'), true);
    const run = async (agent: string, args: string[]) =>
      runCliAsync(args, { env: { PI_CODING_AGENT_DIR: agent, TZ: 'UTC' }, timeoutMs: 20_000 });
    const before = jsonOf(await run(clean, ['stats', '--all', '--json'])) as StatsJson & { excluded: unknown[] };
    const afterRun = await run(poisoned, ['stats', '--all', '--json']);
    expectCleanRun(afterRun, 'stats');
    const after = jsonOf(afterRun) as StatsJson & {
      excluded: { path: string; line: number; entryId: string; field: string; value: unknown; why: string }[];
    };
    const { since: _since, until: _until, excluded: _excluded, ...figures } = after;
    expect(JSON.stringify(figures)).not.toMatch(/null/);
    expect(before.excluded).toEqual([]);
    // Each bad session adds its one real message (100 tokens, $0.25) and nothing else.
    expect(after.totals.totalTokens).toBe(before.totals.totalTokens + 400);
    expect(after.totals.cost).toBeCloseTo(before.totals.cost + 1, 9);
    const expected = impossibleSessions().reduce((n, s) => n + s.excluded, 0);
    expect(after.excluded).toHaveLength(expected);
    expect(new Set(after.excluded.map((v) => v.path))).toEqual(new Set(bad));
    expect(after.excluded.find((v) => v.path === bad[0])).toEqual({
      path: bad[0],
      line: 3,
      entryId: '00000002',
      field: 'message.usage.input',
      value: 1e308,
      why: 'over 100M tokens in one usage',
    });
    for (const r of after.byDay) expect(r.key).toMatch(/^20\d\d-\d\d-\d\d$/);
    for (const r of (after as unknown as { byWeek: { key: string }[] }).byWeek) expect(r.key).toMatch(/^20\d\d-W\d\d$/);

    const text = await run(poisoned, ['stats', '--all']);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines).toContain(`${expected} values left out: they cannot be real (\`pi-sessions check\` lists each)`);
    expect(lines).toContain('Per day (93 days, peak $1.99 on 2026-02-05)');
    expect(text.stdout.replace(/"[^"]*"/g, '')).not.toMatch(/\?|NaN|Infinity/);

    const check = await run(poisoned, ['check', '--all', '--json']);
    expect(check.code).toBe(1);
    const audit = jsonOf(check) as { files: { path: string; problems: { line: number; kind: string }[] }[] };
    const reported = audit.files.flatMap((f) =>
      f.problems.filter((p) => p.kind === 'impossible-value').map((p) => `${f.path}:${p.line}`),
    );
    expect(reported.sort()).toEqual(after.excluded.map((v) => `${v.path}:${v.line}`).sort());
  });
});
