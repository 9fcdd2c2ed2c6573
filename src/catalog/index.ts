/** The session catalogue: a persisted, incrementally refreshed listing cache (format in format.ts, listing in list.ts). */

export { Catalogue, catalogueDir, catalogueFile, loadCatalogue, openCatalogue } from './file.js';
export {
  CATALOGUE_FORMAT,
  CATALOGUE_VERSION,
  type CatalogueHeader,
  type CatalogueRecord,
  type SecretsRecord,
  type SessionRecord,
} from './format.js';
export {
  type CachedListOptions,
  type CachedListResult,
  HEAD_PAINT_ROWS,
  listSessionsCached,
  type RefreshStats,
} from './list.js';
export {
  type CachedScanOptions,
  type CachedSecretReport,
  catalogueSecretCache,
  saveSecrets,
  scanStoreSecretsCached,
} from './secrets.js';
export { CatalogueSink, type PlannedRecord, writeCatalogue } from './writer.js';
