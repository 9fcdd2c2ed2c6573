/** The session store: the one module that reads and writes pi session files. See API.md. */
export * from './types.js';
export * from './errors.js';
export * from './entry.js';
export { readSession, readSessionSync, readSessionFromBuffer } from './read.js';
export { buildTree, getBranch, activePath, parentOf, childrenOf, subtreeUsage, sessionUsage, branchPointCount, type SessionTree } from './tree.js';
export { buildContext, buildContextEntries, entryToMessages, retainedTailOf, type SessionContext, type MessageSource, type RetainedTailDifference, type ContextOptions } from './context.js';
export { summarizeFileSync, sessionTitle } from './summary.js';
export { listSessions, discoverSessionFiles, sortByModified, type ListScope, type ListOptions, type ListResult } from './list.js';
export { resolveLocations, encodeCwd, expandPath, isPathWithin, type Locations, type LocationInputs } from './locations.js';
export { appendPlanned, renameSession, setLabel, branchInPlace, branchTarget, sanitizeSessionName, newEntryId, uuidv7, type BranchResult, type AppendView, type EntryPlanner } from './write.js';
export { migrateFileAtomically } from './migrate-file.js';
export { forkSession, type ForkOptions, type ForkResult } from './fork.js';
export { trashSessions, restoreSessions, type TrashedSession, type TrashOutcome, type RestoreOutcome, type TrashFunction } from './trash.js';
export { resolveSessionArg, looksLikePath } from './resolve.js';
export { parseText, LineSplitter } from './lines.js';
export { sessionInfoJson, SESSION_INFO_FIELDS, SESSION_INFO_KEYS } from './session-info.js';
export { scanFrom, scanFromSync, type ScanOptions, type ScannedFile, type Seam, type Rewritten } from './scan.js';
