/** Getting a session out safely: what an export holds, its JSONL, and the secrets in it. */
export { exportBranchJsonl, exportFileJsonl, type JsonlExport, type JsonlTarget, redactLines } from './jsonl.js';
export { mayHoldSecret, rawLineMayHoldSecret } from './markers.js';
export {
  planRedaction,
  type RedactionPlan,
  type RedactionResult,
  redactBytes,
  redactSession,
  TRASH_STILL_HOLDS,
} from './redact-session.js';
export { redactLine, redactString, redactValue } from './redact-text.js';
export {
  type FileSecrets,
  type ScannedState,
  type SecretCache,
  type SecretReport,
  type StoreScanOptions,
  scanFileSecrets,
  scanStoreSecrets,
} from './scan-store.js';
export {
  isPlaceholder,
  maskSecret,
  redactionMark,
  type SecretFinding,
  type SecretScan,
  type SecretScanOptions,
  scanEntries,
  scannableStrings,
  scanSession,
  secretRulesId,
} from './secrets.js';
export { type ExportBranch, type ExportScope, type ExportSelection, selectForExport } from './select.js';
