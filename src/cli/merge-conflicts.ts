/**
 * `pi-sessions merge-conflicts [<session> | --all] [--dry-run | --yes] [--json]`: the conflict
 * copies a sync tool left beside a session, merged into one file pi loads (store/sync/merge.ts).
 * Without --yes (or with --dry-run) it only says what it would do, like `slim`; with it, each
 * group is merged, its files to the trash (one undo each). A group that cannot be merged (two
 * copies disagree about an entry) is named with why, the others are merged all the same, and the
 * exit status is 1. Paths and devices come from file names: every one is sanitised for a terminal.
 */
import { basename } from 'node:path';
import { formatBytes, plural } from '../format.js';
import {
  type ConflictGroup,
  type ConflictMergePlan,
  conflictGroupOf,
  copyOrigin,
  firstLineOf,
  type Locations,
  mergeConflictGroup,
  planConflictMerge,
  resolveSessionArg,
  StoreError,
  storeConflictGroups,
} from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { CommandResult, Output } from './commands.js';
import { jsonOutput } from './json.js';

export interface MergeConflictsOptions {
  session?: string;
  all: boolean;
  yes: boolean;
  json: boolean;
}

const entries = (n: number): string => plural(n, 'entry', 'entries');

/** The plan (or what was done) as lines a person reads. */
export function mergePlanLines(plan: ConflictMergePlan, done: boolean): string[] {
  const lines = [
    `${done ? 'Merged' : 'Would merge'} ${sanitizeInline(plan.original)} and ${plural(plan.files.length - 1, 'conflict copy', 'conflict copies')} into one file of ${entries(plan.entries)} (${formatBytes(plan.sizeBefore)} → ${formatBytes(plan.sizeAfter)}):`,
  ];
  for (const file of plan.files) {
    const origin = file.copy ? copyOrigin(file.copy) : 'the original';
    lines.push(
      `  ${sanitizeInline(basename(file.path))}: ${entries(file.entries)}, ${file.own} of them in no other file${origin !== '' ? ` (${sanitizeInline(origin)})` : ''}`,
    );
  }
  lines.push(
    `  pi resumes where ${sanitizeInline(basename(plan.leafFrom))} left off (modified last); ${done ? 'the files merged are in the trash (pi-sessions undo restores them)' : 'the files would go to the trash'}.`,
  );
  return lines;
}

function planJson(plan: ConflictMergePlan, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    original: plan.original,
    sessionId: plan.sessionId,
    entries: plan.entries,
    leafFrom: plan.leafFrom,
    sizeBefore: plan.sizeBefore,
    sizeAfter: plan.sizeAfter,
    files: plan.files.map((f) => ({
      path: f.path,
      tool: f.copy?.tool ?? null,
      device: f.copy?.device ?? null,
      time: f.copy?.time ?? null,
      entries: f.entries,
      own: f.own,
    })),
    ...extra,
  };
}

async function groupsFor(
  locations: Locations,
  options: MergeConflictsOptions,
): Promise<{ groups: ConflictGroup[]; searched: string }> {
  if (options.session !== undefined) {
    const path = await resolveSessionArg(options.session, locations);
    return { groups: [conflictGroupOf(path)], searched: path };
  }
  const found = storeConflictGroups(locations, options.all ? 'all' : 'cwd');
  // A folder that cannot be read is a failure, not "no conflict copies".
  if (found.dirProblem !== undefined) throw new StoreError('unreadable-dir', found.dirProblem);
  return found;
}

export async function mergeConflictsCommand(
  locations: Locations,
  options: MergeConflictsOptions,
  io: Output,
): Promise<CommandResult> {
  const { groups, searched } = await groupsFor(locations, options);
  if (groups.length === 0) {
    if (options.json) io.out(jsonOutput({ done: options.yes, searched, groups: [] }));
    else io.out(`No conflict copies in ${sanitizeInline(searched)}.`);
    return { code: 0 };
  }
  const json: Record<string, unknown>[] = [];
  let failed = 0;
  for (const group of groups) {
    try {
      if (!options.yes) {
        const plan = await planConflictMerge(group);
        if (options.json) json.push(planJson(plan));
        else for (const line of mergePlanLines(plan, false)) io.out(line);
        continue;
      }
      const result = await mergeConflictGroup(group);
      if (result.journalWarning !== undefined) io.err(`pi-sessions: warning: ${sanitizeInline(result.journalWarning)}`);
      if (options.json) json.push(planJson(result, { changeId: result.changeId ?? null }));
      else for (const line of mergePlanLines(result, true)) io.err(line);
      if (!options.json) io.out(io.terminal ? sanitizeInline(result.original) : result.original);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      failed++;
      if (options.json) json.push({ original: group.original, error: error.message });
      else io.err(`pi-sessions: ${sanitizeInline(firstLineOf(error))}`);
    }
  }
  if (options.json) io.out(jsonOutput({ done: options.yes, searched, groups: json }));
  else if (!options.yes && failed < groups.length)
    io.err('Run again with --yes to do it (pi-sessions undo takes back each merge).');
  return { code: failed > 0 ? 1 : 0 };
}
