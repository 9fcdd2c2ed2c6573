/**
 * `pi-sessions undo [--list | --force | --skip]` and `pi-sessions redo [--force]`: the journal's
 * changes taken back and re-applied from the command line, described as the screens describe
 * them (store/journal/describe.ts). Exit 1, one line, when there is nothing to do, the change was
 * already undone by another process, it cannot be undone (and `--skip` is named), or pi has
 * written since (and `--force` is named).
 */

import { formatAbsoluteDate, plural } from '../format.js';
import {
  describeChange,
  type HistoryExtent,
  type Locations,
  listUndoableChecked,
  plainAction,
  redoChange,
  skipChange,
  UndoBlocked,
  type UndoEntry,
  undoLatest,
} from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { CommandResult, Output } from './commands.js';

function warnJournal(io: Output, warning: string | undefined): void {
  if (warning !== undefined) io.err(`pi-sessions: warning: ${sanitizeInline(warning)}`);
}

/** "History since 2026-01-05 09:00: 12 changes; older ones were trimmed." */
export function historyLine(extent: HistoryExtent): string | undefined {
  if (extent.since === undefined) return extent.trimmed ? 'History: older changes were trimmed.' : undefined;
  const changes = plural(extent.changes, 'change');
  const when = formatAbsoluteDate(Date.parse(extent.since));
  return `History since ${when}: ${changes}${extent.trimmed ? '; older ones were trimmed' : ''}.`;
}

/** One `undo --list` line: time, kind, the change as the screens say it, what undoing does, and why it cannot be. */
export function undoListLine(entry: UndoEntry, nowMs: number, first: boolean): string {
  const { record } = entry;
  const what = describeChange(record, { nowMs }, entry.batch);
  let marks = '';
  if (entry.blocked)
    marks = first
      ? `  (cannot be undone: ${entry.blocked}; undo --skip passes over it)`
      : `  (cannot be undone now: ${entry.blocked})`;
  else if (entry.changedSince) marks = '  (pi has written since: needs --force)';
  else if (entry.stuck) marks = `  (${entry.stuck.length} of them cannot be restored: ${entry.stuck[0]!.why})`;
  return `${sanitizeInline(record.time)}  ${record.kind.padEnd(6)}  ${sanitizeInline(`${what} → ${entry.undo}${marks}`)}`;
}

const SKIP_HINT = '; `pi-sessions undo --skip` passes over it (older changes can then be undone)';

async function undoList(locations: Locations, io: Output): Promise<CommandResult> {
  const list = await listUndoableChecked({ locations });
  warnJournal(io, list.warning);
  const nowMs = Date.now();
  if (list.entries.length === 0)
    io.out(sanitizeInline(list.nothing ? `Nothing to undo: ${list.nothing}.` : 'Nothing to undo.'));
  list.entries.forEach((entry, i) => {
    io.out(undoListLine(entry, nowMs, i === 0));
  });
  const history = historyLine(list.extent);
  if (history) io.out(history);
  return { code: 0 };
}

/** `undo [--list | --force | --skip]`: takes back the latest journalled change, lists what can be, or passes over one. */
export async function undoCommand(
  locations: Locations,
  options: { list: boolean; force: boolean; skip: boolean },
  io: Output,
): Promise<CommandResult> {
  if (options.list) return undoList(locations, io);
  const nowMs = Date.now();
  if (options.skip) {
    const skipped = await skipChange({ locations });
    const what = describeChange(skipped.record, { nowMs }, skipped.batch);
    io.out(
      sanitizeInline(
        `Skipped ${what}${skipped.why ? `, which cannot be undone: ${skipped.why}` : ''}. It stays as it is; pi-sessions undo now takes back the change before it.`,
      ),
    );
    return { code: 0 };
  }
  try {
    const outcome = await undoLatest({ locations }, { force: options.force });
    const what = describeChange(outcome.record, { nowMs }, outcome.batch);
    const partly = outcome.notRestored ? `; ${outcome.notRestored}` : '';
    io.out(sanitizeInline(`Undid ${what}: ${plainAction(outcome.undo)}${partly}.`));
    warnJournal(io, outcome.journalWarning);
    return { code: 0 };
  } catch (error) {
    if (error instanceof UndoBlocked) {
      io.err(`pi-sessions: ${sanitizeInline(error.message)}${SKIP_HINT}`);
      return { code: 1 };
    }
    throw error;
  }
}

/** `redo [--force]`: takes back the latest undo. */
export async function redoCommand(locations: Locations, force: boolean, io: Output): Promise<CommandResult> {
  const outcome = await redoChange({ locations }, { force });
  const what = describeChange(outcome.change, { nowMs: Date.now() }, outcome.changes);
  io.out(sanitizeInline(`Redid ${what}: ${plainAction(outcome.redo)}.`));
  warnJournal(io, outcome.journalWarning);
  return { code: 0 };
}
