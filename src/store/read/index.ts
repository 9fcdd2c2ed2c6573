/** Reading session files: line splitting, the scan (whole file or from an offset), the parsed session, the bounded parser for lines too long to hold, in-memory migration. The store's public face for this job (re-exported by ../index.ts). */

export { countingIo, type FileIo, nodeIo } from './file-io.js';
export { LineSplitter, parseText } from './lines.js';
export {
  type LiveEvent,
  type LiveStart,
  type LiveWatcher,
  type ReloadCause,
  type WatchOptions,
  watchSession,
} from './live.js';
export { readSession, readSessionFromBuffer, readSessionSync } from './read.js';
export { readAtSync, readIntoSync } from './read-at.js';
export { isGoneSync, openRegularSync } from './regular-file.js';
export { type Rewritten, type ScannedFile, type ScanOptions, type Seam, scanFrom, scanFromSync } from './scan.js';
export {
  cutLineOf,
  describeTooLarge,
  READ_LINE_BYTES,
  type TooLargeLine,
  tooLargeLineOf,
  tooLargeMessage,
} from './too-large.js';
