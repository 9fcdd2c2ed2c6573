/**
 * The bench's stores, written by the app's own generator (src/generate) and cached under the OS
 * temp dir between runs. The cache key covers the options and the generator's code, so a changed
 * generator never measures a stale store.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeStore, type StoreOptions } from '../generate/store.js';

const GENERATOR_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'generate');

function cacheKey(options: StoreOptions): string {
  const hash = createHash('sha1').update(JSON.stringify(options));
  for (const name of readdirSync(GENERATOR_DIR).sort()) if (name.endsWith('.js')) hash.update(readFileSync(join(GENERATOR_DIR, name)));
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
