/** Reading session files: line splitting, the scan (whole file or from an offset), the parsed session, the bounded parser for lines too long to hold, in-memory migration. The store's public face for this job (re-exported by ../index.ts). */

export { LineSplitter, parseText } from './lines.js';
export { readSession, readSessionFromBuffer, readSessionSync } from './read.js';
export { isGoneSync } from './regular-file.js';
export { type Rewritten, type ScannedFile, type ScanOptions, type Seam, scanFrom, scanFromSync } from './scan.js';
export { cutLineOf, describeTooLarge, READ_LINE_BYTES, type TooLargeLine, tooLargeLineOf } from './too-large.js';
