/**
 * What Ctrl+Z in the picker and the tree says: both screens undo the latest change
 * in the journal through the store's `undoStep`, and turn its answer into a status line or, when
 * pi has written since that change, a question asked first. Pure text, shared by both reducers.
 */
import { basename } from 'node:path';
import type { JournalRecord } from '../store/journal.js';
import type { UndoStep } from '../store/undo.js';

/** A change pi has built on since: undone only once the user says so (by its journal id). */
export interface UndoQuestion {
  id: string;
  text: string;
}

export type UndoReply =
  | { kind: 'status'; text: string; tone: 'info' | 'success' | 'error' }
  | { kind: 'ask'; question: UndoQuestion; warning?: string };

/** The session a change is about as the user knows it: a slim is about the original. */
function fileOf(record: JournalRecord): string {
  return basename(record.kind === 'slim' ? record.source : record.path);
}

/** "name it "x" again" → "name it "x"" after "Undid …:". */
function plainUndo(undo: string): string {
  return undo.replace(/ again$/, '');
}

export const UNDOING = 'Undoing the latest change…';

export function undoReply(step: UndoStep): UndoReply {
  const warning = step.warning;
  switch (step.kind) {
    case 'nothing':
      return warning
        ? { kind: 'status', text: `Nothing to undo: ${warning}`, tone: 'error' }
        : { kind: 'status', text: 'Nothing to undo', tone: 'info' };
    case 'ask': {
      const { record, undo } = step.entry;
      const text = `pi has written to ${fileOf(record)} since pi-sessions' ${record.kind}: undo it anyway (${plainUndo(undo)})? Its later entries stay.`;
      return { kind: 'ask', question: { id: record.id!, text }, ...(warning ? { warning } : {}) };
    }
    case 'done': {
      const { record, undo, journalWarning, count } = step.outcome;
      const warnings = [warning, journalWarning].filter((w): w is string => w !== undefined);
      const what = count !== undefined && count > 1 ? `${count} sessions` : fileOf(record);
      const text = `Undid the ${record.kind} of ${what}: ${plainUndo(undo)}${warnings.map((w) => `; warning: ${w}`).join('')}`;
      return { kind: 'status', text, tone: warnings.length > 0 ? 'error' : 'success' };
    }
  }
}

/** The status after the question was answered no. */
export const UNDO_KEPT = 'Nothing was undone';
