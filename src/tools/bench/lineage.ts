/**
 * `--only lineage`: what joining forks to the tree costs when a tree opens, on the
 * 10,000-session store with its catalogue saved: reading the catalogue's records (once per app),
 * and finding the forks and parent of the session with the most forks (the records filtered,
 * then only the fork files read), next to reading and building that session's own tree, which
 * opening it costs anyway. The store is only read; the catalogue goes to a temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { listSessionsCached } from '../../catalog/index.js';
import { catalogueSessions, findLineage, parentResolver } from '../../catalog/lineage.js';
import { buildTree, readSession, resolveLocations } from '../../store/index.js';

export interface LineageBenchContext {
  store10k: string;
  rounds: number;
  log(text: string): void;
  median(values: number[]): number;
  fmt(ms: number): string;
}

export async function lineageBenches(ctx: LineageBenchContext): Promise<Record<string, unknown>> {
  const { rounds, log, median, fmt } = ctx;
  const cacheDir = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-lineage-'));
  try {
    // The store is `<agent dir>/sessions`.
    const where = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: dirname(ctx.store10k) } });
    const listing = await listSessionsCached(where, { scope: 'all', cacheDir });
    await listing.saved;
    const read: number[] = [];
    let known = catalogueSessions(where, {}, cacheDir);
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      known = catalogueSessions(where, {}, cacheDir);
      read.push(performance.now() - t);
    }
    const parentPathOf = parentResolver(known);
    const counts = new Map<string, number>();
    for (const s of known) {
      if (s.parentSessionPath === undefined) continue;
      const parent = parentPathOf(s.parentSessionPath);
      counts.set(parent, (counts.get(parent) ?? 0) + 1);
    }
    const parentPath = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (parentPath === undefined) throw new Error('the store has no forks');
    const find: number[] = [];
    const tree: number[] = [];
    let forks = 0;
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      const session = await readSession(parentPath);
      if (!session.ok) throw new Error(`${parentPath}: ${session.message}`);
      const built = buildTree(session);
      tree.push(performance.now() - t);
      t = performance.now();
      forks = (await findLineage(parentPath, session, built, known)).forks.length;
      find.push(performance.now() - t);
    }
    const figures = {
      sessions: known.length,
      catalogueReadMs: median(read),
      findMs: median(find),
      forks,
      ownTreeMs: median(tree),
    };
    log(`\ntree lineage (${known.length} sessions, catalogue saved):`);
    log(`  catalogue records read (once per app, after the tree is drawn): ${fmt(figures.catalogueReadMs)}`);
    log(
      `  forks + parent of the most-forked session: ${fmt(figures.findMs)} (${forks} fork files read); its own read + tree: ${fmt(figures.ownTreeMs)}`,
    );
    return { lineage: figures };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
