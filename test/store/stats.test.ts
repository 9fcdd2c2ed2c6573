/**
 * Usage stats on the pi-written corpus. The totals are checked against the usage stored in the
 * files, added up another way: every file's usage (the listing's summariser, like pi's /session),
 * minus, for each fork, the entries its parent file (found through `parentSession`) also holds.
 * The statistics find copies by id and timestamp alone, so the two ways must agree.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addUsage,
  discoverSessionFiles,
  emptyUsage,
  type LoadedSession,
  readSessionSync,
  resolveLocations,
  type SessionInfo,
  type StatsRow,
  statsOf,
  statsOfFiles,
  statsOfFilesAsync,
  summarizeFileSync,
  type UsageTotals,
  usageOf,
} from '../../src/store/index.js';
import { readSessionFromBuffer } from '../../src/store/read/read.js';
import { isoWeek, localDay } from '../../src/store/stats/stats.js';
import { FIXTURES, sessionsRoot } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

const WRITER_ROOT = '/home/dev/.pi/agent/sessions';

function corpus(): LoadedSession[] {
  const { files } = discoverSessionFiles(
    resolveLocations({ env: { PI_CODING_AGENT_DIR: join(FIXTURES, 'pi-written') }, cwd: '/' }),
    'all',
  );
  return files.map((path) => readSessionSync(path)).filter((r): r is LoadedSession => r.ok);
}

const close = (a: UsageTotals, b: UsageTotals): void => {
  expect({ ...a, cost: Math.round(a.cost * 1e9) }).toEqual({ ...b, cost: Math.round(b.cost * 1e9) });
};
const sum = (rows: { usage: UsageTotals }[]): UsageTotals => {
  const total = emptyUsage();
  for (const row of rows) for (const key of Object.keys(total) as (keyof UsageTotals)[]) total[key] += row.usage[key];
  return total;
};

describe('stats on the pi-written corpus', () => {
  it('totals equal the stored usage, each fork\u2019s copies counted once (in the parent)', () => {
    const sessions = corpus();
    const report = statsOf(sessions);
    const expected = emptyUsage();
    let forksWithCopies = 0;
    for (const session of sessions) {
      const info = summarizeFileSync(session.path) as SessionInfo;
      for (const key of Object.keys(expected) as (keyof UsageTotals)[]) expected[key] += info.usage[key];
      const parent = session.header.parentSession;
      if (typeof parent !== 'string') continue;
      const parentFile = readSessionSync(join(sessionsRoot('pi-written'), parent.slice(WRITER_ROOT.length + 1)));
      expect(parentFile.ok, parent).toBe(true);
      if (!parentFile.ok) continue;
      const inParent = new Set(parentFile.entries.map((e) => `${e.id} ${String(e.timestamp)}`));
      const copied = emptyUsage();
      let copies = 0;
      for (const entry of session.entries) {
        if (usageOf(entry) === undefined || !inParent.has(`${entry.id} ${String(entry.timestamp)}`)) continue;
        addUsage(copied, usageOf(entry));
        copies++;
      }
      if (copies > 0) forksWithCopies++;
      for (const key of Object.keys(expected) as (keyof UsageTotals)[]) expected[key] -= copied[key];
      const row = report.bySession.find((s) => s.path === session.path)!;
      expect(row.copiedEntries, session.path).toBe(copies);
      close(row.usage, {
        ...info.usage,
        ...Object.fromEntries(
          (Object.keys(copied) as (keyof UsageTotals)[]).map((k) => [k, info.usage[k] - copied[k]]),
        ),
      });
    }
    expect(forksWithCopies).toBeGreaterThanOrEqual(2);
    close(report.totals, expected);
    expect(report.totals.cost).toBeGreaterThan(0);
    for (const rows of [
      report.byDay,
      report.byWeek,
      report.byMonth,
      report.byProject,
      report.byModel,
      report.bySession,
    ] as { usage: UsageTotals }[][])
      close(sum(rows), report.totals);
    // Every branch segment lies inside its session, and the active one is marked once.
    for (const s of report.bySession) {
      expect(s.branches.filter((b) => b.active).length, s.path).toBeLessThanOrEqual(1);
      expect(sum(s.branches).cost).toBeLessThanOrEqual(s.usage.cost + 1e-9);
    }
  });

  it('--since/--until keep the usage spent in the range, and the parts still add up', () => {
    const sessions = corpus();
    const all = statsOf(sessions);
    const since = new Date(2026, 1, 6).getTime();
    const late = statsOf(sessions, { sinceMs: since });
    const early = statsOf(sessions, { untilMs: since });
    expect(late.byDay.every((r: StatsRow) => r.key >= '2026-02-06')).toBe(true);
    expect(early.byDay.every((r: StatsRow) => r.key < '2026-02-06')).toBe(true);
    close(sum([{ usage: late.totals }, { usage: early.totals }]), all.totals);
    expect(late.totals.cost).toBeGreaterThan(0);
  });

  it('a branch\u2019s cost is its own segment: an abandoned branch and the active one', () => {
    const b = new SessionBuilder();
    const root = b.user('question');
    b.assistant('first answer', { tokens: 10, cost: 1 });
    b.leaf = root;
    b.assistant('second answer', { tokens: 20, cost: 2 });
    const session = readSessionFromBuffer('/s/x.jsonl', Buffer.from(b.text()));
    if (!session.ok) throw new Error(session.message);
    const [stats] = statsOf([session]).bySession;
    expect(stats!.usage.cost).toBe(3);
    expect(stats!.branches.map((x) => [x.active, x.entries, x.usage.cost])).toEqual([
      [false, 1, 1],
      [true, 1, 2],
    ]);
    // Titled by the first prompt until named; a branch by its own first prompt ('' when it has none).
    expect(stats!.title).toBe('question');
    expect(stats!.branches.map((x) => x.prompt)).toEqual(['', '']);
    b.user('try again');
    b.assistant('third answer', { tokens: 5, cost: 0.5 });
    b.entry('session_info', { name: 'Named  ' });
    const named = readSessionFromBuffer('/s/x.jsonl', Buffer.from(b.text()));
    if (!named.ok) throw new Error(named.message);
    const [renamed] = statsOf([named]).bySession;
    expect(renamed!.title).toBe('Named');
    expect(renamed!.branches.map((x) => [x.active, x.prompt])).toEqual([
      [false, ''],
      [true, 'try again'],
    ]);
  });

  it('read asynchronously, the same report; an aborted reading gives none', async () => {
    const paths = corpus().map((s) => s.path);
    expect(await statsOfFilesAsync(paths, { searched: '/x' })).toEqual(statsOfFiles(paths, {}, '/x'));
    const controller = new AbortController();
    controller.abort();
    expect(await statsOfFilesAsync(paths, { signal: controller.signal })).toBeUndefined();
  });

  it('a listed file gone since the list was drawn is named in the report, the others counted as before', async () => {
    const paths = corpus().map((s) => s.path);
    const gone = join(tempDir(), 'deleted-since.jsonl');
    const report = await statsOfFilesAsync([gone, ...paths], { searched: '/x' });
    expect(report?.gone).toEqual([gone]);
    expect({ ...report, gone: undefined }).toEqual({ ...statsOfFiles(paths, {}, '/x'), gone: undefined });
    expect((await statsOfFilesAsync(paths, { searched: '/x' }))?.gone).toBeUndefined();
  });

  it('an entry written twice in one file (pi before 0.55.2) counts once', () => {
    const b = new SessionBuilder();
    b.user('question');
    b.assistant('answer', { tokens: 10, cost: 1 });
    b.lines.push(b.lines[b.lines.length - 1]!);
    b.assistant('more', { tokens: 5, cost: 0.5 });
    const session = readSessionFromBuffer('/s/twice.jsonl', Buffer.from(b.text()));
    if (!session.ok) throw new Error(session.message);
    const report = statsOf([session]);
    expect(report.totals).toMatchObject({ totalTokens: 15, cost: 1.5 });
    expect(report.bySession[0]).toMatchObject({ repeatedEntries: 1, copiedEntries: 0 });
    expect(report.bySession[0]!.branches.reduce((sum, x) => sum + x.usage.cost, 0)).toBe(1.5);
  });

  it('weeks are ISO weeks and days local dates', () => {
    expect(isoWeek(new Date(2026, 0, 1).getTime())).toBe('2026-W01');
    expect(isoWeek(new Date(2027, 0, 1).getTime())).toBe('2026-W53');
    expect(isoWeek(new Date(2024, 11, 30).getTime())).toBe('2025-W01');
    expect(localDay(new Date(2026, 1, 5, 23, 59).getTime())).toBe('2026-02-05');
  });

  it('a `usage` entry counts for the model it names, in the model rows, a day\u2019s models and the session\u2019s', () => {
    const b = new SessionBuilder();
    b.user('question');
    b.assistant('answer', { tokens: 10, cost: 1 });
    const usage = (total: number) => ({
      input: total,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: total,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: total / 100 },
    });
    b.entry('usage', { kind: 'cache_warm', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(40) });
    b.entry('usage', { kind: 'cache_warm', provider: 'openai', model: 'gpt-5', usage: usage(30) });
    b.entry('usage', { kind: 'odd', usage: usage(20) });
    const session = readSessionFromBuffer('/s/usage.jsonl', Buffer.from(b.text()));
    if (!session.ok) throw new Error(session.message);
    const report = statsOf([session]);
    const models = (rows: StatsRow[] | undefined) => rows?.map((r) => [r.key, r.usage.totalTokens]);
    const expected = [
      ['anthropic/claude-sonnet-4-5', 50],
      ['openai/gpt-5', 30],
      ['(usage)', 20],
    ];
    expect(models(report.byModel)).toEqual(expected);
    expect(models(report.byDay[0]!.models)).toEqual(expected);
    expect(models(report.byWeek[0]!.models)).toEqual(expected);
    expect(models(report.byMonth[0]!.models)).toEqual(expected);
    expect(models(report.bySession[0]!.models)).toEqual(expected);
    expect(report.bySession[0]!.lastActivity).toBe(new Date(Date.UTC(2026, 0, 5, 9, 0, 5)).toISOString());
  });

  it('days, weeks and months in the time zone asked for', () => {
    // 20:00 UTC on Sunday 2026-01-04 is Monday morning in Tokyo: another day and another ISO week.
    const b = new SessionBuilder({ startMs: Date.UTC(2026, 0, 4, 19, 59, 58) });
    b.user('question');
    b.assistant('answer', { tokens: 10, cost: 1 });
    const session = readSessionFromBuffer('/s/zone.jsonl', Buffer.from(b.text()));
    if (!session.ok) throw new Error(session.message);
    const keys = (timeZone: string) => {
      const r = statsOf([session], { timeZone });
      return [r.byDay[0]!.key, r.byWeek[0]!.key, r.byMonth[0]!.key];
    };
    expect(keys('UTC')).toEqual(['2026-01-04', '2026-W01', '2026-01']);
    expect(keys('Asia/Tokyo')).toEqual(['2026-01-05', '2026-W02', '2026-01']);
    expect(keys('America/Los_Angeles')).toEqual(['2026-01-04', '2026-W01', '2026-01']);
  });
});
