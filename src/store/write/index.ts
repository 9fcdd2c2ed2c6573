/** Writing session files: the one append path (appendPlanned), branches and notes, forks, slim copies, migration on disk and the atomic file writes under them. The store's public face for this job (re-exported by ../index.ts). */

export { type BranchResult, branchInPlace, branchTarget, moveLeaf } from './branch.js';
export { type ForkOptions, type ForkResult, forkSession } from './fork.js';
export { removeStaleTemps } from './fs-write.js';
export { migrateFileAtomically } from './migrate-file.js';
export { planSlim, type SlimPlan, type SlimResult, slimSession } from './slim.js';
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
