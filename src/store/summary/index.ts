/** The listing: each session's summary (title, counts, text places, tool facts), the SessionInfo record and the store-wide list, labels. The store's public face for this job (re-exported by ../index.ts). */

export { type EntryPlace, entryPlaces } from './entry-place.js';
export { type SessionLabel, sessionLabels } from './labels.js';
export {
  discoverSessionFiles,
  type ListOptions,
  type ListResult,
  type ListScope,
  listSessions,
  sortByModified,
} from './list.js';
export { SESSION_INFO_FIELDS, SESSION_INFO_KEYS, sessionInfoJson } from './session-info.js';
export { sessionTitle, summarizeFileSync } from './summary.js';
