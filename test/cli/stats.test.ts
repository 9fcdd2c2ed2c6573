/** `pi-sessions stats --json` as a user runs it: the shape, the range options, usage errors, and a FIFO in the store. */
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionSync, statsOf, discoverSessionFiles, resolveLocations, type LoadedSession, type UsageTotals } from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';
import { expectCleanRun, jsonOf, runCliAsync } from '../hostile/run.js';

interface StatsJson {
  version: number;
  since: string | null;
  until: string | null;
  totals: UsageTotals;
  byDay: { key: string; usage: UsageTotals }[];
  bySession: { path: string; copiedEntries: number }[];
}

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
    const sessions = files.filter((f) => f !== fifo).map((f) => readSessionSync(f)).filter((r): r is LoadedSession => r.ok);
    expect(report).toMatchObject({ version: 1, since: null, until: null });
    expect(report.totals).toEqual(JSON.parse(JSON.stringify(statsOf(sessions).totals)));
    expect(report.bySession.some((s) => s.copiedEntries > 0)).toBe(true);
    const ranged = jsonOf(await runCliAsync(['stats', '--all', '--json', '--since', '2026-02-06', '--until', '2026-03-01'], { env })) as StatsJson;
    expect(ranged.since).toBe('2026-02-06T00:00:00.000Z');
    expect(ranged.byDay.map((r) => r.key).every((k) => k >= '2026-02-06' && k < '2026-03-01')).toBe(true);
    expect(ranged.totals.cost).toBeLessThan(report.totals.cost);
  });

  it('exits 2 without --json or with a bad date, with one line naming the usage', async () => {
    const dir = tempDir('pi-sessions-stats-');
    writeFileSync(join(dir, 'x.txt'), '');
    for (const args of [['stats'], ['stats', '--json', '--since', 'yesterday-ish'], ['stats', '--json', 'extra']]) {
      const run = await runCliAsync([...args, '--session-dir', dir]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^pi-sessions: [^\n]*usage: pi-sessions stats[^\n]*\n$/);
    }
  });
});
