/**
 * Values that cannot be real are left out of the aggregates, listed, and reported by `check`;
 * one bad session never changes another session's figures. The good store is the pi-written
 * corpus; the bad sessions (test/helpers/impossible-values.ts) share a project and a model with it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportLines } from '../../src/stats/report-lines.js';
import {
  EARLIEST_SESSION_MS,
  FUTURE_SLACK_MS,
  implausibleUsageValues,
  impossibleTimestamp,
  latestPlausibleMs,
} from '../../src/store/implausible.js';
import {
  checkFile,
  discoverSessionFiles,
  type LoadedSession,
  MAX_COST_PER_USAGE,
  MAX_TOKENS_PER_USAGE,
  readSessionSync,
  resolveLocations,
  type StatsReport,
  statsOf,
  summarizeFileSync,
  type UsageTotals,
} from '../../src/store/index.js';
import { readSessionFromBuffer } from '../../src/store/read/read.js';
import { FIXTURES } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';
import { impossibleSessions, POISON_CWD } from '../helpers/impossible-values.js';

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);
/** How many values the bad sessions hold that cannot be real. */
const TOTAL = impossibleSessions().reduce((n, s) => n + s.excluded, 0);

function corpus(): LoadedSession[] {
  const { files } = discoverSessionFiles(
    resolveLocations({ env: { PI_CODING_AGENT_DIR: join(FIXTURES, 'pi-written') }, cwd: '/' }),
    'all',
  );
  return files.map((path) => readSessionSync(path)).filter((r): r is LoadedSession => r.ok);
}

function bad(withGood = false): LoadedSession[] {
  return impossibleSessions(withGood).map(({ name, text }) => {
    const read = readSessionFromBuffer(`/bad/${name}`, Buffer.from(text));
    if (!read.ok) throw new Error(read.message);
    return read;
  });
}

const aggregates = (r: StatsReport) => ({
  totals: r.totals,
  byDay: r.byDay,
  byWeek: r.byWeek,
  byMonth: r.byMonth,
  byProject: r.byProject,
  byModel: r.byModel,
});

const finite = (u: UsageTotals): boolean => Object.values(u).every((n) => Number.isFinite(n) && n >= 0);

describe('one session with impossible values cannot poison the aggregates', () => {
  it('every figure of the good store is unchanged, and each bad value is listed', () => {
    const good = corpus();
    const poisoned = bad();
    const clean = statsOf(good, {}, '', NOW);
    // The bad sessions first and last: where they come in the discovery order does not matter.
    const report = statsOf([poisoned[0]!, ...good, ...poisoned.slice(1)], {}, '', NOW);
    expect(aggregates(report)).toEqual(aggregates(clean));
    expect(clean.byProject.some((r) => r.key === POISON_CWD)).toBe(true);
    for (const row of clean.bySession) expect(report.bySession.find((s) => s.path === row.path)).toEqual(row);
    for (const session of poisoned) {
      const row = report.bySession.find((s) => s.path === session.path)!;
      expect(row.usage, session.path).toEqual({ ...row.usage, totalTokens: 0, cost: 0 });
      expect(row.branches.every((b) => b.usage.cost === 0 && b.usage.totalTokens === 0)).toBe(true);
    }
    expect(JSON.stringify(aggregates(report))).not.toContain('null');
    expect(clean.excluded).toEqual([]);
    expect(report.excluded).toHaveLength(TOTAL);
    for (const value of report.excluded) {
      const session = poisoned.find((s) => s.path === value.path)!;
      // The line named holds the entry named.
      const line = impossibleSessions()
        .find((s) => value.path.endsWith(s.name))!
        .text.split('\n')[value.line - 1]!;
      expect(line, JSON.stringify(value)).toContain(`"id":"${value.entryId}"`);
      expect(session).toBeDefined();
      expect(value.why).not.toBe('');
      expect(value.field).toMatch(
        /^(timestamp|(message\.)?usage\.(input|output|cacheRead|cacheWrite|totalTokens|cost\.total))$/,
      );
    }
    const whys = new Set(report.excluded.map((v) => v.why));
    for (const why of [
      'not a finite number',
      'negative',
      'a string, not a number',
      'null, not a number',
      'an object, not a number',
      'not a date',
      'before 2020, when no pi session existed',
    ])
      expect(whys).toContain(why);
    expect([...whys].some((w) => w.startsWith('over 100M tokens'))).toBe(true);
    expect([...whys].some((w) => w.startsWith('over $10,000'))).toBe(true);
    expect(report.excluded.filter((v) => v.field === 'timestamp').map((v) => v.value)).toEqual([
      '"+010000-01-01T00:00:00.000Z"',
      '"-271821-04-20T00:00:00.000Z"',
      '"1999-12-31T23:59:59.000Z"',
      '"last Tuesday"',
      8.64e15,
    ]);
  });

  it('a real message in a bad session still counts, and only it', () => {
    const good = corpus();
    const clean = statsOf(good, {}, '', NOW);
    const mixed = bad(true);
    const report = statsOf([...good, ...mixed], {}, '', NOW);
    for (const session of mixed) {
      const row = report.bySession.find((s) => s.path === session.path)!;
      expect(row.usage, session.path).toEqual({
        input: 60,
        output: 40,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 100,
        cost: 0.25,
      });
    }
    expect(report.totals.totalTokens).toBe(clean.totals.totalTokens + 400);
    expect(report.totals.cost).toBeCloseTo(clean.totals.cost + 1, 9);
    expect(finite(report.totals)).toBe(true);
    // The days, weeks and months stay real dates, and the timeline as long as the good store's.
    for (const r of report.byDay) expect(r.key).toMatch(/^20\d\d-\d\d-\d\d$/);
    for (const r of report.byWeek) expect(r.key).toMatch(/^20\d\d-W\d\d$/);
    for (const r of report.byMonth) expect(r.key).toMatch(/^20\d\d-\d\d$/);
    for (const rows of [report.byDay, report.byWeek, report.byMonth, report.byProject, report.byModel])
      expect(rows.every((r) => finite(r.usage))).toBe(true);
  });

  it('the charts never print ?, NaN or Infinity, and say what was left out and where', () => {
    const report = statsOf([...corpus(), ...bad(true)], {}, '', NOW);
    const clean = statsOf(corpus(), {}, '', NOW);
    for (const by of ['day', 'week', 'month'] as const)
      for (const columns of [40, 80, 160]) {
        const lines = reportLines(report, { columns, by }).map((l) => l.map((s) => s.text).join(''));
        const text = lines.join('\n');
        // Only a string quoted from the file ("NaN") may spell one; a question a prompt (a title) asks ends a word.
        expect(text.replace(/"[^"]*"/g, '')).not.toMatch(/(?<!\w)\?|NaN|Infinity/);
        const period = (r: StatsReport) =>
          reportLines(r, { columns, by })
            .map((l) => l.map((s) => s.text).join(''))
            .find((l) => l.startsWith(`Per ${by} (`));
        expect(period(report)).toBe(period(clean));
        expect(lines.some((l) => l.startsWith(`${TOTAL} values left out`))).toBe(true);
        if (columns >= 80)
          expect(lines).toContain(`${TOTAL} values left out: they cannot be real (\`pi-sessions check\` lists each)`);
        // Five entries shown (each with how many more values it holds), then the rest counted.
        expect(lines.filter((l) => /^ {2}.*\.jsonl:\d+ {2}/.test(l))).toHaveLength(5);
        expect(lines).toContain('  … and 12 more on 7 other lines');
      }
    const wide = reportLines(report, { columns: 160, by: 'day' }).map((l) => l.map((s) => s.text).join(''));
    expect(wide).toContain(
      '  /bad/2026-01-20T09-00-00-000Z_019b0000-0000-7000-8000-00000000ba01.jsonl:3  message.usage.input 1e+308 and 5 more: over 100M tokens in one usage',
    );
    // The 1e400 line: Infinity is never printed, its why says what it is.
    expect(wide).toContain(
      '  /bad/2026-01-20T09-00-00-000Z_019b0000-0000-7000-8000-00000000ba01.jsonl:6  message.usage.input and 2 more: not a finite number',
    );
  });

  it('with a range, an impossible date is still listed; a bad figure outside the range is not', () => {
    const report = statsOf(bad(), { sinceMs: Date.UTC(2026, 5, 1) }, '', NOW);
    expect(report.excluded.map((v) => v.field)).toEqual(Array(5).fill('timestamp'));
    expect(report.totals.totalTokens).toBe(0);
    expect(statsOf(bad(), { untilMs: Date.UTC(2026, 5, 1) }, '', NOW).excluded).toHaveLength(TOTAL);
  });

  it('the listing and the tree add up a bad file to finite figures too (addUsage)', () => {
    const dir = tempDir('pi-sessions-impossible-');
    for (const { name, text } of impossibleSessions(true)) {
      const path = join(dir, name);
      writeFileSync(path, text);
      const info = summarizeFileSync(path);
      if (!('usage' in info)) throw new Error('not listed');
      expect(info.usage.totalTokens, name).toBe(name.includes('ba04') ? 600 : 100);
      expect(finite(info.usage)).toBe(true);
    }
  });
});

describe('check reports each impossible value with its file and line', () => {
  it('as many problems as stats leaves out, on the same lines, with what pi does and what to do', () => {
    const dir = tempDir('pi-sessions-impossible-');
    const sessions = impossibleSessions();
    for (const { name, text, excluded } of sessions) {
      const path = join(dir, name);
      writeFileSync(path, text);
      const check = checkFile(path, { exists: () => true, nowMs: NOW });
      const found = check.problems.filter((p) => p.kind === 'impossible-value');
      expect(found, name).toHaveLength(excluded);
      expect(check.problems.filter((p) => p.kind !== 'impossible-value')).toEqual([]);
      const read = readSessionSync(path);
      if (!read.ok) throw new Error(read.message);
      const stats = statsOf([read], {}, '', NOW).excluded;
      expect(found.map((p) => p.line)).toEqual(stats.map((v) => v.line));
      for (const p of found) {
        expect(p).toMatchObject({ path, severity: 'warning' });
        expect(p.pi).toContain('/session totals');
        expect(p.fix).toContain('stats leaves the value out');
        expect(p.message).toMatch(/^(timestamp|(message\.)?usage\.\S+) is .+: .+; left out of pi-sessions stats$/);
      }
    }
    expect(readFileSync(join(dir, sessions[0]!.name), 'utf8')).toContain('1e400');
  });
});

describe('the bounds (implausible.ts)', () => {
  it('figures up to the bound count; past it, negative, non-finite or not numbers do not', () => {
    const ok = { input: MAX_TOKENS_PER_USAGE, output: 0, totalTokens: 1, cost: { total: MAX_COST_PER_USAGE } };
    expect(implausibleUsageValues(ok, 'usage')).toEqual([]);
    // Missing figures are older files, not damage.
    expect(implausibleUsageValues({}, 'usage')).toEqual([]);
    expect(implausibleUsageValues({ cost: {} }, 'usage')).toEqual([]);
    expect(
      implausibleUsageValues(
        {
          input: MAX_TOKENS_PER_USAGE + 1,
          output: -0.5,
          cacheRead: Number.NaN,
          cost: { total: MAX_COST_PER_USAGE + 0.01 },
        },
        'message.usage',
      ).map((v) => [v.field, v.value]),
    ).toEqual([
      ['message.usage.input', MAX_TOKENS_PER_USAGE + 1],
      ['message.usage.output', -0.5],
      ['message.usage.cacheRead', 'NaN'],
      ['message.usage.cost.total', MAX_COST_PER_USAGE + 0.01],
    ]);
    // A long string is shown cut short.
    const [long] = implausibleUsageValues({ input: 'x'.repeat(10_000) }, 'usage');
    expect(String(long!.value).length).toBeLessThanOrEqual(80);
  });

  it('dates from 2020 to a day past now (or past the file’s mtime, when later) are possible', () => {
    const latest = latestPlausibleMs(NOW, 0);
    expect(latest).toBe(NOW + FUTURE_SLACK_MS);
    expect(latestPlausibleMs(NOW, NOW + 5 * FUTURE_SLACK_MS)).toBe(NOW + 6 * FUTURE_SLACK_MS);
    expect(impossibleTimestamp(new Date(EARLIEST_SESSION_MS).toISOString(), latest)).toBeUndefined();
    expect(impossibleTimestamp(new Date(EARLIEST_SESSION_MS - 1).toISOString(), latest)?.why).toMatch(/before 2020/);
    expect(impossibleTimestamp(new Date(NOW + FUTURE_SLACK_MS - 1000).toISOString(), latest)).toBeUndefined();
    expect(impossibleTimestamp(new Date(NOW + FUTURE_SLACK_MS + 1000).toISOString(), latest)?.why).toMatch(
      /more than a day after/,
    );
    expect(impossibleTimestamp(NOW, latest)).toBeUndefined();
    expect(impossibleTimestamp(undefined, latest)?.why).toBe('missing');
    expect(impossibleTimestamp({}, latest)?.why).toBe('not a date');
  });
});
