/** The listing: each session's summary (title, counts, text places, tool facts), the SessionInfo record and the store-wide list, labels. The store's public face for this job (re-exported by ../index.ts). */

export { type EntryPlace, entryPlaces } from './entry-place.js';
export { type ResumePoint, type Summarised, summarizeAppended, summarizeFull } from './incremental.js';
export { type SessionLabel, sessionLabels } from './labels.js';
export {
  createSlicer,
  discoverSessionFiles,
  discoverSessionFilesSliced,
  inScope,
  type ListOptions,
  type ListResult,
  type ListScope,
  listSessions,
  type PauseFn,
  sortByModified,
  waitWhilePaused,
} from './list.js';
export {
  isSessionRecord,
  SESSION_INFO_FIELDS,
  SESSION_INFO_KEYS,
  type SessionRecord,
  sessionInfoJson,
  toSessionRecord,
} from './session-info.js';
export { summarizeFileSync } from './summary.js';
export { PLACE_CODES } from './text-places.js';
export { sessionTitle } from './title.js';
export { OUTPUT_PER_CALL, OUTPUT_PER_SESSION } from './tool-facts.js';
