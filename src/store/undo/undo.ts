/**
 * `pi-sessions undo` and Ctrl+Z: takes back the latest change in the journal the way pi would
 * have, append-only: a rename by appending the previous name, a label by restoring the previous
 * one, a branch by moving the leaf back, a fork by moving the new file to the trash, a delete by
 * restoring the file from the trash, a slim by both, a merge by restoring the original and its
 * conflict copies and trashing the merged file. The undo is journalled too, naming what it
 * undid (`undoes`).
 *
 * Trust and concurrency: the change is claimed and undone while holding the journal's lock, and
 * only if it is still the newest undoable change with the id the caller saw (a second process
 * that saw the same change is told it was already undone). Before anything is touched the
 * record is checked against the disk (store/undo/assess.ts, store/undo/guard.ts): a change that can no longer
 * be undone, or that points outside the sessions folders and the trash, is refused with one line
 * and changes nothing; `skip` passes over it so older changes become reachable. A file pi has
 * written to since our change is refused unless forced (the screens ask).
 */
import { StoreError } from '../errors.js';
import { describeChange, describeUndo } from '../journal/describe.js';
import { appendRecord, readJournalChecked, withJournal } from '../journal/file.js';
import { batchOf, fateOf, type HistoryExtent, historyExtent, isChange, undoableChanges } from '../journal/history.js';
import type { JournalRecord } from '../journal/records.js';
import type { Locations } from '../locations.js';
import { assessUndo, restoreProblem } from './assess.js';
import type { UndoEntry, UndoOutcome } from './entry.js';
import { resolveUndoPlaces, type UndoPlaces } from './guard.js';
import { performUndo } from './perform.js';

/**
 * Where undo may act: the sessions folders of `locations`. The trash (XDG_DATA_HOME) and the
 * journal (XDG_STATE_HOME) are the process's, as for every write.
 */
export interface UndoScope {
  locations: Locations;
}

/** A change that cannot be undone now (why, in one line); `--skip` passes over it. */
export class UndoBlocked extends StoreError {
  constructor(
    message: string,
    readonly why: string,
  ) {
    super('write-failed', message);
  }
}

const describe = (record: JournalRecord, batch?: readonly JournalRecord[]): string =>
  describeChange(record, { nowMs: Date.now() }, batch);

/** Judges the newest-first undoable `record` (and its batch) against the disk. */
async function entryFor(
  places: UndoPlaces,
  records: readonly JournalRecord[],
  undoable: readonly JournalRecord[],
  record: JournalRecord,
): Promise<UndoEntry> {
  const batch = batchOf(undoable, record);
  const undo = describeUndo(record, batch.length);
  if (batch.length === 1) {
    const { blocked, changedSince } = await assessUndo(places, record, records);
    return { record, batch, undo, changedSince, ...(blocked ? { blocked } : {}) };
  }
  const stuck: { record: JournalRecord; why: string }[] = [];
  for (const member of batch) {
    const why = await restoreProblem(places, member as Extract<JournalRecord, { kind: 'delete' }>);
    if (why) stuck.push({ record: member, why });
  }
  if (stuck.length === batch.length)
    return { record, batch, undo, changedSince: false, blocked: `none of them can be restored: ${stuck[0]!.why}` };
  return { record, batch, undo, changedSince: false, ...(stuck.length > 0 ? { stuck } : {}) };
}

export interface UndoList {
  /** The changes that can still be undone, newest first (a batch once), each judged against the disk. */
  entries: UndoEntry[];
  /** The journal could not be read whole (one line). */
  warning?: string;
  /** How far back the history goes. */
  extent: HistoryExtent;
  /** When there is nothing to undo: why, when the journal knows (the latest change was undone, or skipped). */
  nothing?: string;
}

/** Why nothing can be undone, when the newest change was undone or skipped (a second `undo` sees this). */
function nothingReason(records: readonly JournalRecord[]): string | undefined {
  const newest = records.findLast(isChange);
  if (!newest) return undefined;
  const fate = fateOf(records, newest.id!);
  if (!fate) return undefined;
  return fate.kind === 'undone'
    ? `the latest change, ${describe(newest)}, was already undone`
    : `the latest change, ${describe(newest)}, was skipped`;
}

/** Every change that can still be undone, newest first, judged against the disk; and how far back history goes. */
export async function listUndoableChecked(scope: UndoScope, options: { limit?: number } = {}): Promise<UndoList> {
  const env = process.env;
  const read = await readJournalChecked(env);
  const places = await resolveUndoPlaces(scope.locations, env);
  const undoable = undoableChanges(read.records);
  const entries: UndoEntry[] = [];
  const seen = new Set<JournalRecord>();
  for (const record of undoable) {
    if (seen.has(record)) continue;
    const entry = await entryFor(places, read.records, undoable, record);
    for (const member of entry.batch) seen.add(member);
    entries.push(entry);
    if (options.limit !== undefined && entries.length >= options.limit) break;
  }
  const nothing = entries.length === 0 ? nothingReason(read.records) : undefined;
  return {
    entries,
    extent: historyExtent(read.records, read.partial),
    ...(read.warning ? { warning: read.warning } : {}),
    ...(nothing ? { nothing } : {}),
  };
}

/** The newest undoable change with `id`, claimed under the lock; throws when it is not (any more). */
async function claim(
  scope: UndoScope,
  id: string,
): Promise<{ entry: UndoEntry; records: JournalRecord[]; places: UndoPlaces }> {
  const env = process.env;
  const read = await readJournalChecked(env);
  const record = read.records.find((r) => r.id === id && isChange(r));
  if (!record) throw new StoreError('no-entry', `nothing was undone: the change ${id} is not in the journal any more`);
  const fate = fateOf(read.records, id);
  if (fate)
    throw new StoreError(
      'no-entry',
      `nothing was undone: ${describe(record)} was already ${fate.kind === 'undone' ? 'undone' : 'skipped'}`,
    );
  const undoable = undoableChanges(read.records);
  const newest = undoable[0]!;
  if (!batchOf(undoable, newest).includes(record))
    throw new StoreError(
      'no-entry',
      `nothing was undone: a newer change was made meanwhile (${describe(newest)}); run undo again to take that one back`,
    );
  const places = await resolveUndoPlaces(scope.locations, env);
  return { entry: await entryFor(places, read.records, undoable, newest), records: read.records, places };
}

/**
 * Undoes the change `id`, which must still be the newest undoable one. Throws a one-line
 * StoreError when it is not, was undone meanwhile, is blocked (UndoBlocked), or pi has written
 * since and `force` is not set.
 */
export async function undoChange(scope: UndoScope, options: { id: string; force?: boolean }): Promise<UndoOutcome> {
  return withJournal(process.env, async () => {
    const { entry } = await claim(scope, options.id);
    const what = describe(entry.record, entry.batch);
    if (entry.blocked) throw new UndoBlocked(`cannot undo ${what}: ${entry.blocked}`, entry.blocked);
    if (entry.changedSince && !options.force)
      throw new StoreError(
        'write-failed',
        `${entry.record.path}: changed since pi-sessions' ${entry.record.kind} (pi has written to it); nothing was undone (--force undoes it anyway)`,
      );
    return performUndo(entry);
  });
}

/** Undoes the latest undoable change (the one the journal shows now). */
export async function undoLatest(scope: UndoScope, options: { force?: boolean } = {}): Promise<UndoOutcome> {
  const list = await listUndoableChecked(scope, { limit: 1 });
  const latest = list.entries[0];
  if (!latest)
    throw new StoreError(
      'no-entry',
      `nothing to undo: ${list.warning ?? list.nothing ?? 'the journal has no change left to take back'}`,
    );
  return undoChange(scope, { id: latest.record.id!, force: options.force ?? false });
}

export interface SkipOutcome {
  record: JournalRecord;
  batch: JournalRecord[];
  /** Why it could not be undone, when it could not. */
  why?: string;
  journalWarning?: string;
}

/**
 * Passes over the latest undoable change (`id`: it must still be that one) without touching it:
 * a `skip` record per change of its batch, so the change before it becomes the latest.
 */
export async function skipChange(scope: UndoScope, options: { id?: string } = {}): Promise<SkipOutcome> {
  const env = process.env;
  return withJournal(env, async () => {
    let id = options.id;
    if (id === undefined) {
      const newest = undoableChanges((await readJournalChecked(env)).records)[0];
      if (!newest) throw new StoreError('no-entry', 'nothing to skip: the journal has no change left to take back');
      id = newest.id!;
    }
    const { entry } = await claim(scope, id);
    for (const member of entry.batch) {
      await appendRecord(
        {
          kind: 'skip',
          path: member.path,
          time: new Date().toISOString(),
          skips: member.id!,
          ...(entry.blocked ? { reason: entry.blocked.slice(0, 500) } : {}),
        },
        env,
      );
    }
    return { record: entry.record, batch: entry.batch, ...(entry.blocked ? { why: entry.blocked } : {}) };
  });
}

/** What Ctrl+Z (and Ctrl+Y) in the screens get: nothing to do, a question first, the change made, or skipped. */
export type UndoStep =
  | { kind: 'nothing'; warning?: string; why?: string }
  | { kind: 'ask'; entry: UndoEntry; warning?: string }
  | { kind: 'done'; outcome: UndoOutcome; warning?: string }
  | { kind: 'skipped'; outcome: SkipOutcome; warning?: string };

/**
 * The screens' undo. `look`: the latest change, returned to ask about (`ask`), unless its id is
 * in `own` (made by this screen) and it is a moment old (OWN_CHANGE_MS) and can be undone as it
 * is: then it is undone at once (`done`). `id`: undo that change (the user said yes; `force` when pi wrote since). `skip`:
 * pass over that change. Failures throw a one-line StoreError.
 */
/** How long a change made by a screen counts as "a moment ago" for that screen: undone without a question. */
export const OWN_CHANGE_MS = 60_000;

/** Whether a record written at `time` (ISO) is under OWN_CHANGE_MS old. */
export function isMomentAgo(time: string, nowMs = Date.now()): boolean {
  const at = Date.parse(time);
  return Number.isFinite(at) && nowMs - at >= 0 && nowMs - at < OWN_CHANGE_MS;
}

/** What a screen asks: a look (with the ids of the changes it made itself), the undo of a change, or its skip. */
export type UndoRequest = { look: true; own?: readonly string[] } | { id: string; force?: boolean } | { skip: string };

export async function undoStep(scope: UndoScope, request: UndoRequest): Promise<UndoStep> {
  if ('skip' in request) return { kind: 'skipped', outcome: await skipChange(scope, { id: request.skip }) };
  if ('id' in request)
    return { kind: 'done', outcome: await undoChange(scope, { id: request.id, force: request.force ?? false }) };
  const list = await listUndoableChecked(scope, { limit: 1 });
  const extra = list.warning ? { warning: list.warning } : {};
  const latest = list.entries[0];
  if (!latest) return { kind: 'nothing', ...extra, ...(list.nothing ? { why: list.nothing } : {}) };
  const own = request.own?.includes(latest.record.id!) && isMomentAgo(latest.record.time);
  if (own && !latest.blocked && !latest.changedSince && !latest.stuck)
    return { kind: 'done', outcome: await undoChange(scope, { id: latest.record.id! }), ...extra };
  return { kind: 'ask', entry: latest, ...extra };
}
