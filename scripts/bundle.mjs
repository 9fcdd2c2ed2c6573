/**
 * Bundles the CLI and its full-screen views into one ESM file, `bin/pi-sessions.js`, the only
 * program the package ships (with the pi extension, `bin/pi-extension.js`). One file because
 * start-up of the unbundled build opens ~700 module files (415 of them es-toolkit/compat, pulled in
 * by ink) before the first frame; React is built in production mode because its development build
 * allocates several times more per render.
 *
 * Kept out of the bundle:
 * - `trash`: it runs helper binaries that ship inside its own package (macOS, Windows), so it
 *   stays a runtime dependency, loaded only when a session is deleted to the trash.
 * - ink's devtools module (it imports `react-devtools-core`, not a dependency): ink loads it only
 *   when DEV=true and says how to install it when that fails; in the bundle it is that failure.
 *
 * - secretlint and its rules (a quarter of the code): src/store/export/secret-rules.ts, which
 *   imports nothing of ours, is bundled on its own into `bin/pi-sessions-secretlint.js`, and the
 *   CLI's one dynamic import of it loads that file the first time a scan runs, so a start-up that
 *   never scans does not read or parse the rules (test/bundle/lazy-secretlint.test.ts). Only that
 *   import is left out of the CLI bundle: the rest stays one file.
 *
 * The bundles are build output, not committed (bin/ is in .gitignore): a committed bundle went
 * stale after every source edit and made any two branches conflict. npm builds them where it
 * builds packages: package.json's `prepare` runs this script on `npm install` in a clone, in the
 * clone npm makes for a git-URL install (after installing the devDependencies there), and before
 * `npm pack` and `npm publish` pack the files (npm runs `prepare` for those too, so a `prepack`
 * would only bundle twice). A tarball or registry install runs no script: the tarball holds the
 * bundles. Who runs it:
 * - `npm run compile` (after tsc), `npm start` (only this: seconds, where tsc takes a minute);
 * - the tests' global setup (test/global-bundle.ts), so every test command runs the current
 *   sources, `vitest` and `vitest --watch` included.
 * Besides the two shipped files it writes, not shipped (package.json `files`): `dist/src/start.js`,
 * what `npm start` runs, and `dist/bench/ink-hello.js`, the first-paint floor of `npm run bench`.
 */

import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { loadPatches, patchedSource } from './apply-patch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Options shared with the bench's ink "hello" floor, so both pay the same loading, and with the
 * tests that bundle ink as the app has it (test/terminal/ink-frames.test.ts).
 */
export const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'eof',
  external: ['trash'],
  plugins: [
    {
      // patches/*.patch (e.g. ink's output step, which caches rows across frames) go into the bundle.
      name: 'patches',
      setup(b) {
        const patches = loadPatches();
        const files = [...patches.keys()].map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
        b.onLoad({ filter: new RegExp(`(${files.join('|')})$`) }, (args) => {
          const contents = patchedSource(args.path, patches);
          return contents === undefined ? undefined : { contents, loader: 'js' };
        });
      },
    },
    {
      name: 'no-ink-devtools',
      setup(b) {
        b.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
          args.importer.includes('/node_modules/ink/') ? { path: 'ink-devtools', namespace: 'no-devtools' } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'no-devtools' }, () => ({
          contents: "throw new Error('react-devtools-core is not bundled');",
          loader: 'js',
        }));
      },
    },
  ],
  define: {
    'process.env.NODE_ENV': '"production"',
    PI_SESSIONS_VERSION: JSON.stringify(pkg.version),
  },
  // Bundled CommonJS (React, and what ink pulls in) calls `require` for node built-ins.
  banner: {
    js: "import { createRequire as __piSessionsRequire } from 'node:module'; const require = __piSessionsRequire(import.meta.url);",
  },
  // cli.ts sets NODE_ENV at run time for the unbundled build; here the define already did it.
  logOverride: { 'assign-to-define': 'silent' },
  logLevel: 'warning',
};

/** The file the CLI bundle loads secretlint from, beside it in bin/. */
export const SECRETLINT_BUNDLE = 'pi-sessions-secretlint.js';

/** In the CLI bundle, the scanner's dynamic import of secret-rules.ts loads SECRETLINT_BUNDLE instead. */
const secretlintApart = {
  name: 'secretlint-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/secret-rules\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'store', 'export', 'secrets.ts'))
        ? { path: `./${SECRETLINT_BUNDLE}`, external: true }
        : undefined,
    );
  },
};

/** Builds every bundle; `readable` keeps names (for reading a CPU profile of the bundle). */
export async function bundle({ readable = false } = {}) {
  const options = { ...common, minify: !readable };
  await build({
    ...options,
    plugins: [...options.plugins, secretlintApart],
    entryPoints: ['src/cli.ts'],
    outfile: 'bin/pi-sessions.js',
  });
  await build({ ...options, entryPoints: ['src/store/export/secret-rules.ts'], outfile: `bin/${SECRETLINT_BUNDLE}` });
  // Executable, as npm makes a package's `bin` on install, so `./bin/pi-sessions.js` runs in a clone too.
  chmodSync(join(root, 'bin', 'pi-sessions.js'), 0o755);
  // The pi package's extension (package.json `pi.extensions`): it runs the CLI bundle beside it.
  await build({ ...options, entryPoints: ['src/pi-extension/extension.ts'], outfile: 'bin/pi-extension.js' });
  // `npm start`, beside tsc's output of the same file (it finds ../../bin/pi-sessions.js from there).
  await build({ ...options, entryPoints: ['src/start.ts'], outfile: 'dist/src/start.js' });
  await build({ ...options, entryPoints: ['src/tools/bench/ink-hello.tsx'], outfile: 'dist/bench/ink-hello.js' });
}

// `node scripts/bundle.mjs [--readable]`; imported (the tests' global setup), it only exports.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  await bundle({ readable: process.argv.includes('--readable') });
