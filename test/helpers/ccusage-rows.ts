/**
 * The rows of `pi-sessions stats daily|weekly|monthly|session --json` and of `@ccusage/pi`'s
 * `daily|monthly|session --json` in one shape, so test/e2e/ccusage.e2e.test.ts can compare them
 * field by field: the five figures and the cost of a row, and the same per model. Pure.
 *
 * The shapes differ only where the tools do:
 * - ccusage prints no `totalTokens`; its table's "Total Tokens" column is the sum of the four
 *   parts, and that sum is what a ccusage user reads, so it is the figure compared.
 * - ccusage names a model `[pi] <model>` (pi's `model` field, no provider) and `unknown` when an
 *   assistant message names none; we name it `provider/model`. `modelNames` maps ours to theirs
 *   from the entries themselves, so the mapping is explicit, never a loosened comparison.
 * - ccusage's `modelBreakdowns` are in the order it met the models, ours by cost: compared by name.
 */
import { expect } from 'vitest';
import { type LoadedSession, modelOf, roleOf, type SessionEntry, usageOf } from '../../src/store/index.js';

export interface Figures {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  cost: number;
}

export interface UsageRow {
  /** The date, ISO week, month or session file the row is about. */
  key: string;
  figures: Figures;
  /** Per model, by the model's name. */
  models: Map<string, Figures>;
  /** The row's `modelsUsed` list, sorted. */
  modelsUsed: string[];
}

const ZERO: Figures = {
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  totalTokens: 0,
  cost: 0,
};

type Json = Record<string, unknown>;
const num = (row: Json, field: string): number => {
  const value = row[field];
  if (typeof value !== 'number') throw new Error(`${field} is ${JSON.stringify(value)}, not a number`);
  return value;
};
const str = (row: Json, field: string): string => {
  const value = row[field];
  if (typeof value !== 'string') throw new Error(`${field} is ${JSON.stringify(value)}, not a string`);
  return value;
};

function figuresOf(row: Json, costField: string, total: 'ours' | 'sum of parts'): Figures {
  const parts = {
    inputTokens: num(row, 'inputTokens'),
    outputTokens: num(row, 'outputTokens'),
    cacheCreationTokens: num(row, 'cacheCreationTokens'),
    cacheReadTokens: num(row, 'cacheReadTokens'),
  };
  return {
    ...parts,
    totalTokens:
      total === 'ours'
        ? num(row, 'totalTokens')
        : parts.inputTokens + parts.outputTokens + parts.cacheCreationTokens + parts.cacheReadTokens,
    cost: num(row, costField),
  };
}

/** A JSON row of ours (`total: 'ours'`) or of ccusage (`'sum of parts'`), keyed by `keyOf`. */
export function usageRow(row: Json, keyOf: (row: Json) => string, total: 'ours' | 'sum of parts'): UsageRow {
  const breakdowns = row['modelBreakdowns'];
  const used = row['modelsUsed'];
  if (!Array.isArray(breakdowns) || !Array.isArray(used)) throw new Error(`row ${keyOf(row)} has no model lists`);
  const models = new Map<string, Figures>();
  for (const b of breakdowns as Json[]) {
    const name = str(b, 'modelName');
    if (models.has(name)) throw new Error(`row ${keyOf(row)} lists ${name} twice`);
    models.set(name, figuresOf(b, 'cost', total));
  }
  const modelsUsed = (used as string[]).slice().sort();
  // The list must name exactly the models broken down, so comparing the breakdowns compares it too.
  if (JSON.stringify(modelsUsed) !== JSON.stringify([...models.keys()].sort()))
    throw new Error(`row ${keyOf(row)}: modelsUsed ${JSON.stringify(used)} is not the models broken down`);
  return { key: keyOf(row), figures: figuresOf(row, 'totalCost', total), models, modelsUsed };
}

const plus = (a: Figures, b: Figures, sign = 1): Figures => ({
  inputTokens: a.inputTokens + sign * b.inputTokens,
  outputTokens: a.outputTokens + sign * b.outputTokens,
  cacheCreationTokens: a.cacheCreationTokens + sign * b.cacheCreationTokens,
  cacheReadTokens: a.cacheReadTokens + sign * b.cacheReadTokens,
  totalTokens: a.totalTokens + sign * b.totalTokens,
  cost: a.cost + sign * b.cost,
});
// Costs are sums of floats in different orders: a figure left after a subtraction is zero within a nano-dollar.
const isZero = (f: Figures): boolean =>
  f.inputTokens === 0 &&
  f.outputTokens === 0 &&
  f.cacheCreationTokens === 0 &&
  f.cacheReadTokens === 0 &&
  f.totalTokens === 0 &&
  Math.abs(f.cost) < 1e-9;

/**
 * `rows` less `leftOut` (the same report over only the usage the other tool does not count), key
 * by key and model by model. A model, or a whole row, that only the left-out usage made is dropped.
 */
export function subtractRows(rows: readonly UsageRow[], leftOut: readonly UsageRow[]): UsageRow[] {
  const byKey = new Map(leftOut.map((r) => [r.key, r]));
  const out: UsageRow[] = [];
  for (const row of rows) {
    const less = byKey.get(row.key);
    byKey.delete(row.key);
    if (!less) {
      out.push(row);
      continue;
    }
    const models = new Map<string, Figures>();
    for (const [name, f] of row.models) {
      const gone = less.models.get(name);
      const left = gone ? plus(f, gone, -1) : f;
      if (!(gone && isZero(left))) models.set(name, left);
    }
    for (const name of less.models.keys())
      if (!row.models.has(name)) throw new Error(`${row.key}: ${name} is left out but was never counted`);
    const figures = plus(row.figures, less.figures, -1);
    if (models.size === 0 && isZero(figures)) continue;
    out.push({ key: row.key, figures, models, modelsUsed: [...models.keys()].sort() });
  }
  if (byKey.size > 0) throw new Error(`left out of rows that do not exist: ${[...byKey.keys()].join(', ')}`);
  return out;
}

/** Rows added up under `groupOf(row.key)`, in the order each group first appears. */
export function groupRows(rows: readonly UsageRow[], groupOf: (key: string) => string): UsageRow[] {
  const groups = new Map<string, UsageRow>();
  for (const row of rows) {
    const key = groupOf(row.key);
    const group = groups.get(key) ?? { key, figures: ZERO, models: new Map(), modelsUsed: [] };
    const models = new Map(group.models);
    for (const [name, f] of row.models) models.set(name, plus(models.get(name) ?? ZERO, f));
    groups.set(key, { key, figures: plus(group.figures, row.figures), models, modelsUsed: [...models.keys()].sort() });
  }
  return [...groups.values()];
}

/** The row with its models renamed (`names`: ours → ccusage's); models that get one name are added up. */
export function renameModels(row: UsageRow, names: ReadonlyMap<string, string>): UsageRow {
  const models = new Map<string, Figures>();
  for (const [name, f] of row.models) {
    const theirs = names.get(name);
    if (theirs === undefined) throw new Error(`${row.key}: no ccusage name for the model ${name}`);
    models.set(theirs, plus(models.get(theirs) ?? ZERO, f));
  }
  return { ...row, models, modelsUsed: [...models.keys()].sort() };
}

/**
 * Our model name → ccusage's, from every assistant message that carries usage: ours is
 * `modelOf(entry)`, ccusage's `[pi] ${message.model}` (`unknown` without one). Throws when one of
 * ours would need two names, so a mapping that hides a difference cannot pass.
 */
export function modelNames(sessions: readonly LoadedSession[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const session of sessions)
    for (const entry of session.entries) {
      if (roleOf(entry) !== 'assistant' || usageOf(entry) === undefined) continue;
      const model = (entry['message'] as Json)['model'];
      const theirs = typeof model === 'string' ? `[pi] ${model}` : 'unknown';
      const ours = modelOf(entry);
      const known = names.get(ours);
      if (known !== undefined && known !== theirs) throw new Error(`${ours} is both ${known} and ${theirs} in ccusage`);
      names.set(ours, theirs);
    }
  return names;
}

/** The session with only the usage ccusage leaves out (anything but an assistant message's). */
export function leftOutByCcusage(session: LoadedSession): LoadedSession {
  const keep = (entry: SessionEntry): SessionEntry => {
    if (usageOf(entry) === undefined || roleOf(entry) !== 'assistant') return entry;
    return { ...entry, message: { ...(entry['message'] as object), usage: undefined } };
  };
  return { ...session, entries: session.entries.map(keep) };
}

/** The session with only the usage ccusage counts (an assistant message's). */
export function countedByCcusage(session: LoadedSession): LoadedSession {
  const keep = (entry: SessionEntry): SessionEntry => {
    if (usageOf(entry) === undefined || roleOf(entry) === 'assistant') return entry;
    if (entry.type === 'message') return { ...entry, message: { ...(entry['message'] as object), usage: undefined } };
    return { ...entry, usage: undefined };
  };
  return { ...session, entries: session.entries.map(keep) };
}

/** `2026-W09`: the ISO 8601 week of a `YYYY-MM-DD` date, worked out here rather than with the code under test. */
export function isoWeekOfDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0
  d.setUTCDate(d.getUTCDate() - weekday + 3); // that week's Thursday names its year
  const year = d.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(year, 0, 4));
  firstThursday.setUTCDate(4 - ((firstThursday.getUTCDay() + 6) % 7) + 3);
  const week = 1 + Math.round((d.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** A row as `toEqual` compares it: every figure exact, costs to a nano-dollar, models by name. */
export function comparable(row: UsageRow): unknown {
  const figures = (f: Figures) => ({ ...f, cost: expect.closeTo(f.cost, 9) });
  return {
    key: row.key,
    ...figures(row.figures),
    modelsUsed: row.modelsUsed,
    models: Object.fromEntries([...row.models].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, f]) => [n, figures(f)])),
  };
}

/** ccusage's side of the comparison: the same shape with plain numbers (closeTo sits on the expected side). */
export function plain(row: UsageRow): unknown {
  return {
    key: row.key,
    ...row.figures,
    modelsUsed: row.modelsUsed,
    models: Object.fromEntries([...row.models].sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}
