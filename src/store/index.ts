/** The session store: the one module that reads and writes pi session files. See API.md. */

export {
  auditSession,
  type CheckEnvironment,
  type CheckReport,
  checkFile,
  checkScope,
  checkStore,
  type FileCheck,
  FS_ENVIRONMENT,
} from './check.js';
export {
  type CheckKind,
  type CheckProblem,
  type SessionHealth,
  SLOW_FOR_PI_BYTES,
  TOO_LARGE_TO_AUDIT_BYTES,
} from './check-rules.js';
export {
  buildContext,
  buildContextEntries,
  type ContextOptions,
  entryToMessages,
  type MessageSource,
  type RetainedTailDifference,
  retainedTailOf,
  type SessionContext,
} from './context.js';
export * from './entry.js';
export { type EntryPlace, entryPlaces } from './entry-place.js';
export * from './errors.js';
export { type ForkOptions, type ForkResult, forkSession } from './fork.js';
export {
  type ImplausibleValue,
  MAX_COST_PER_USAGE,
  MAX_TOKENS_PER_USAGE,
} from './implausible.js';
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
} from './journal.js';
export {
  agoText,
  type DescribeContext,
  describeChange,
  describeRedo,
  describeUndo,
  plainAction,
  sessionFile,
  sessionName,
} from './journal-describe.js';
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
} from './journal-file.js';
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
} from './journal-history.js';
export { LOCK_WAIT_MS, withJournalLock } from './journal-lock.js';
export { planTrim, type TrimPlan } from './journal-trim.js';
export { type SessionLabel, sessionLabels } from './labels.js';
export { LineSplitter, parseText } from './lines.js';
export {
  discoverSessionFiles,
  type ListOptions,
  type ListResult,
  type ListScope,
  listSessions,
  sortByModified,
} from './list.js';
export {
  encodeCwd,
  expandPath,
  isPathWithin,
  type LocationInputs,
  type Locations,
  resolveLocations,
} from './locations.js';
export { migrateFileAtomically } from './migrate-file.js';
export { readSession, readSessionFromBuffer, readSessionSync } from './read.js';
export {
  type RedoEntry,
  type RedoOutcome,
  type RedoRequest,
  type RedoStep,
  redoable,
  redoChange,
  redoStep,
} from './redo.js';
export { isGoneSync } from './regular-file.js';
export { looksLikePath, resolveSessionArg } from './resolve.js';
export { type Rewritten, type ScannedFile, type ScanOptions, type Seam, scanFrom, scanFromSync } from './scan.js';
export { SESSION_INFO_FIELDS, SESSION_INFO_KEYS, sessionInfoJson } from './session-info.js';
export { planSlim, type SlimPlan, type SlimResult, slimSession } from './slim.js';
export {
  type BranchStats,
  type ExcludedValue,
  isoWeek,
  localDay,
  type SessionStats,
  type StatsRange,
  type StatsReport,
  type StatsRow,
  statsOf,
  statsOfFiles,
  statsOfFilesAsync,
  storeStats,
} from './stats.js';
export { sessionTitle, summarizeFileSync } from './summary.js';
export { cutLineOf, describeTooLarge, READ_LINE_BYTES, type TooLargeLine, tooLargeLineOf } from './too-large.js';
export {
  type RestoreOutcome,
  restoreSessions,
  type TrashedSession,
  type TrashFunction,
  type TrashOutcome,
  trashSessions,
} from './trash.js';
export {
  activePath,
  branchPointCount,
  buildTree,
  childrenOf,
  getBranch,
  parentOf,
  type SessionTree,
  sessionUsage,
  subtreeUsage,
} from './tree.js';
export * from './types.js';
export {
  isMomentAgo,
  listUndoableChecked,
  OWN_CHANGE_MS,
  type SkipOutcome,
  skipChange,
  UndoBlocked,
  type UndoEntry,
  type UndoList,
  type UndoOutcome,
  type UndoRequest,
  type UndoScope,
  type UndoStep,
  undoChange,
  undoLatest,
  undoStep,
} from './undo.js';
export {
  type AppendView,
  appendPlanned,
  type EntryPlanner,
  type Journalled,
  newEntryId,
  renameSession,
  sanitizeSessionName,
  setLabel,
  type TextSource,
  uuidv7,
  type WriteNote,
} from './write.js';
export { type BranchResult, branchInPlace, branchTarget, moveLeaf } from './write-branch.js';
