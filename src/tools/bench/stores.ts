/**
 * The bench's stores, written by the app's own generator (src/tools/generate) and cached under the OS
 * temp dir between runs. The cache key covers the options and the generator's code, so a changed
 * generator never measures a stale store.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StoreOptions, writeStore } from '../generate/store.js';

const GENERATOR_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'generate');

function cacheKey(options: StoreOptions): string {
  const hash = createHash('sha1').update(JSON.stringify(options));
  for (const name of readdirSync(GENERATOR_DIR).sort())
    if (name.endsWith('.js')) hash.update(readFileSync(join(GENERATOR_DIR, name)));
  return hash.digest('hex').slice(0, 12);
}

/**
 * The sessions root of the store `name` for `options`, generated on first use. It is written
 * beside its final place and renamed into it, so an interrupted run or a second bench running at
 * the same time never sees (or clobbers) a half-written store.
 */
export function cachedStore(name: string, options: StoreOptions, log: (text: string) => void): string {
  const home = join(tmpdir(), 'pi-sessions-bench', `${name}-${cacheKey(options)}`);
  const out = join(home, 'sessions');
  if (existsSync(out)) return out;
  log(`generating ${name} (${JSON.stringify(options)}) …`);
  const partial = join(home, `sessions.partial-${process.pid}`);
  writeStore(partial, options, true);
  try {
    renameSync(partial, out);
  } catch (error) {
    // Another bench finished the same store first: use its copy.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(out)) throw error;
  }
  return out;
}

/** The one session file of a store made only of its `oneBigMb` session. */
export function onlySessionFile(root: string): string {
  for (const folder of readdirSync(root)) {
    if (!folder.startsWith('--')) continue;
    const file = readdirSync(join(root, folder)).find((name) => name.endsWith('.jsonl'));
    if (file) return join(root, folder, file);
  }
  throw new Error(`no session file under ${root}`);
}

/** The session files of a sessions root (one level of project folders), sorted. */
export function sessionFiles(root: string): string[] {
  const files: string[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!dir.isDirectory()) continue;
    for (const name of readdirSync(join(root, dir.name)).sort())
      if (name.endsWith('.jsonl')) files.push(join(root, dir.name, name));
  }
  return files;
}

/** Every store the bench measures, made in this one place. */
export interface BenchStores {
  /** Sessions root of store a: 40 projects, 2,000 sessions, 150 entries, 2 KB tool output (~470 MB). */
  storeA: string;
  /** The one file of store big: one ~100 MB session. */
  bigFile: string;
  /** Sessions root of store c10k: 40 projects, 10,000 sessions, 60 entries, 1 KB tool output. */
  store10k: string;
  /** The one file of store big100k: one ~100 MB session of ~100k entries (the tree figures). */
  tree100kFile: string;
}

/** `quick` makes smaller a and c10k stores, for a smoke run. */
export function benchStores(quick: boolean, log: (text: string) => void): BenchStores {
  return {
    storeA: cachedStore(
      quick ? 'a-quick' : 'a',
      { projects: 40, sessions: quick ? 200 : 2000, entries: 150, toolBytes: 2048, seed: 1 },
      log,
    ),
    bigFile: onlySessionFile(cachedStore('big', { projects: 1, sessions: 0, oneBigMb: 100, seed: 1 }, log)),
    store10k: cachedStore(
      quick ? 'c10k-quick' : 'c10k',
      { projects: 40, sessions: quick ? 1000 : 10_000, entries: 60, toolBytes: 1024, seed: 1 },
      log,
    ),
    tree100kFile: onlySessionFile(
      cachedStore('big100k', { projects: 1, sessions: 0, oneBigMb: 100, bigToolBytes: 320, seed: 2 }, log),
    ),
  };
}

/**
 * Sessions root of store f50k: 200 projects, 50,000 small sessions (20 entries, 256-byte tool
 * output), the store of a user who keeps everything. Made only when a figure asks for it.
 */
export function store50k(quick: boolean, log: (text: string) => void): string {
  return cachedStore(
    quick ? 'f50k-quick' : 'f50k',
    { projects: 200, sessions: quick ? 5000 : 50_000, entries: 20, toolBytes: 256, seed: 1 },
    log,
  );
}
