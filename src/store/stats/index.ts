/** Usage statistics: tokens and cost per day, model and project. The store's public face for this job (re-exported by ../index.ts). */

export {
  type BranchStats,
  type ExcludedValue,
  isoWeek,
  localDay,
  modelOf,
  type SessionStats,
  type StatsRange,
  type StatsReport,
  type StatsRow,
  statsOf,
  statsOfFiles,
  statsOfFilesAsync,
  storeStats,
} from './stats.js';
