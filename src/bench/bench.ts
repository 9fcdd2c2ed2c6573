/**
 * `npm run bench`: speed and memory of the session store, each next to floors measured in the same
 * run on the same files (the machine is shared and noisy: compare ratios and medians, not absolute
 * times across runs).
 *
 * Stores (generated with ../shared/tools/gen-sessions.mjs, cached under the OS temp dir):
 *   a) 40 projects, 2,000 sessions, 150 entries, 2 KB tool output (~470 MB)
 *   b) one ~100 MB session
 * Floors:
 *   1) read each file into a Buffer, cut lines at `\n` in the Buffer, decode + JSON.parse each line
 *   2) the same, skipping lines that start like a toolResult message
 *
 * Options: --rounds N (default 5), --quick (fewer sessions, for a smoke run), --json.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTree, getBranch, listSessions, readSessionSync, resolveLocations } from '../store/index.js';
import { extraBenches } from './extra.js';
import { catalogBenches } from './catalog.js';
import { writeBenches } from './write-block.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..', '..');
const GENERATOR = resolve(REPO, '..', 'shared', 'tools', 'gen-sessions.mjs');

const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 5;
const quick = args.includes('--quick');
const asJson = args.includes('--json');

function log(text: string): void {
  if (!asJson) process.stdout.write(`${text}\n`);
}

function generate(name: string, generatorArgs: string[]): string {
  const out = join(tmpdir(), 'pi-sessions-bench', name, 'sessions');
  if (existsSync(join(out, '.complete'))) return out;
  if (!existsSync(GENERATOR)) throw new Error(`generator not found: ${GENERATOR}`);
  log(`generating ${name} (${generatorArgs.join(' ')}) …`);
  execFileSync(process.execPath, [GENERATOR, '--out', out, '--clean', '--quiet', ...generatorArgs], { stdio: 'inherit' });
  execFileSync('touch', [join(out, '.complete')]);
  return out;
}

function sessionFiles(root: string): string[] {
  const files: string[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const name of readdirSync(join(root, dir.name))) if (name.endsWith('.jsonl')) files.push(join(root, dir.name, name));
  }
  return files;
}

const TOOL_RESULT_START = Buffer.from('{"type":"message",');
const TOOL_RESULT_ROLE = Buffer.from('"role":"toolResult"');

/** Floor: whole file into a Buffer, lines cut in the Buffer, each decoded and parsed. */
function floor(files: string[], skipToolResults: boolean): number {
  let parsed = 0;
  for (const file of files) {
    const buf = readFileSync(file);
    let start = 0;
    while (start < buf.length) {
      let end = buf.indexOf(10, start);
      if (end === -1) end = buf.length;
      if (end > start) {
        const skip =
          skipToolResults &&
          buf.compare(TOOL_RESULT_START, 0, TOOL_RESULT_START.length, start, start + TOOL_RESULT_START.length) === 0 &&
          buf.subarray(start, Math.min(end, start + 300)).indexOf(TOOL_RESULT_ROLE) !== -1;
        if (!skip) {
          try {
            JSON.parse(buf.toString('utf8', start, end));
            parsed++;
          } catch {
            // broken lines are part of the work too
          }
        }
      }
      start = end + 1;
    }
  }
  return parsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function time(fn: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export interface Figure {
  name: string;
  medianMs: number;
  samples: number[];
}

const results: Record<string, unknown> = {};

async function measure(name: string, fn: () => unknown | Promise<unknown>, n = rounds): Promise<Figure> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(await time(fn));
  return { name, medianMs: median(samples), samples };
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

/** Peak RSS of opening + tree-building one file, in a fresh process (so nothing else counts). */
function peakRss(file: string): { rssBytes: number; ms: number } {
  const script = `
    const { readSessionSync, buildTree } = await import(${JSON.stringify(new URL('../store/index.js', import.meta.url).href)});
    const t0 = performance.now();
    const s = readSessionSync(${JSON.stringify(file)});
    const tree = buildTree(s);
    const ms = performance.now() - t0;
    process.stdout.write(JSON.stringify({ ms, entries: tree.order.length, rssBytes: process.resourceUsage().maxRSS * 1024 }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as { rssBytes: number; ms: number };
}

async function main(): Promise<void> {
  const storeA = generate(quick ? 'a-quick' : 'a', ['--projects', '40', '--sessions', quick ? '200' : '2000', '--entries', '150', '--tool-bytes', '2048', '--seed', '1']);
  const storeB = generate('big', ['--projects', '1', '--sessions', '0', '--one-big', '100', '--seed', '1']);
  const filesA = sessionFiles(storeA);
  const bytesA = filesA.reduce((sum, f) => sum + statSync(f).size, 0);
  const bigFile = sessionFiles(storeB)[0]!;
  const bigBytes = statSync(bigFile).size;
  log(`store a: ${filesA.length} sessions, ${(bytesA / 1048576).toFixed(0)} MiB; store b: ${(bigBytes / 1048576).toFixed(0)} MiB, rounds: ${rounds}`);

  // Warm the page cache once so every contender reads from memory.
  floor(filesA, false);
  floor([bigFile], false);

  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: dirname(storeA) } });
  const listing: number[] = [];
  const floor2: number[] = [];
  const floor1A: number[] = [];
  let listed = 0;
  for (let i = 0; i < rounds; i++) {
    floor2.push(await time(() => floor(filesA, true)));
    listing.push(await time(async () => (listed = (await listSessions(locations, { scope: 'all' })).sessions.length)));
    floor1A.push(await time(() => floor(filesA, false)));
  }
  const listRatio = median(listing) / median(floor2);
  results['listing'] = { sessions: listed, medianMs: median(listing), floor2Ms: median(floor2), floor1Ms: median(floor1A), ratioToFloor2: listRatio, target: '≤ 1.2× floor 2' };
  log(`\nfull listing (${listed} sessions):     ${fmt(median(listing))}   floor 2: ${fmt(median(floor2))}   ratio ${listRatio.toFixed(2)}× (target ≤ 1.2×)   [floor 1: ${fmt(median(floor1A))}]`);

  const open: number[] = [];
  const floor1: number[] = [];
  let entries = 0;
  for (let i = 0; i < rounds; i++) {
    floor1.push(await time(() => floor([bigFile], false)));
    open.push(
      await time(() => {
        const s = readSessionSync(bigFile);
        if (!s.ok) throw new Error(s.message);
        const tree = buildTree(s);
        entries = tree.order.length;
        getBranch(tree, tree.leafId);
      }),
    );
  }
  const openRatio = median(open) / median(floor1);
  const rss = peakRss(bigFile);
  results['bigSession'] = {
    bytes: bigBytes,
    entries,
    openTreeMedianMs: median(open),
    floor1Ms: median(floor1),
    ratioToFloor1: openRatio,
    peakRssBytes: rss.rssBytes,
    peakRssToFileSize: rss.rssBytes / bigBytes,
    targets: 'open + tree ≤ 1.2× floor 1; peak RSS ≤ 3× file size',
  };
  log(`open + tree of big session (${entries} entries): ${fmt(median(open))}   floor 1: ${fmt(median(floor1))}   ratio ${openRatio.toFixed(2)}× (target ≤ 1.2×)`);
  log(`peak RSS (fresh process, open + tree):  ${(rss.rssBytes / 1048576).toFixed(0)} MiB = ${(rss.rssBytes / bigBytes).toFixed(2)}× file size (target ≤ 3×)`);

  Object.assign(results, await extraBenches({ storeA, bigFile, rounds, log, measure, median, fmt }));
  Object.assign(results, await catalogBenches({ storeA, rounds, quick, log, median, fmt, generate }));
  Object.assign(results, await writeBenches({ bigFile, rounds, log, median, fmt }));

  if (asJson) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
