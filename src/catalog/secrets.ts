/**
 * The secret scan of a scope (`check --secrets`, the check view's secrets filter, `has:secret`)
 * with its results kept in the catalogue: a file whose size, mtime and inode are those its kept
 * scan saw (and scanned by the same rules) is answered from the catalogue without being read; any
 * other file is scanned, and its findings (masked, as the scan reports them) are saved for next
 * time. A file modified within RACY_MS of being scanned is not kept: a write in the same mtime tick
 * could change it unseen.
 *
 * The catalogue is a cache: when it cannot be read or written the scan is the same, only slower.
 */
import { statSync } from 'node:fs';
import {
  type FileSecrets,
  type ListScope,
  type Locations,
  type ScannedState,
  type SecretCache,
  type SecretReport,
  type StoreScanOptions,
  scanStoreSecrets,
  secretRulesId,
} from '../store/index.js';
import { type Catalogue, catalogueDir, catalogueFile, loadCatalogue } from './file.js';
import { type CatalogueRecord, RACY_MS, type SecretsRecord, secretsHold } from './format.js';
import { copyOf, type PlannedRecord, writeCatalogue } from './writer.js';

export interface CachedScanOptions extends Omit<StoreScanOptions, 'cache'> {
  /** false: no catalogue (nothing under the cache folder is read or written). */
  cache?: boolean;
  /** Where catalogues live (default `catalogueDir(env)`). */
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
}

export interface CachedSecretReport extends SecretReport {
  /** Files answered from the catalogue, and files read and scanned. */
  fromCatalogue: number;
  scanned: number;
  /** Settles once the new findings are in the catalogue: true if written, false if nothing was new or it could not be. */
  saved: Promise<boolean>;
}

/** The catalogue's file for a store: one per sessions root, as the listing's. */
function catalogueOf(locations: Locations, options: CachedScanOptions): { file: string; root: string } {
  const root = locations.customDir ? locations.sessionDir : locations.sessionsRoot;
  return { file: catalogueFile(options.cacheDir ?? catalogueDir(options.env), root), root };
}

/** The `SecretCache` a loaded catalogue answers for the rules `rulesId`; what it learns is gathered in `learned`. */
export function catalogueSecretCache(
  catalogue: Catalogue | undefined,
  learned: Map<string, SecretsRecord>,
  rulesId: string,
): SecretCache & { hits: number } {
  return {
    hits: 0,
    get(path: string, state: ScannedState): FileSecrets | undefined {
      const k = catalogue?.records.get(path)?.k;
      if (!k || !secretsHold(k, rulesId, state.size, state.mtimeMs, state.ino)) return undefined;
      this.hits++;
      return { path, sessionId: k.d, findings: k.f.map((f) => ({ ...f })) };
    },
    set(path: string, state: ScannedState, result: FileSecrets): void {
      if (state.statAtMs - state.mtimeMs < RACY_MS) return;
      const findings = result.findings.map(({ entryId, line, kind, masked }) => ({ entryId, line, kind, masked }));
      learned.set(path, {
        z: state.size,
        m: state.mtimeMs,
        i: state.ino,
        v: rulesId,
        d: result.sessionId,
        f: findings,
      });
    },
  };
}

/**
 * Writes what a scan learned into the catalogue as it is now (read again: a listing may have saved
 * it meanwhile): each record keeps its listing and gets its file's scan; a file the catalogue did not
 * know gets a record of its scan alone. Such records of files that are gone are dropped.
 */
export async function saveSecrets(file: string, root: string, learned: Map<string, SecretsRecord>): Promise<boolean> {
  if (learned.size === 0) return false;
  const catalogue = loadCatalogue(file, root);
  catalogue?.hold();
  try {
    const plan: PlannedRecord[] = [];
    const known = new Set<string>();
    for (const record of catalogue?.records.values() ?? []) {
      known.add(record.p);
      const k = learned.get(record.p);
      if (!k && record.s === undefined && record.x === undefined && !exists(record.p)) continue;
      const planned = copyOf(record);
      if (k) planned.record.k = k;
      plan.push(planned);
    }
    for (const [path, k] of learned) {
      if (known.has(path)) continue;
      const record: CatalogueRecord = { p: path, z: k.z, m: k.m, i: k.i, k };
      plan.push({ record });
    }
    return await writeCatalogue(file, root, plan, catalogue);
  } finally {
    catalogue?.release();
  }
}

function exists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `scanStoreSecrets` of the scope, answered from the catalogue where it can be. */
export async function scanStoreSecretsCached(
  locations: Locations,
  scope: ListScope,
  options: CachedScanOptions = {},
): Promise<CachedSecretReport> {
  const { cache: useCache, cacheDir: _dir, env: _env, ...scan } = options;
  if (useCache === false) {
    const report = await scanStoreSecrets(locations, scope, scan);
    return { ...report, fromCatalogue: 0, scanned: report.files.length, saved: Promise.resolve(false) };
  }
  const { file, root } = catalogueOf(locations, options);
  const catalogue = loadCatalogue(file, root);
  const learned = new Map<string, SecretsRecord>();
  const cache = catalogueSecretCache(catalogue, learned, await secretRulesId());
  let report: SecretReport;
  try {
    report = await scanStoreSecrets(locations, scope, { ...scan, cache });
  } finally {
    // No row was handed out: this closes the file.
    catalogue?.hold();
    catalogue?.release();
  }
  // What a scan cut short learned holds as well. A cache: a failure to save is not the caller's.
  const saved = saveSecrets(file, root, learned).catch(() => false);
  return { ...report, fromCatalogue: cache.hits, scanned: report.files.length - cache.hits, saved };
}
