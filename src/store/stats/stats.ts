/**
 * `pi-sessions stats`: tokens and cost over the store, per day / week / month, project, model,
 * session and branch, each usage counted once.
 *
 * Forks: `/fork` and `/clone` copy the parent's entries with their ids and timestamps, usage
 * included. An entry that carries usage is identified by its id and timestamp; when several files
 * hold it, it is counted in the session created first (the one where it was spent; a fork is
 * always created after its parent), even when the fork's parent file is gone. The same entry
 * written twice in one file (an old pi bug) counts once too. Days, weeks and months are in the
 * range's time zone (local time by default, like `--since 2026-01-05`), from the entry's timestamp.
 */
import { statSync } from 'node:fs';
import { dayKey, isoWeekKey } from '../../time-zone.js';
import { TOO_LARGE_TO_AUDIT_BYTES } from '../check/rules.js';
import {
  addUsage,
  assistantModel,
  emptyUsage,
  entryTimeMs,
  firstPrompt,
  messageOf,
  usageFieldOf,
  usageOf,
} from '../entry.js';
import {
  type ImplausibleValue,
  implausibleUsageValues,
  impossibleTimestamp,
  latestPlausibleMs,
} from '../implausible.js';
import type { Locations } from '../locations.js';
import { readSession, readSessionSync } from '../read/read.js';
import { isGoneSync } from '../read/regular-file.js';
import { discoverSessionFiles } from '../summary/list.js';
import { buildTree, getBranch, type SessionTree } from '../tree.js';
import type { LoadedSession, SessionEntry, UsageTotals } from '../types.js';

export interface StatsRow {
  key: string;
  usage: UsageTotals;
  /** A day's, week's or month's usage per model (`provider/model`), by cost; the row's usage is their sum. */
  models?: StatsRow[];
}

export interface BranchStats {
  /** The leaf of the branch; its segment runs up to (not including) the nearest branch point. */
  leafId: string;
  /** Whether it is the branch pi resumes. */
  active: boolean;
  entries: number;
  /** The first user prompt of the segment ('' when it has none), so a person can tell branches apart. */
  prompt: string;
  usage: UsageTotals;
}

export interface SessionStats {
  path: string;
  id: string;
  cwd: string;
  /** The name pi shows (the latest session_info), else the first user prompt ('' when none). */
  title: string;
  /** When the session was created (its header's timestamp, ISO), null when unreadable: tells same-titled sessions apart. */
  created: string | null;
  usage: UsageTotals;
  /** The session's usage per model (`provider/model`), by cost. */
  models: StatsRow[];
  /** When the latest usage counted here was spent (ISO); absent when none was. */
  lastActivity?: string;
  /** Usage-carrying entries left out because an earlier session holds them (a fork's copies). */
  copiedEntries: number;
  /**
   * Usage-carrying lines left out because the same entry (id and timestamp) came earlier in this
   * file: pi before 0.55.2 could write a session's entries twice; the usage was spent once.
   */
  repeatedEntries: number;
  branches: BranchStats[];
}

/** A value left out of the aggregates because it cannot be real (implausible.ts), and where it is. */
export interface ExcludedValue extends ImplausibleValue {
  path: string;
  /** 1-based line of the entry. */
  line: number;
  entryId: string;
}

export interface StatsReport {
  searched: string;
  totals: UsageTotals;
  byDay: StatsRow[];
  byWeek: StatsRow[];
  byMonth: StatsRow[];
  byProject: StatsRow[];
  byModel: StatsRow[];
  bySession: SessionStats[];
  /** Values left out of every figure above, in file order. */
  excluded: ExcludedValue[];
  /** Listed sessions whose files were gone when the stats read them (statsOfFilesAsync, the picker's scope). */
  gone?: string[];
}

export interface StatsRange {
  /** Inclusive lower bound, epoch ms. */
  sinceMs?: number;
  /** Exclusive upper bound, epoch ms. */
  untilMs?: number;
  /** The IANA time zone days, weeks and months are counted in (validated by the caller); local time when absent. */
  timeZone?: string;
}

const usageKey = (entry: SessionEntry): string => `${entry.id}\u0000${String(entry.timestamp)}`;

function createdMs(session: LoadedSession): number {
  const t = typeof session.header.timestamp === 'string' ? Date.parse(session.header.timestamp) : NaN;
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** `2026-01-05` (local time, or in `timeZone`). */
export const localDay = (ms: number, timeZone?: string): string => dayKey(ms, timeZone);

/** `2026-W02`: the ISO 8601 week of the local date (or of the date in `timeZone`). */
export const isoWeek = (ms: number, timeZone?: string): string => isoWeekKey(ms, timeZone);

/**
 * Who spent the usage: `provider/model` of an assistant message or of a `usage` entry (each names
 * the model it paid for), else the kind of entry in brackets (`(toolResult)`, `(compaction)`).
 */
export function modelOf(entry: SessionEntry): string {
  const message = messageOf(entry);
  if (entry.type === 'message' && message)
    return (message['role'] === 'assistant' ? assistantModel(message) : undefined) ?? `(${String(message['role'])})`;
  if (entry.type === 'usage') return assistantModel(entry) ?? '(usage)';
  return `(${entry.type})`;
}

const byCost = (a: StatsRow, b: StatsRow): number =>
  b.usage.cost - a.usage.cost ||
  b.usage.totalTokens - a.usage.totalTokens ||
  (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

class Buckets {
  private readonly map = new Map<string, { usage: UsageTotals; models?: Buckets }>();
  /** `perModel`: also keep each key's usage per model (`StatsRow.models`). */
  constructor(private readonly perModel = false) {}
  add(key: string, usage: unknown, model = ''): void {
    let bucket = this.map.get(key);
    if (!bucket) {
      bucket = { usage: emptyUsage(), ...(this.perModel ? { models: new Buckets() } : {}) };
      this.map.set(key, bucket);
    }
    addUsage(bucket.usage, usage);
    bucket.models?.add(model, usage);
  }
  rows(order: 'key' | 'cost'): StatsRow[] {
    const rows: StatsRow[] = [...this.map].map(([key, { usage, models }]) => ({
      key,
      usage,
      ...(models ? { models: models.rows('cost') } : {}),
    }));
    return order === 'key' ? rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) : rows.sort(byCost);
  }
}

/**
 * The stats of sessions already read (pure). `sessions` in discovery order; `nowMs` decides
 * which dates lie impossibly in the future (implausible.ts).
 *
 * A value that cannot be real is left out and listed in `excluded`: a usage figure alone (the
 * entry's other figures count), an impossible date with the entry's whole usage (it cannot be
 * placed in the timeline, nor in or out of a range), so the totals are always the sum of the days.
 */
export function statsOf(
  sessions: readonly LoadedSession[],
  range: StatsRange = {},
  searched = '',
  nowMs: number = Date.now(),
): StatsReport {
  // Who spent each usage: the session created first among those holding the entry.
  const owner = new Map<string, number>();
  sessions.forEach((session, index) => {
    for (const entry of session.entries) {
      if (usageOf(entry) === undefined) continue;
      const key = usageKey(entry);
      const previous = owner.get(key);
      if (previous === undefined || createdMs(session) < createdMs(sessions[previous]!)) owner.set(key, index);
    }
  });
  const totals = emptyUsage();
  const day = new Buckets(true);
  const week = new Buckets(true);
  const month = new Buckets(true);
  const zone = range.timeZone;
  const project = new Buckets();
  const model = new Buckets();
  const bySession: SessionStats[] = [];
  const excluded: ExcludedValue[] = [];
  const latestMs = sessions.map((session) => latestPlausibleMs(nowMs, session.mtimeMs));
  const counted = (entry: SessionEntry, index: number): boolean => {
    if (owner.get(usageKey(entry)) !== index) return false;
    if (impossibleTimestamp(entry.timestamp, latestMs[index]!)) return false;
    const t = entryTimeMs(entry);
    if (range.sinceMs !== undefined && !(t >= range.sinceMs)) return false;
    if (range.untilMs !== undefined && !(t < range.untilMs)) return false;
    return true;
  };
  sessions.forEach((session, index) => {
    const usage = emptyUsage();
    const models = new Buckets();
    let lastMs = Number.NEGATIVE_INFINITY;
    let copiedEntries = 0;
    let repeatedEntries = 0;
    const seen = new Set<string>();
    const cwd = typeof session.header.cwd === 'string' ? session.header.cwd : '';
    session.entries.forEach((entry, at) => {
      const spent = usageOf(entry);
      if (spent === undefined) return;
      const key = usageKey(entry);
      if (seen.has(key)) {
        repeatedEntries++;
        return;
      }
      seen.add(key);
      if (owner.get(key) !== index) {
        copiedEntries++;
        return;
      }
      const where = { path: session.path, line: session.entryLines[at] ?? 0, entryId: String(entry.id ?? '') };
      const badTime = impossibleTimestamp(entry.timestamp, latestMs[index]!);
      if (badTime) {
        excluded.push({ ...where, ...badTime });
        return;
      }
      if (!counted(entry, index)) return;
      const impossible = implausibleUsageValues(spent, usageFieldOf(entry));
      for (const value of impossible) excluded.push({ ...where, ...value });
      // An entry all of whose figures were left out spent nothing we know of: it makes no (empty) row.
      if (impossible.length > 0 && isEmptyUsage(spent)) return;
      const t = entryTimeMs(entry);
      const who = modelOf(entry);
      const dayOf = localDay(t, zone);
      addUsage(totals, spent);
      addUsage(usage, spent);
      models.add(who, spent);
      lastMs = Math.max(lastMs, t);
      day.add(dayOf, spent, who);
      week.add(isoWeek(t, zone), spent, who);
      month.add(dayOf.slice(0, 7), spent, who);
      project.add(cwd, spent);
      model.add(who, spent);
    });
    const tree = buildTree(session);
    const title = tree.sessionName ?? firstPrompt(session.entries);
    bySession.push({
      path: session.path,
      id: session.header.id,
      cwd,
      title,
      created: Number.isFinite(createdMs(session)) ? new Date(createdMs(session)).toISOString() : null,
      usage,
      models: models.rows('cost'),
      ...(Number.isFinite(lastMs) ? { lastActivity: new Date(lastMs).toISOString() } : {}),
      copiedEntries,
      repeatedEntries,
      branches: branchesOf(tree, (e) => counted(e, index)),
    });
  });
  return {
    searched,
    totals,
    byDay: day.rows('key'),
    byWeek: week.rows('key'),
    byMonth: month.rows('key'),
    byProject: project.rows('cost'),
    byModel: model.rows('cost'),
    bySession,
    excluded,
  };
}

/** Whether `usage` adds nothing (every figure 0, missing, or left out as impossible). */
function isEmptyUsage(usage: unknown): boolean {
  const added = emptyUsage();
  addUsage(added, usage);
  return Object.values(added).every((n) => n === 0);
}

/** The text of the first user message among `entries` ('' when none). */
/** Each leaf's own segment: from the leaf up to the nearest entry with more than one child. */
function branchesOf(tree: SessionTree, counted: (entry: SessionEntry) => boolean): BranchStats[] {
  const active = new Set(getBranch(tree, tree.leafId).map((e) => e.id));
  const out: BranchStats[] = [];
  for (const leaf of tree.order) {
    if ((tree.children.get(leaf.id)?.length ?? 0) > 0) continue;
    const usage = emptyUsage();
    // The branch's entries, leaf first; stops below a branch point (and at a root, or a cycle cut).
    const path = getBranch(tree, leaf.id).reverse();
    const segment: SessionEntry[] = [];
    for (let i = 0; i < path.length; i++) {
      const entry = path[i]!;
      if (i > 0 && (tree.children.get(entry.id)?.length ?? 0) > 1) break;
      segment.push(entry);
      if (usageOf(entry) !== undefined && counted(entry)) addUsage(usage, usageOf(entry));
    }
    out.push({
      leafId: leaf.id,
      active: active.has(leaf.id),
      entries: segment.length,
      prompt: firstPrompt(segment.reverse()),
      usage,
    });
  }
  return out;
}

function isReadableSessionFile(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFile() && stats.size <= TOO_LARGE_TO_AUDIT_BYTES;
  } catch {
    return false;
  }
}

/** Reads these session files (unreadable ones, FIFOs and files too large to read are left out) and adds up their usage. */
export function statsOfFiles(
  paths: readonly string[],
  range: StatsRange = {},
  searched = '',
  nowMs: number = Date.now(),
): StatsReport {
  const sessions: LoadedSession[] = [];
  for (const path of paths) {
    // Never opened: FIFOs (an open would block), devices, and files too large to read (check reports them).
    if (!isReadableSessionFile(path)) continue;
    const read = readSessionSync(path);
    if (read.ok) sessions.push(read);
  }
  return statsOf(sessions, range, searched, nowMs);
}

/**
 * `statsOfFiles` without blocking: the files are read one by one asynchronously, so a screen
 * keeps taking keys meanwhile; stops early (undefined) once `signal` is aborted.
 */
export async function statsOfFilesAsync(
  paths: readonly string[],
  options: { range?: StatsRange; searched?: string; signal?: AbortSignal; nowMs?: number } = {},
): Promise<StatsReport | undefined> {
  const sessions: LoadedSession[] = [];
  const gone: string[] = [];
  for (const path of paths) {
    if (options.signal?.aborted) return undefined;
    if (!isReadableSessionFile(path)) {
      // The paths come from a list drawn earlier: a file deleted or moved since is said, not skipped silently.
      if (isGoneSync(path)) gone.push(path);
      continue;
    }
    const read = await readSession(path);
    if (read.ok) sessions.push(read);
    else if (read.reason === 'not-found') gone.push(path);
  }
  if (options.signal?.aborted) return undefined;
  const report = statsOf(sessions, options.range, options.searched, options.nowMs);
  return gone.length > 0 ? { ...report, gone } : report;
}

/** Reads every session pi would list (files that are not sessions are left out) and adds up their usage. */
export function storeStats(
  locations: Locations,
  scope: 'cwd' | 'all',
  range: StatsRange = {},
  nowMs: number = Date.now(),
): StatsReport & { dirProblem?: string } {
  const discovery = discoverSessionFiles(locations, scope);
  const report: StatsReport & { dirProblem?: string } = statsOfFiles(discovery.files, range, discovery.searched, nowMs);
  if (discovery.dirProblem) report.dirProblem = discovery.dirProblem;
  return report;
}
