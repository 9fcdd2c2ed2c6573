/**
 * `npm run compile` (after tsc): bundles the CLI and its full-screen views into one ESM file,
 * `bin/pi-sessions.js`, the only program the package ships. One file because start-up of the
 * unbundled build opens ~700 module files (415 of them es-toolkit/compat, pulled in by ink)
 * before the first frame; React is built in production mode because its development build
 * allocates several times more per render.
 *
 * Kept out of the bundle:
 * - `trash`: it runs helper binaries that ship inside its own package (macOS, Windows), so it
 *   stays a runtime dependency, loaded only when a session is deleted to the trash.
 * - ink's devtools module (it imports `react-devtools-core`, not a dependency): ink loads it only
 *   when DEV=true and says how to install it when that fails; in the bundle it is that failure.
 *
 * The bundle is committed: a git-URL install then needs no build step, so no lifecycle script
 * runs on the user's machine (and package.json has no `build`, `prepare` or install script, any
 * of which makes npm "prepare" a git dependency first).
 */

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { loadPatches, patchedSource } from './apply-patch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Options shared with the bench's ink "hello" floor, so both pay the same loading. */
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // `node scripts/bundle.mjs --readable`: names kept, for reading a CPU profile of the bundle.
  minify: !process.argv.includes('--readable'),
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

await build({ ...common, entryPoints: ['src/cli.ts'], outfile: 'bin/pi-sessions.js' });
// The pi package's extension (package.json `pi.extensions`): it runs the CLI bundle beside it.
await build({ ...common, entryPoints: ['src/pi-extension/extension.ts'], outfile: 'bin/pi-extension.js' });
// Not shipped (package.json `files`): the first-paint floor of `npm run bench`.
await build({ ...common, entryPoints: ['src/bench/ink-hello.tsx'], outfile: 'dist/bench/ink-hello.js' });
