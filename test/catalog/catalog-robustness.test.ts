/**
 * The session catalogue when things go wrong (a bad, truncated or foreign catalogue is rebuilt
 * without a word), where it lives, and --no-cache.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  CATALOGUE_VERSION,
  catalogueDir,
  catalogueFile,
  listSessionsCached,
  loadCatalogue,
} from '../../src/catalog/index.js';
import { CLI, runCli, sessionsOf } from '../helpers/cli.js';
import { tempDir } from '../helpers/factory.js';
import { age, appendLines, cached, corpusStore, freshList, plain } from './helpers.js';

describe('catalogue: robustness', () => {
  const breakers: [string, (file: string) => void][] = [
    ['missing', (file) => rmSync(file)],
    ['truncated', (file) => truncateSync(file, statSync(file).size - 10)],
    // Inside the metadata, the last section: only the piece it breaks is dropped (its sessions
    // are read from their files, and the catalogue is written again).
    [
      'corrupt metadata',
      (file) =>
        writeFileSync(
          file,
          (({ bytes, at }) =>
            Buffer.concat([bytes.subarray(0, at), Buffer.from('\u0000garbage'), bytes.subarray(at + 8)]))({
            bytes: readFileSync(file),
            at: statSync(file).size - 200,
          }),
        ),
    ],
    [
      'corrupt header',
      (file) =>
        writeFileSync(
          file,
          Buffer.concat([
            Buffer.from('{"format":'),
            readFileSync(file).subarray(10, 40),
            Buffer.from('\u0000'),
            readFileSync(file).subarray(41),
          ]),
        ),
    ],
    ['foreign', (file) => writeFileSync(file, 'hello\n')],
    [
      'older version',
      (file) =>
        writeFileSync(
          file,
          readFileSync(file, 'latin1').replace(
            `"version":${CATALOGUE_VERSION},`,
            `"version":${CATALOGUE_VERSION - 1},`,
          ),
          'latin1',
        ),
    ],
  ];
  for (const [what, breakIt] of breakers) {
    it(`rebuilds a ${what} catalogue silently`, async () => {
      const store = corpusStore();
      await cached(store);
      const file = catalogueFile(store.cacheDir, store.root);
      breakIt(file);
      const fresh = await freshList(store.locations);
      const again = await cached(store);
      if (what === 'corrupt metadata') {
        expect(again.result.stats.catalogue).toBe('loaded');
        expect(again.result.stats.dropped).toBeGreaterThan(0);
        expect(again.result.stats.added).toBeGreaterThan(0);
      } else expect(again.result.stats.catalogue).toBe('missing');
      expect(again.saved).toBe(true);
      expect(again.sessions).toStrictEqual(fresh.sessions);
      const warm = await cached(store);
      expect(warm.result.stats.catalogue).toBe('loaded');
      expect(warm.bytes).toBe(0);
    });
  }

  it('stays valid when several processes write it at once', async () => {
    const store = corpusStore();
    const xdg = tempDir();
    const env = { ...process.env, XDG_CACHE_HOME: xdg, PI_CODING_AGENT_DIR: store.agentDir };
    const run = promisify(execFile);
    for (let round = 0; round < 2; round++) {
      // Every process finds the files changed (touched), so every one of them writes.
      for (const f of store.files) age(f);
      const outputs = await Promise.all(
        [0, 1, 2, 3].map(() => run(process.execPath, [CLI, 'list', '--all', '--json'], { env, cwd: xdg })),
      );
      for (const out of outputs)
        expect(sessionsOf(JSON.parse(out.stdout))).toHaveLength((await freshList(store.locations)).sessions.length);
    }
    const dir = join(xdg, 'pi-sessions');
    const cat = loadCatalogue(catalogueFile(dir, store.root), store.root);
    expect(cat).toBeDefined();
    const warm = await listSessionsCached(store.locations, { scope: 'all', cacheDir: dir });
    expect(warm.stats).toMatchObject({ catalogue: 'loaded', reread: 0, added: 0 });
    expect(warm.sessions.map(plain)).toStrictEqual((await freshList(store.locations)).sessions);
  });
});

describe('catalogue: where it lives, and --no-cache', () => {
  it('honours XDG_CACHE_HOME (absolute only) and defaults to ~/.cache', () => {
    expect(catalogueDir({ XDG_CACHE_HOME: '/x/cache' }, '/home/u')).toBe('/x/cache/pi-sessions');
    expect(catalogueDir({ XDG_CACHE_HOME: 'relative' }, '/home/u')).toBe('/home/u/.cache/pi-sessions');
    expect(catalogueDir({}, '/home/u')).toBe('/home/u/.cache/pi-sessions');
  });

  it('`list` writes its catalogue under XDG_CACHE_HOME; `--no-cache` creates nothing', async () => {
    const store = corpusStore();
    const xdg = join(tempDir(), 'xdg');
    const env = { XDG_CACHE_HOME: xdg, PI_CODING_AGENT_DIR: store.agentDir };
    const off = runCli(['list', '--all', '--json', '--no-cache'], { env });
    expect(off.code).toBe(0);
    expect(existsSync(xdg)).toBe(false);
    const on = runCli(['list', '--all', '--json'], { env });
    expect(on.code).toBe(0);
    expect(on.stdout).toBe(off.stdout);
    expect(existsSync(catalogueFile(join(xdg, 'pi-sessions'), store.root))).toBe(true);
    expect(runCli(['list', '--all', '--json'], { env }).stdout).toBe(off.stdout);
    expect(runCli(['--help']).stdout).toContain('--no-cache');
  });

  it('`cache: false` neither reads nor writes the catalogue', async () => {
    const store = corpusStore();
    const off = await listSessionsCached(store.locations, { scope: 'all', cacheDir: store.cacheDir, cache: false });
    expect(await off.saved).toBe(false);
    expect(off.stats.catalogue).toBe('off');
    expect(existsSync(store.cacheDir)).toBe(false);
    await cached(store);
    const file = catalogueFile(store.cacheDir, store.root);
    const before = readFileSync(file);
    const mtime = statSync(file).mtimeMs;
    // A change the cached listing would write down is left alone with cache: false.
    appendLines(store.files.find((f) => f.endsWith('.jsonl'))!, [
      { type: 'custom', id: 'c0000001', parentId: null, timestamp: '2026-01-05T12:00:00.000Z' },
    ]);
    const fresh = await listSessionsCached(store.locations, { scope: 'all', cacheDir: store.cacheDir, cache: false });
    expect(await fresh.saved).toBe(false);
    expect(fresh.sessions.map(plain)).toStrictEqual((await freshList(store.locations)).sessions);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(mtime);
  });
});
