/**
 * `pi-sessions redo` and Ctrl+Y: takes back the latest undo (store/journal/history.ts redoCandidate),
 * re-applying the change it undid, the append-only way again:
 *   - a rename or label: the text our change wrote, read back from its entry in the session file
 *     (the journal keeps only a preview); a branch: the leaf moves back to the entry our branch
 *     appended;
 *   - a delete: the sessions go to the trash again;
 *   - a fork: its file comes back from the trash where the undo put it (the same session, same
 *     id: forking again would make another one, from a source that may have moved on);
 *   - a merge: the files come back from the undo and are merged again, as they are now;
 *   - a slim: the original is slimmed again (a new copy of its active branch as it is now), so
 *     entries pi added since the undo are kept.
 * A redo's records carry `redoes` and are changes like any other: they can be undone again. As
 * for undo, the candidate is claimed under the journal's lock and checked against the disk first.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { StoreError } from '../errors.js';
import { redactSession } from '../export/redact-session.js';
import { describeChange, describeRedo } from '../journal/describe.js';
import { fileStateOf, readJournalChecked, recordChange, withJournal } from '../journal/file.js';
import { latestOwnStates, type RedoCandidate, redoCandidate } from '../journal/history.js';
import {
  type FileState,
  isAsWeLeftIt,
  type JournalNote,
  type JournalRecord,
  PATH_TEXT_MAX,
} from '../journal/records.js';
import { parseConflictName } from '../sync/conflict-names.js';
import { mergeConflictGroup } from '../sync/merge.js';
import { restoreSessions, trashSessions } from '../trash/trash.js';
import { moveLeaf } from '../write/branch.js';
import { slimSession } from '../write/slim.js';
import { renameSession, setLabel } from '../write/write.js';
import { restoreProblem } from './assess.js';
import { identityProblem, resolveUndoPlaces, sessionFileProblem, type UndoPlaces } from './guard.js';
import { isMomentAgo, UndoBlocked, type UndoScope } from './undo.js';

export interface RedoEntry {
  candidate: RedoCandidate;
  /** What redoing does. */
  redo: string;
  /** pi has written to the file since the undo: redoing needs --force (the screens ask). */
  changedSince: boolean;
  blocked?: string;
}

async function changedSince(path: string, ours: FileState | undefined): Promise<boolean> {
  try {
    return !isAsWeLeftIt(ours, await stat(path));
  } catch {
    return true;
  }
}

/** A file the redo changes again: in a sessions folder, and the session the change was made to. */
async function fileProblem(
  places: UndoPlaces,
  path: string,
  sessionId: string | undefined,
  after: FileState | undefined,
): Promise<string | undefined> {
  return (await sessionFileProblem(places, path)) ?? (await identityProblem(path, { sessionId, after }));
}

async function assessRedo(
  places: UndoPlaces,
  records: readonly JournalRecord[],
  candidate: RedoCandidate,
): Promise<RedoEntry> {
  const { change, changes, undos } = candidate;
  const ours = latestOwnStates(records);
  const entry = (blocked: string | undefined, changed = false): RedoEntry => ({
    candidate,
    redo: describeRedo(change, changes.length),
    changedSince: changed,
    ...(blocked ? { blocked } : {}),
  });
  switch (change.kind) {
    case 'rename':
    case 'label':
    case 'branch': {
      const why = await fileProblem(places, change.path, change.sessionId, ours.get(change.path));
      return entry(why, why === undefined && (await changedSince(change.path, ours.get(change.path))));
    }
    case 'fork': {
      const trashed = undos.find((u) => u.kind === 'delete') as Extract<JournalRecord, { kind: 'delete' }> | undefined;
      if (!trashed) return entry('the undo did not say where it put the fork');
      return entry(
        await restoreProblem(places, { ...trashed, ...(change.sessionId ? { sessionId: change.sessionId } : {}) }),
      );
    }
    case 'delete': {
      let changed = false;
      for (const member of changes) {
        const why = await fileProblem(places, member.path, member.sessionId, ours.get(member.path));
        if (why) return entry(why);
        changed ||= await changedSince(member.path, ours.get(member.path));
      }
      return entry(undefined, changed);
    }
    case 'redact': {
      const why = await fileProblem(places, change.path, change.sessionId, ours.get(change.path));
      return entry(why, why === undefined && (await changedSince(change.path, ours.get(change.path))));
    }
    case 'merge': {
      let changed = false;
      for (const source of change.sources) {
        const why = await fileProblem(places, source.path, change.sessionId, ours.get(source.path));
        if (why) return entry(why);
        changed ||= await changedSince(source.path, ours.get(source.path));
      }
      return entry(undefined, changed);
    }
    case 'slim': {
      const why = await fileProblem(places, change.source, change.sourceSessionId, ours.get(change.source));
      return entry(why, why === undefined && (await changedSince(change.source, ours.get(change.source))));
    }
    default:
      return entry('it cannot be redone');
  }
}

export interface RedoList {
  entry?: RedoEntry;
  warning?: string;
}

/** The undo that redo would take back now, judged against the disk. */
export async function redoable(scope: UndoScope): Promise<RedoList> {
  const read = await readJournalChecked(process.env);
  const candidate = redoCandidate(read.records);
  const extra = read.warning ? { warning: read.warning } : {};
  if (!candidate) return extra;
  const places = await resolveUndoPlaces(scope.locations, process.env);
  return { entry: await assessRedo(places, read.records, candidate), ...extra };
}

export interface RedoOutcome {
  change: JournalRecord;
  changes: JournalRecord[];
  redo: string;
  /** The records the redo wrote (changes again, undoable). */
  changeIds: string[];
  journalWarning?: string;
}

const describe = (record: JournalRecord, batch?: readonly JournalRecord[]): string =>
  describeChange(record, { nowMs: Date.now() }, batch);

/** Redoes the undo of change `id`, which must still be the latest undo. Throws a one-line StoreError otherwise. */
export async function redoChange(
  scope: UndoScope,
  options: { id?: string; force?: boolean } = {},
): Promise<RedoOutcome> {
  return withJournal(process.env, async () => {
    const read = await readJournalChecked(process.env);
    const candidate = redoCandidate(read.records);
    if (!candidate || (options.id !== undefined && candidate.change.id !== options.id)) {
      const redone = options.id !== undefined && read.records.some((r) => r.redoes === options.id);
      throw new StoreError(
        'no-entry',
        redone
          ? 'nothing was redone: that change was already redone'
          : `nothing to redo: ${read.warning ?? (candidate ? 'another undo or change was made meanwhile' : 'no undo to take back since the latest change')}`,
      );
    }
    const places = await resolveUndoPlaces(scope.locations, process.env);
    const entry = await assessRedo(places, read.records, candidate);
    const what = describe(candidate.change, candidate.changes);
    if (entry.blocked) throw new UndoBlocked(`cannot redo ${what}: ${entry.blocked}`, entry.blocked);
    if (entry.changedSince && !options.force)
      throw new StoreError(
        'write-failed',
        `${candidate.change.path}: changed since it was undone (pi has written to it); nothing was redone (--force redoes it anyway)`,
      );
    return performRedo(entry);
  });
}

async function performRedo(entry: RedoEntry): Promise<RedoOutcome> {
  const { change, changes, undos } = entry.candidate;
  const note: JournalNote = { redoes: change.id! };
  const expect = change.sessionId !== undefined ? { sessionId: change.sessionId } : {};
  const base = { change, changes, redo: entry.redo };
  const done = (result: { changeId?: string; journalWarning?: string }): RedoOutcome => ({
    ...base,
    changeIds: result.changeId === undefined ? [] : [result.changeId],
    ...(result.journalWarning ? { journalWarning: result.journalWarning } : {}),
  });
  switch (change.kind) {
    case 'rename':
      return done(await renameSession(change.path, { fromEntry: change.entryId }, { ...note, ...expect }));
    case 'label':
      return done(await setLabel(change.path, change.targetId, { fromEntry: change.entryId }, { ...note, ...expect }));
    case 'branch':
      return done(await moveLeaf(change.path, change.entryId, { ...note, ...expect }));
    case 'delete': {
      const notes = new Map(changes.map((c) => [c.path, { redoes: c.id! }]));
      const outcome = await trashSessions(
        changes.map((c) => c.path),
        { notes },
      );
      if (outcome.failed.length > 0)
        throw new StoreError(
          'write-failed',
          `${outcome.failed[0]!.path}: ${outcome.failed[0]!.error}${outcome.trashed.length > 0 ? ` (${outcome.trashed.length} moved to the trash again)` : '; nothing was redone'}`,
        );
      return {
        ...base,
        changeIds: outcome.changeIds,
        ...(outcome.journalWarning ? { journalWarning: outcome.journalWarning } : {}),
      };
    }
    case 'fork': {
      const trashed = undos.find((u) => u.kind === 'delete') as Extract<JournalRecord, { kind: 'delete' }>;
      const restored = await restoreSessions([
        {
          path: change.path,
          how: 'trash',
          trashedPath: trashed.trashedPath!,
          ...(trashed.infoPath ? { infoPath: trashed.infoPath } : {}),
        },
      ]);
      if (restored.failed.length > 0)
        throw new StoreError('write-failed', `${change.path}: ${restored.failed[0]!.error}; nothing was redone`);
      const recorded = await recordChange({
        kind: 'fork',
        path: change.path,
        time: new Date().toISOString(),
        after: fileStateOf(await stat(change.path)),
        source: change.source,
        ...(change.sessionId !== undefined ? { sessionId: change.sessionId } : {}),
        ...(change.title !== undefined ? { title: change.title } : {}),
        ...(change.cwd !== undefined && change.cwd.length <= PATH_TEXT_MAX ? { cwd: change.cwd } : {}),
        ...note,
      });
      return done({ changeId: recorded.id, ...(recorded.warning ? { journalWarning: recorded.warning } : {}) });
    }
    case 'slim':
      return done(await slimSession(change.source, { note }));
    case 'redact':
      return done(await redactSession(change.path, { note }));
    case 'merge': {
      // The same files again, as they are now (pi may have appended to one since the undo).
      const copies = change.sources.filter((s) => s.path !== change.path);
      const group = {
        original: change.path,
        copies: copies.map((s) => ({ path: s.path, tool: parseConflictName(basename(s.path))?.tool ?? 'other' })),
      };
      return done(await mergeConflictGroup(group, { note }));
    }
    default:
      throw new StoreError('no-entry', 'nothing to redo');
  }
}

/** The screens' redo: `look` (asked about, unless its undo was made in this screen a moment ago: `recent`), or `id` to redo it. */
export type RedoStep =
  | { kind: 'nothing'; warning?: string }
  | { kind: 'ask'; entry: RedoEntry; warning?: string }
  | { kind: 'done'; outcome: RedoOutcome; warning?: string };

export type RedoRequest = { look: true; own?: readonly string[] } | { id: string; force?: boolean };

export async function redoStep(scope: UndoScope, request: RedoRequest): Promise<RedoStep> {
  if ('id' in request)
    return { kind: 'done', outcome: await redoChange(scope, { id: request.id, force: request.force ?? false }) };
  const { entry, warning } = await redoable(scope);
  const extra = warning ? { warning } : {};
  if (!entry) return { kind: 'nothing', ...extra };
  const id = entry.candidate.change.id!;
  // Its undo made by this screen a moment ago (the screen keeps the ids of the changes it undid).
  const undoneAt = entry.candidate.undos.at(-1)?.time;
  const own = request.own?.includes(id) && undoneAt !== undefined && isMomentAgo(undoneAt);
  if (own && !entry.blocked && !entry.changedSince)
    return { kind: 'done', outcome: await redoChange(scope, { id }), ...extra };
  return { kind: 'ask', entry, ...extra };
}
