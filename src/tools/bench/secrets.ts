/**
 * The secret scan of store a (2,000 sessions, ~470 MB) next to the cold listing of the same store:
 * the scan reads every string of every entry (tool output included, which the listing skips) and
 * runs secretlint's rules over them; the target is "not much longer than reading it". Cold: no
 * catalogue, so every file is scanned and the findings are written to a new one; warm: the same
 * store again with that catalogue, which answers for every unchanged file (the target: no file read).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RACY_MS } from '../../catalog/format.js';
import { scanStoreSecretsCached } from '../../catalog/index.js';
import { listSessions, resolveLocations } from '../../store/index.js';
import { sessionFiles } from './stores.js';

export interface SecretBenchContext {
  storeA: string;
  rounds: number;
  log: (text: string) => void;
  median: (values: number[]) => number;
  fmt: (ms: number) => string;
}

/** A store generated moments ago holds files a scan must not keep yet ("racy"): wait until none is. */
async function settle(root: string): Promise<void> {
  const newest = Math.max(...sessionFiles(root).map((file) => statSync(file).mtimeMs));
  const wait = newest + RACY_MS + 100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

export async function secretBenches(ctx: SecretBenchContext): Promise<Record<string, unknown>> {
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: dirname(ctx.storeA) } });
  await settle(ctx.storeA);
  const listing: number[] = [];
  const cold: number[] = [];
  const coldSave: number[] = [];
  const warm: number[] = [];
  let files = 0;
  let findings = 0;
  let warmScanned = 0;
  // The cold scan is long: at most 3 rounds of each, alternated so all see the same page cache.
  for (let i = 0; i < Math.min(ctx.rounds, 3); i++) {
    const cacheDir = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-secrets-'));
    try {
      let t0 = performance.now();
      await listSessions(locations, { scope: 'all' });
      listing.push(performance.now() - t0);

      t0 = performance.now();
      const report = await scanStoreSecretsCached(locations, 'all', { cacheDir });
      const scanned = performance.now();
      await report.saved;
      cold.push(performance.now() - t0);
      coldSave.push(performance.now() - scanned);
      files = report.files.length;
      findings = report.files.reduce((n, f) => n + f.findings.length, 0);

      t0 = performance.now();
      const again = await scanStoreSecretsCached(locations, 'all', { cacheDir });
      await again.saved;
      warm.push(performance.now() - t0);
      warmScanned = again.scanned;
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }
  const ratio = ctx.median(cold) / ctx.median(listing);
  ctx.log(
    `\nsecret scan of store a (${files} sessions, ${findings} found), cold (no catalogue): ${ctx.fmt(ctx.median(cold))} (saving the findings: ${ctx.fmt(ctx.median(coldSave))})   cold listing: ${ctx.fmt(ctx.median(listing))}   ratio ${ratio.toFixed(2)}×`,
  );
  ctx.log(
    `secret scan of store a, warm (catalogue): ${ctx.fmt(ctx.median(warm))}, ${warmScanned} files read (target 0)   ratio to the cold listing ${(ctx.median(warm) / ctx.median(listing)).toFixed(2)}×`,
  );
  return {
    secretScan: {
      sessions: files,
      findings,
      medianMs: ctx.median(cold),
      saveMs: ctx.median(coldSave),
      warmMs: ctx.median(warm),
      warmFilesRead: warmScanned,
      listingMs: ctx.median(listing),
      ratioToListing: ratio,
    },
  };
}
