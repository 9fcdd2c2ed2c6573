/**
 * The secret scan of store a (2,000 sessions, ~470 MB) next to the cold listing of the same store:
 * the scan reads every string of every entry (tool output included, which the listing skips) and
 * runs secretlint's rules over them; the target is "not much longer than reading it".
 */
import { dirname } from 'node:path';
import { listSessions, resolveLocations, scanStoreSecrets } from '../../store/index.js';

export interface SecretBenchContext {
  storeA: string;
  rounds: number;
  log: (text: string) => void;
  median: (values: number[]) => number;
  fmt: (ms: number) => string;
}

export async function secretBenches(ctx: SecretBenchContext): Promise<Record<string, unknown>> {
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: dirname(ctx.storeA) } });
  const listing: number[] = [];
  const scan: number[] = [];
  let files = 0;
  let findings = 0;
  // The scan is long: at most 3 rounds of each, alternated so both see the same page cache.
  for (let i = 0; i < Math.min(ctx.rounds, 3); i++) {
    let t0 = performance.now();
    await listSessions(locations, { scope: 'all' });
    listing.push(performance.now() - t0);
    t0 = performance.now();
    const report = await scanStoreSecrets(locations, 'all');
    scan.push(performance.now() - t0);
    files = report.files.length;
    findings = report.files.reduce((n, f) => n + f.findings.length, 0);
  }
  const ratio = ctx.median(scan) / ctx.median(listing);
  ctx.log(
    `\nsecret scan of store a (${files} sessions, ${findings} found): ${ctx.fmt(ctx.median(scan))}   cold listing: ${ctx.fmt(ctx.median(listing))}   ratio ${ratio.toFixed(2)}×`,
  );
  return {
    secretScan: {
      sessions: files,
      findings,
      medianMs: ctx.median(scan),
      listingMs: ctx.median(listing),
      ratioToListing: ratio,
    },
  };
}
