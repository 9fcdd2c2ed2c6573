/**
 * `pi-sessions stats --json` and the tables' `stats daily|weekly|monthly|session --json` against
 * `@ccusage/pi` (what pi users run for this today) on the same stores: a generated one (forks, legacy and broken files) and the pi-written corpus. ccusage is
 * never a dependency of the project: the test installs the pinned version from the npm registry
 * into the test cache outside the repository (test/helpers/outside-tool.ts), so every run compares
 * with the same ccusage, and is skipped, saying why, only when the registry cannot be reached.
 *
 * Where the two tools' rules agree the figures must be equal, to the token and to 1e-9 dollar:
 * - ccusage counts assistant messages only; we also count the usage of tool results, compactions,
 *   branch summaries and `usage` entries (as pi's /session does). The expected figures are ours
 *   with that usage taken out.
 * - a usage a fork copied counts once in both tools, so every day agrees; but ccusage gives it to
 *   whichever file its search returns first, we to the session created first. Sessions that share
 *   no usage with another file must agree one by one; a parent and its forks agree as a family.
 * - ccusage has no weekly report: its daily rows, added up per ISO week, are what ours must equal.
 * - the rows name things differently (test/helpers/ccusage-rows.ts maps them): models `[pi] model`
 *   against our `provider/model`, a session by its file name and folder against its header's id
 *   and cwd; ccusage prints no `totalTokens` (its table sums the four parts).
 */
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIST_FIELD, rowJson, type TableReport, tableRows } from '../../src/stats/usage-rows.js';
import {
  discoverSessionFiles,
  type LoadedSession,
  readSessionSync,
  resolveLocations,
  roleOf,
  type SessionEntry,
  statsOf,
  type UsageTotals,
  usageOf,
} from '../../src/store/index.js';
import { writeStore } from '../../src/tools/generate/store.js';
import {
  comparable,
  countedByCcusage,
  groupRows,
  isoWeekOfDate,
  leftOutByCcusage,
  modelNames,
  plain,
  renameModels,
  subtractRows,
  type UsageRow,
  usageRow,
} from '../helpers/ccusage-rows.js';
import { FIXTURES } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';
import { type Found, installOutsideTool, type OutsideTool } from '../helpers/outside-tool.js';
import { jsonOf, runCliAsync } from '../hostile/run.js';

const CCUSAGE_PI: OutsideTool = {
  spec: '@ccusage/pi@18.0.11',
  folder: 'ccusage-pi',
  bin: ['.bin', 'ccusage-pi'],
  versionArgs: ['--version'],
  versionPrefix: '18.0.11',
};
let ccusagePi: Found = { skip: 'not installed yet' };
beforeAll(() => {
  ccusagePi = installOutsideTool(CCUSAGE_PI);
}, 320_000);

/** ccusage's program; skips the test, with the reason, when it cannot be installed. */
function ccusageOrSkip(ctx: { skip(condition: boolean, note?: string): void }): string {
  if ('skip' in ccusagePi) {
    ctx.skip(true, ccusagePi.skip);
    throw new Error('unreachable');
  }
  return ccusagePi.path;
}

interface CcRow {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
}

function ccusageJson(bin: string, args: string[], sessionsRoot: string): Record<string, unknown> {
  const run = spawnSync(bin, args, {
    cwd: tempDir('pi-sessions-ccusage-'),
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: tempDir('pi-sessions-ccusage-home-'),
      TZ: 'UTC',
      PI_AGENT_DIR: sessionsRoot,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

function ccusage(
  bin: string,
  command: 'daily' | 'session',
  sessionsRoot: string,
): (CcRow & { date?: string; sessionId?: string })[] {
  const json = ccusageJson(bin, [command, '--json'], sessionsRoot) as { daily?: CcRow[]; sessions?: CcRow[] };
  return (command === 'daily' ? json.daily : json.sessions) ?? [];
}

/** The session without the usage ccusage does not count (anything but an assistant message's). */
function assistantUsageOnly(session: LoadedSession): LoadedSession {
  const strip = (entry: SessionEntry): SessionEntry => {
    if (usageOf(entry) === undefined || roleOf(entry) === 'assistant') return entry;
    if (entry.type === 'message') return { ...entry, message: { ...(entry['message'] as object), usage: undefined } };
    return { ...entry, usage: undefined };
  };
  return { ...session, entries: session.entries.map(strip) };
}

const asCc = (u: UsageTotals): CcRow => ({
  inputTokens: u.input,
  outputTokens: u.output,
  cacheCreationTokens: u.cacheWrite,
  cacheReadTokens: u.cacheRead,
  totalCost: Math.round(u.cost * 1e9),
});
const rounded = (r: CcRow): CcRow => ({
  inputTokens: r.inputTokens,
  outputTokens: r.outputTokens,
  cacheCreationTokens: r.cacheCreationTokens,
  cacheReadTokens: r.cacheReadTokens,
  totalCost: Math.round(r.totalCost * 1e9),
});
/** ccusage's session id: the file name after its first `_`. */
const fileSessionId = (path: string): string => {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.jsonl$/, '');
  return name.slice(name.indexOf('_') + 1);
};

/** Files that hold the same usage (a parent and its forks), each as one family id. */
function families(sessions: readonly LoadedSession[]): Map<string, string> {
  const parent = new Map<string, string>(sessions.map((s) => [s.path, s.path]));
  const find = (p: string): string => (parent.get(p) === p ? p : find(parent.get(p)!));
  const holder = new Map<string, string>();
  for (const s of sessions) {
    for (const e of s.entries) {
      if (usageOf(e) === undefined) continue;
      const key = `${e.id} ${String(e.timestamp)}`;
      const other = holder.get(key);
      if (other === undefined) holder.set(key, s.path);
      else parent.set(find(s.path), find(other));
    }
  }
  return new Map(sessions.map((s) => [s.path, find(s.path)]));
}

async function compare(bin: string, agentDir: string): Promise<{ days: number; sessions: number; families: number }> {
  const sessionsRoot = join(agentDir, 'sessions');
  const ours = jsonOf(
    await runCliAsync(['stats', '--all', '--json'], {
      env: { PI_CODING_AGENT_DIR: agentDir, TZ: 'UTC' },
      timeoutMs: 60_000,
    }),
  ) as { totals: UsageTotals };
  const { files } = discoverSessionFiles(resolveLocations({ env: { PI_CODING_AGENT_DIR: agentDir }, cwd: '/' }), 'all');
  const sessions = files.map((f) => readSessionSync(f)).filter((r): r is LoadedSession => r.ok);
  // The CLI's figures are the store module's (test/cli/stats.test.ts); here, what ccusage should print.
  expect(JSON.parse(JSON.stringify(statsOf(sessions).totals))).toEqual(ours.totals);
  const expected = statsOf(sessions.map(assistantUsageOnly));

  const daily = ccusage(bin, 'daily', sessionsRoot);
  expect(Object.fromEntries(daily.map((d) => [d.date, rounded(d)]))).toEqual(
    Object.fromEntries(expected.byDay.map((d) => [d.key, asCc(d.usage)])),
  );

  const familyOf = families(sessions);
  const cc = new Map(ccusage(bin, 'session', sessionsRoot).map((s) => [s.sessionId, s]));
  const zero: CcRow = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalCost: 0 };
  const byFamily = new Map<string, { ours: CcRow; theirs: CcRow; members: number }>();
  const add = (a: CcRow, b: CcRow): CcRow => ({
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationTokens: a.cacheCreationTokens + b.cacheCreationTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    totalCost: a.totalCost + b.totalCost,
  });
  let alone = 0;
  for (const s of expected.bySession) {
    const theirs = rounded(cc.get(fileSessionId(s.path)) ?? zero);
    cc.delete(fileSessionId(s.path));
    const family = familyOf.get(s.path)!;
    const group = byFamily.get(family) ?? { ours: zero, theirs: zero, members: 0 };
    byFamily.set(family, {
      ours: add(group.ours, asCc(s.usage)),
      theirs: add(group.theirs, theirs),
      members: group.members + 1,
    });
  }
  for (const [family, group] of byFamily) {
    if (group.members === 1) alone++;
    // Costs were rounded per session; a family's sum may be off by a unit per member.
    expect({ ...group.ours, totalCost: 0 }, family).toEqual({ ...group.theirs, totalCost: 0 });
    expect(Math.abs(group.ours.totalCost - group.theirs.totalCost), family).toBeLessThanOrEqual(group.members);
  }
  // ccusage reads every *.jsonl; none of its sessions may be one pi does not list yet carries usage.
  expect([...cc.values()].filter((s) => s.totalCost > 0 || s.inputTokens > 0)).toEqual([]);
  return { days: daily.length, sessions: alone, families: [...byFamily.values()].filter((g) => g.members > 1).length };
}

/**
 * The table forms, row by row and field by field, in a zone that is neither side's TZ (a day cut in
 * the wrong zone shows). Ours are the CLI's JSON rows less the usage ccusage leaves out (the same
 * report over only that usage); ccusage has no weekly report, so its days make the weeks.
 */
const ZONE = 'Asia/Kolkata';
type Json = Record<string, unknown>;
const day = (iso: string): string => new Date(iso).toLocaleDateString('en-CA', { timeZone: ZONE });
/** ccusage's key of a session: the folder under `sessions/` and the file's session id. */
const ccKeyOfPath = (path: string): string => `${basename(dirname(path))}/${fileSessionId(path)}`;
const byKey = (rows: UsageRow[]): UsageRow[] => rows.slice().sort((a, b) => (a.key < b.key ? -1 : 1));

async function oursTable(agentDir: string, report: TableReport): Promise<Json[]> {
  const json = jsonOf(
    await runCliAsync(['stats', report, '--all', '--json', '--breakdown', '--timezone', ZONE], {
      env: { PI_CODING_AGENT_DIR: agentDir, TZ: 'UTC' },
      timeoutMs: 60_000,
    }),
  ) as Json;
  expect(json['timeZone']).toBe(ZONE);
  return json[LIST_FIELD[report]] as Json[];
}

async function compareTables(bin: string, agentDir: string): Promise<{ rows: number; leftOut: number }> {
  const sessionsRoot = join(agentDir, 'sessions');
  const theirs = (command: string): Json[] =>
    ccusageJson(bin, [command, '--json', '--breakdown', '--timezone', ZONE], sessionsRoot)[
      command === 'session' ? 'sessions' : command
    ] as Json[];
  const { files } = discoverSessionFiles(resolveLocations({ env: { PI_CODING_AGENT_DIR: agentDir }, cwd: '/' }), 'all');
  const sessions = files.map((f) => readSessionSync(f)).filter((r): r is LoadedSession => r.ok);
  const names = modelNames(sessions);
  const leftOutReport = statsOf(sessions.map(leftOutByCcusage), { timeZone: ZONE });
  const leftOut = (report: TableReport, keyOf: (row: Json) => string): UsageRow[] =>
    tableRows(leftOutReport, report, 'desc').map((r) => usageRow(rowJson(r, report, ZONE), keyOf, 'ours'));
  const expected = async (report: TableReport, keyOf: (row: Json) => string): Promise<UsageRow[]> =>
    subtractRows(
      (await oursTable(agentDir, report)).map((r) => usageRow(r, keyOf, 'ours')),
      leftOut(report, keyOf),
    ).map((r) => renameModels(r, names));
  const field = (name: string) => (row: Json) => String(row[name]);

  // Days and months: the same rows in the same (latest first) order.
  const days = theirs('daily').map((r) => usageRow(r, field('date'), 'sum of parts'));
  expect(days.map(plain)).toEqual((await expected('daily', field('date'))).map(comparable));
  const months = theirs('monthly').map((r) => usageRow(r, field('month'), 'sum of parts'));
  expect(months.map(plain)).toEqual((await expected('monthly', field('month'))).map(comparable));
  const weeks = groupRows(days, isoWeekOfDate);
  expect(weeks.map(plain)).toEqual((await expected('weekly', field('week'))).map(comparable));

  // Sessions: one by one where a file shares no usage with another, else as a fork family.
  const familyOf = families(sessions);
  const sessionOf = new Map(sessions.map((s) => [s.path, s]));
  const pathOfCcKey = new Map(sessions.map((s) => [ccKeyOfPath(s.path), s.path]));
  const ccSessions = theirs('session');
  const ccKey = (row: Json): string => `${String(row['projectPath'])}/${String(row['sessionId'])}`;
  // ccusage reads every *.jsonl; none of its sessions may be one pi does not list yet carries usage.
  expect(
    ccSessions.filter((r) => !pathOfCcKey.has(ccKey(r)) && Number(r['totalCost']) + Number(r['inputTokens']) > 0),
  ).toEqual([]);
  const ccRows = ccSessions.filter((r) => pathOfCcKey.has(ccKey(r)));
  const oursSessions = await oursTable(agentDir, 'session');
  const ourPath = field('path');
  const sessionRows = subtractRows(
    oursSessions.map((r) => usageRow(r, ourPath, 'ours')),
    leftOut('session', ourPath),
  ).map((r) => renameModels(r, names));
  const family = (path: string): string => familyOf.get(path)!;
  expect(
    byKey(
      groupRows(
        ccRows.map((r) => usageRow(r, (row) => pathOfCcKey.get(ccKey(row))!, 'sum of parts')),
        family,
      ),
    ).map(plain),
  ).toEqual(byKey(groupRows(sessionRows, family)).map(comparable));
  // What names a row: ccusage the file (its name after the first `_`, its folder), we the header.
  for (const row of ccRows) {
    const path = pathOfCcKey.get(ccKey(row))!;
    expect({ sessionId: row['sessionId'], projectPath: row['projectPath'] }).toEqual({
      sessionId: fileSessionId(path),
      projectPath: basename(dirname(path)),
    });
  }
  for (const row of oursSessions) {
    const session = sessionOf.get(ourPath(row))!;
    expect({ sessionId: row['sessionId'], projectPath: row['projectPath'] }).toEqual({
      sessionId: session.header.id,
      projectPath: session.header.cwd,
    });
  }
  // The latest day of a family's usage: ccusage's from assistant messages, ours also from the rest.
  const latest = (dates: (string | undefined)[]): string | undefined =>
    dates
      .filter((d): d is string => d !== undefined)
      .sort()
      .at(-1);
  const counted = statsOf(sessions.map(countedByCcusage), { timeZone: ZONE }).bySession;
  const lastOf = (stats: typeof counted, path: string): string | undefined => {
    const at = stats.find((s) => s.path === path)?.lastActivity;
    return at === undefined ? undefined : day(at);
  };
  for (const group of new Set(familyOf.values())) {
    const members = sessions.filter((s) => family(s.path) === group).map((s) => s.path);
    const cc = ccRows.filter((r) => members.includes(pathOfCcKey.get(ccKey(r))!));
    expect(latest(cc.map((r) => String(r['lastActivity']))), group).toBe(
      latest(members.map((p) => lastOf(counted, p))),
    );
    for (const path of members) {
      const ours = oursSessions.find((r) => ourPath(r) === path)?.['lastActivity'];
      const either = latest([lastOf(counted, path), lastOf(leftOutReport.bySession, path)]);
      if (ours !== undefined || either !== undefined) expect(ours, path).toBe(either);
    }
  }
  return {
    rows: days.length + months.length + ccRows.length,
    leftOut: leftOutReport.bySession.filter((s) => s.usage.totalTokens > 0).length,
  };
}

describe(`stats against ${CCUSAGE_PI.spec}`, () => {
  it('a generated store with forks, legacy and broken files: every day, every session, every fork family', async (ctx) => {
    const bin = ccusageOrSkip(ctx);
    const agent = tempDir('pi-sessions-ccusage-store-');
    writeStore(join(agent, 'sessions'), {
      projects: 4,
      sessions: 40,
      entries: 60,
      toolBytes: 200,
      seed: 11,
      forkShare: 0.15,
      legacy: true,
      broken: true,
    });
    const counts = await compare(bin, agent);
    expect(counts.days).toBeGreaterThan(20);
    expect(counts.families).toBeGreaterThan(0);
    const tables = await compareTables(bin, agent);
    expect(tables.rows).toBeGreaterThan(40);
  });

  it('the pi-written corpus (compactions, branch summaries, usage entries, a fork moved to another project)', async (ctx) => {
    const bin = ccusageOrSkip(ctx);
    const agent = tempDir('pi-sessions-ccusage-corpus-');
    cpSync(join(FIXTURES, 'pi-written', 'sessions'), join(agent, 'sessions'), { recursive: true });
    const counts = await compare(bin, agent);
    expect(counts.days).toBe(8);
    expect(counts.families).toBe(2);
    const tables = await compareTables(bin, agent);
    // Compactions, branch summaries and usage entries: sessions where the left-out usage is subtracted.
    expect(tables.leftOut).toBeGreaterThan(0);
  });
});
