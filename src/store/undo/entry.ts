/**
 * What undo shows before it acts (an entry of the history) and what it reports after: the shapes
 * the history, the performer and the screens share, apart from the code that makes them.
 */
import type { JournalRecord } from '../journal/records.js';

export interface UndoEntry {
  record: JournalRecord;
  /** Undone together with it (a delete of several sessions: all of them, newest first). */
  batch: JournalRecord[];
  /** What undoing it does. */
  undo: string;
  /** The file changed after our last write (pi wrote to it): undoing needs --force (the screens ask). */
  changedSince: boolean;
  /** Why it cannot be undone (one line): nothing is touched; `skip` passes over it. */
  blocked?: string;
  /** In a batch, the records that cannot be restored (the others are), each with why. */
  stuck?: { record: JournalRecord; why: string }[];
}

export interface UndoOutcome {
  record: JournalRecord;
  /** What was undone together (a delete of several sessions). */
  batch: JournalRecord[];
  undo: string;
  /** How many changes were undone: more than one for a delete of several sessions at once. */
  count?: number;
  /** Sessions of a batch that could not be restored (they were passed over), in one line. */
  notRestored?: string;
  journalWarning?: string;
}
