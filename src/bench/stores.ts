/**
 * The bench's stores, written by the app's own generator (src/generate) and cached under the OS
 * temp dir between runs. The cache key covers the options and the generator's code, so a changed
 * generator never measures a stale store.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** The sessions root of the store `name` for `options`, generated on first use. */
export function cachedStore(name: string, options: StoreOptions, log: (text: string) => void): string {
  const out = join(tmpdir(), 'pi-sessions-bench', `${name}-${cacheKey(options)}`, 'sessions');
  const done = join(out, '.complete');
  if (existsSync(done)) return out;
  log(`generating ${name} (${JSON.stringify(options)}) …`);
  writeStore(out, options, true);
  writeFileSync(done, '');
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
