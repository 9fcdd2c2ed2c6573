/** The audit: the rules a session file is judged by and the check of a file, a scope or the store (never writes). The store's public face for this job (re-exported by ../index.ts). */

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
} from './rules.js';
