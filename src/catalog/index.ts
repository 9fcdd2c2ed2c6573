/** The session catalogue: a persisted, incrementally refreshed listing cache (format in format.ts, listing in list.ts). */
export { listSessionsCached, type CachedListOptions, type CachedListResult, type RefreshStats } from './list.js';
export { catalogueDir, catalogueFile, loadCatalogue, Catalogue } from './file.js';
export { CatalogueSink, writeCatalogue, type PlannedRecord } from './writer.js';
export { CATALOGUE_FORMAT, CATALOGUE_VERSION, type CatalogueHeader, type CatalogueRecord, type SessionRecord } from './format.js';
export { summarizeFull, summarizeAppended, type ResumePoint, type Summarised } from './incremental.js';
export { nodeIo, countingIo, type FileIo } from './io.js';
