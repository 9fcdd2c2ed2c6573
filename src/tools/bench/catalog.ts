/**
 * Catalogue figures, each next to the stat-every-file floor of the same run:
 * cold start, warm start (first paint, complete list; in a fresh process each round), after 10
 * files were appended to, after 10 files were replaced, and search keystrokes on the warm list.
 *
 * The stores are not touched: each is hard-linked into a work folder, and the 20 files that get
 * changed are first copied (new inodes) so the originals never see a byte of it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RACY_MS } from '../../catalog/format.js';
import { catalogueFile, listSessionsCached } from '../../catalog/index.js';
import { countingIo, resolveLocations } from '../../store/index.js';
import { statFloor } from './stat-floor.js';
import { sessionFiles } from './stores.js';

export interface CatalogBenchContext {
  /** Sessions root of the 2,000-session bench store. */
  storeA: string;
  /** Sessions root of the 10,000-session bench store. */
  store10k: string;
  rounds: number;
  log(text: string): void;
  median(values: number[]): number;
  fmt(ms: number): string;
}

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'catalog-child.js');
const QUERY = 'refactor';
const CHANGED = 10;

interface ChildFigures {
  sessions: number;
  paintMs: number;
  completeMs: number;
  floorMs: number;
  earlyKeystrokeMs: number;
  earlyUnindexed: number;
  indexMs: number;
  keystrokes: number[];
  matches: number;
}

/** A private copy of a file (new inode) with the same times, so editing it leaves the store alone. */
function unlink(path: string): void {
  const { atime, mtime } = statSync(path);
  copyFileSync(path, `${path}.copy`);
  renameSync(`${path}.copy`, path);
  utimesSync(path, atime, mtime);
}

async function benchStore(
  ctx: CatalogBenchContext,
  label: string,
  sessionsRoot: string,
): Promise<Record<string, unknown>> {
  const { rounds, log, median, fmt } = ctx;
  const work = join(tmpdir(), 'pi-sessions-bench', `catalog-work-${label}`);
  rmSync(work, { recursive: true, force: true });
  execFileSync('mkdir', ['-p', work]);
  execFileSync('cp', ['-al', sessionsRoot, join(work, 'sessions')]);
  const root = join(work, 'sessions');
  const cacheDir = join(work, 'cache');
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: work } });
  const files = sessionFiles(root);
  const step = Math.floor(files.length / (2 * CHANGED));
  const appendTargets = Array.from({ length: CHANGED }, (_, i) => files[i * 2 * step]!);
  const replaceTargets = Array.from({ length: CHANGED }, (_, i) => files[i * 2 * step + step]!);
  for (const f of [...appendTargets, ...replaceTargets]) unlink(f);
  const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);

  const floors: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    statFloor(root);
    floors.push(performance.now() - t);
  }
  const floor = median(floors);
  log(
    `\ncatalogue: ${files.length} sessions, ${(bytes / 1048576).toFixed(0)} MiB — stat floor (readdir + stat every file): ${fmt(floor)}`,
  );

  // Cold: no catalogue. The list is complete before the (background) save finishes.
  const cold: number[] = [];
  const coldSaved: number[] = [];
  for (let i = 0; i < rounds; i++) {
    rmSync(cacheDir, { recursive: true, force: true });
    const t = performance.now();
    const result = await listSessionsCached(locations, { scope: 'all', cacheDir });
    cold.push(performance.now() - t);
    await result.saved;
    coldSaved.push(performance.now() - t);
  }
  const catalogueBytes = statSync(catalogueFile(cacheDir, root)).size;
  log(
    `  cold (no catalogue):          complete ${fmt(median(cold))}, catalogue saved at ${fmt(median(coldSaved))} (${(catalogueBytes / 1048576).toFixed(1)} MiB)`,
  );

  // Warm: a fresh process per round.
  const warm: ChildFigures[] = [];
  for (let i = 0; i < rounds; i++) {
    const run = spawnSync(process.execPath, [CHILD, JSON.stringify({ agentDir: work, cacheDir, query: QUERY })], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (run.status !== 0) throw new Error(`catalog child failed: ${run.stderr}`);
    warm.push(JSON.parse(run.stdout) as ChildFigures);
  }
  const paint = median(warm.map((w) => w.paintMs));
  const complete = median(warm.map((w) => w.completeMs));
  const childFloor = median(warm.map((w) => w.floorMs));
  log(
    `  warm (fresh process):         first paint ${fmt(paint)}, complete ${fmt(complete)} = ${(complete / childFloor).toFixed(2)}× the floor in that process (${fmt(childFloor)}), ${(complete / floor).toFixed(2)}× the floor above`,
  );

  // 10 files appended to (one pi-sized line each), every round.
  const appended: { ms: number; saveMs: number; read: number; added: number; stats: unknown }[] = [];
  for (let round = 0; round < rounds; round++) {
    let added = 0;
    appendTargets.forEach((f, i) => {
      const line = `${JSON.stringify({ type: 'message', id: `b${round}x${i}`.padEnd(8, '0'), parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: `bench append ${round} ${'lorem ipsum '.repeat(20)}`, timestamp: Date.now() } })}\n`;
      appendFileSync(f, line);
      added += Buffer.byteLength(line);
    });
    const counter = { bytes: 0 };
    const t = performance.now();
    const result = await listSessionsCached(locations, { scope: 'all', cacheDir, io: countingIo(counter) });
    const ms = performance.now() - t;
    await result.saved;
    appended.push({ ms, saveMs: performance.now() - t, read: counter.bytes, added, stats: result.stats });
  }
  const ap = appended[appended.length - 1]!;
  const apMs = median(appended.map((a) => a.ms));
  log(
    `  after ${CHANGED} appended files:       complete ${fmt(apMs)} = ${(apMs / floor).toFixed(2)}× floor, saved at ${fmt(median(appended.map((a) => a.saveMs)))}; read ${ap.read} bytes for ${ap.added} appended (+${ap.read - ap.added} of fingerprint checks, ≤ 320 per file)`,
  );

  // Settle: the files appended to above were modified within RACY_MS of being read, so the
  // catalogue rightly distrusts them once; let that happen outside the next figure.
  await new Promise((resolve) => setTimeout(resolve, RACY_MS + 100));
  await (await listSessionsCached(locations, { scope: 'all', cacheDir })).saved;

  // 10 files replaced (temp file + rename: a new inode, like pi's migration): read in full.
  const replaced: { ms: number; saveMs: number; read: number; sizes: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    let sizes = 0;
    for (const f of replaceTargets) {
      const text = readFileSync(f);
      writeFileSync(
        `${f}.new`,
        Buffer.concat([
          text,
          Buffer.from(
            `${JSON.stringify({ type: 'custom', id: `r${round}`.padEnd(8, '0'), parentId: null, timestamp: new Date().toISOString() })}\n`,
          ),
        ]),
      );
      renameSync(`${f}.new`, f);
      sizes += statSync(f).size;
    }
    const counter = { bytes: 0 };
    const t = performance.now();
    const result = await listSessionsCached(locations, { scope: 'all', cacheDir, io: countingIo(counter) });
    const ms = performance.now() - t;
    await result.saved;
    replaced.push({ ms, saveMs: performance.now() - t, read: counter.bytes, sizes });
  }
  const rpMs = median(replaced.map((r) => r.ms));
  const rp = replaced[replaced.length - 1]!;
  log(
    `  after ${CHANGED} replaced files:       complete ${fmt(rpMs)} = ${(rpMs / floor).toFixed(2)}× floor, saved at ${fmt(median(replaced.map((r) => r.saveMs)))}; read ${rp.read} bytes (the 10 files: ${rp.sizes})`,
  );

  const first = median(warm.map((w) => w.keystrokes[0]!));
  const following = median(warm.map((w) => Math.max(...w.keystrokes.slice(1))));
  log(
    `  search "${QUERY}":              right after the paint (picker: prepared text only, ${warm[0]!.earlyUnindexed} not indexed yet) ${fmt(median(warm.map((w) => w.earlyKeystrokeMs)))}; ` +
      `background indexing ${fmt(median(warm.map((w) => w.indexMs)))}; then first keystroke ${fmt(first)}, following (slowest) ${fmt(following)}; ${warm[0]!.matches} matches`,
  );

  rmSync(work, { recursive: true, force: true });
  return {
    sessions: files.length,
    bytes,
    statFloorMs: floor,
    cold: { completeMs: median(cold), savedMs: median(coldSaved), catalogueBytes },
    warm: {
      firstPaintMs: paint,
      completeMs: complete,
      floorInProcessMs: childFloor,
      ratioToFloor: complete / childFloor,
      samples: warm,
    },
    appended: { completeMs: apMs, ratioToFloor: apMs / floor, rounds: appended },
    replaced: { completeMs: rpMs, ratioToFloor: rpMs / floor, rounds: replaced },
    search: {
      query: QUERY,
      earlyKeystrokeMs: median(warm.map((w) => w.earlyKeystrokeMs)),
      indexMs: median(warm.map((w) => w.indexMs)),
      firstKeystrokeMs: first,
      followingMaxMs: following,
    },
    targets:
      'warm first paint ≤ 100 ms, complete ≤ 3× stat floor (2,000); complete ≤ 1 s (10,000); appends read only new bytes; first keystroke ≤ 100 ms, then ≤ 50 ms',
  };
}

export async function catalogBenches(ctx: CatalogBenchContext): Promise<Record<string, unknown>> {
  return {
    catalogue: {
      store2k: await benchStore(ctx, 'a', ctx.storeA),
      store10k: await benchStore(ctx, 'c10k', ctx.store10k),
    },
  };
}
