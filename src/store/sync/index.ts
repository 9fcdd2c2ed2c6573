/** Sessions kept in step by a sync tool: conflict copies found, described and merged; the tool's temp files told apart. The store's public face for this job (re-exported by ../index.ts). */
export {
  type ConflictCopy,
  type ConflictGroup,
  type ConflictName,
  type ConflictTool,
  confirmGroups,
  conflictGroups,
  isSyncTempName,
  parseConflictName,
} from './conflict-names.js';
export { COPY_ADDS_LINES, type ConflictAdds, describeConflictAdds, entryLine, type FileAdds } from './copy-adds.js';
export {
  conflictGroupOf,
  conflictProblems,
  copyOrigin,
  findConflictGroups,
  sessionIdSync,
  storeConflictGroups,
} from './find.js';
export { sessionHost } from './host.js';
export {
  type ConflictMergePlan,
  type ConflictMergeResult,
  MERGE_MAX_FILES,
  type MergeFile,
  mergeConflictGroup,
  planConflictMerge,
} from './merge.js';
export { canonicalJson, type MergeInput, type MergePlan, planMerge } from './merge-plan.js';
