/** The journal of every change: its records, the file and its lock, trimming, the history's meaning and its descriptions. The store's public face for this job (re-exported by ../index.ts). */

export {
  agoText,
  type DescribeContext,
  describeChange,
  describeRedo,
  describeUndo,
  plainAction,
  sessionFile,
  sessionName,
} from './describe.js';
export {
  JOURNAL_READ_MAX_BYTES,
  type JournalRead,
  journalDir,
  journalPath,
  loadOwnStates,
  type RecordOutcome,
  readJournal,
  readJournalChecked,
  recordChange,
} from './file.js';
export {
  batchOf,
  fateOf,
  type HistoryExtent,
  historyExtent,
  isChange,
  latestOwnStates,
  type RedoCandidate,
  redoCandidate,
  undoableChanges,
} from './history.js';
export { LOCK_WAIT_MS, withJournalLock } from './lock.js';
export {
  boundedText,
  CHANGE_KINDS,
  type FileState,
  isAsWeLeftIt,
  JOURNAL_KEEP_BYTES,
  JOURNAL_KEEP_RECORDS,
  JOURNAL_MAX_BYTES,
  type JournalKind,
  type JournalNote,
  type JournalRecord,
  journalLine,
  parseJournal,
  parseJournalLine,
  preview,
  RECORD_MAX_BYTES,
  TEXT_INLINE_MAX,
} from './records.js';
export { planTrim, type TrimPlan } from './trim.js';
