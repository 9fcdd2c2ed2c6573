/**
 * The package as a user gets it (issue 10 §4): `npm pack` ships the bundle, README, LICENSE and
 * package.json and nothing else; installing it from the tarball and from a git URL into a temp
 * prefix runs no lifecycle script (npm warns about skipped ones), and the installed command runs
 * without the repository's node_modules (`--version`, `list --json` on a generated store);
 * `npx` from the tarball works. npm uses a cache of its own under the test's temp folder.
 */
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { writeStore } from '../../src/generate/store.js';
import { tempDir } from '../helpers/factory.js';
import { REPO_ROOT } from '../helpers/pty.js';
import { makeHome, type TestHome } from './harness.js';

const NPM_MS = 240_000;
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

let work: string;
let home: TestHome;
let tarball: string;

function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: NPM_MS,
    // The test's own npm cache and no user config: nothing outside the temp folder is touched.
    env: {
      ...process.env,
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_userconfig: join(work, 'npmrc'),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
  });
}

/** npm's output of an install, with what a user must not see. */
function expectCleanInstall(run: SpawnSyncReturns<string>): void {
  expect(run.status, `${run.error?.message ?? ''}\n${run.stderr}`).toBe(0);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(output).not.toMatch(/install-scripts|lifecycle|prepare|postinstall/i);
  expect(output).not.toMatch(/ERR!|npm error/i);
}

/** Runs the installed `pi-sessions` of `prefix` outside the repository, on the generated store. */
function runInstalled(prefix: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(join(prefix, 'bin', 'pi-sessions'), args, {
    cwd: home.cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '', ...home.env },
  });
}

function expectWorks(prefix: string): void {
  const version = runInstalled(prefix, ['--version']);
  expect(version.status, version.stderr).toBe(0);
  expect(version.stdout.trim()).toBe(pkg.version);
  const list = runInstalled(prefix, ['list', '--all', '--json']);
  expect(list.status, list.stderr).toBe(0);
  const sessions = JSON.parse(list.stdout) as { path: string }[];
  expect(sessions.length).toBe(12);
  for (const s of sessions) expect(s.path.startsWith(home.sessionsRoot)).toBe(true);
  // A real folder (npm links a git dependency it had to "prepare" into its temp folder, which goes away).
  expect(lstatSync(join(prefix, 'lib', 'node_modules', pkg.name)).isDirectory()).toBe(true);
  // Only the one runtime dependency and its own dependencies were installed beside it.
  const installed = readdirSync(join(prefix, 'lib', 'node_modules', pkg.name, 'node_modules')).filter(
    (n) => !n.startsWith('.'),
  );
  for (const dev of ['ink', 'react', 'esbuild', 'typescript', 'vitest', '@earendil-works'])
    expect(installed).not.toContain(dev);
}

beforeAll(() => {
  work = tempDir('pi-sessions-package-');
  home = makeHome();
  writeStore(home.sessionsRoot, { projects: 3, sessions: 12, entries: 20, toolBytes: 300, seed: 7 });
  const packed = npm(['pack', '--pack-destination', work, '--json'], REPO_ROOT);
  expect(packed.status, packed.stderr).toBe(0);
  tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
}, NPM_MS);

afterAll(() => {
  execFileSync('rm', ['-rf', work, home.root]);
});

/** Why the committed bundle cannot be compared with the sources here, or undefined when it can. */
function whyNotComparable(): string | undefined {
  const git = spawnSync(
    'git',
    [
      'status',
      '--porcelain',
      '--',
      'src',
      'components',
      'scripts',
      'patches',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
    ],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  if (git.status !== 0) return 'not a git checkout: nothing is committed to compare with';
  if (git.stdout.trim() !== '')
    return 'the sources have uncommitted changes: the committed bundle is compared once they are committed';
  return undefined;
}

describe('the package', () => {
  // `npm test` has just bundled the sources into bin/; in a checkout whose sources
  // are all committed (a fresh clone, CI) that must be the committed bundle, byte for byte: a
  // git-URL install ships the committed one.
  const notComparable = whyNotComparable();
  it.skipIf(notComparable !== undefined)(
    `commits the bundle of the committed sources${notComparable ? ` (skipped: ${notComparable})` : ''}`,
    () => {
      for (const bundle of ['pi-sessions.js', 'pi-extension.js']) {
        const committed = execFileSync('git', ['show', `HEAD:bin/${bundle}`], {
          cwd: REPO_ROOT,
          encoding: 'utf8',
          maxBuffer: 1 << 26,
        });
        const built = readFileSync(join(REPO_ROOT, 'bin', bundle), 'utf8');
        expect(
          built === committed,
          `bin/${bundle} differs from the committed one: run \`npm run compile\` and commit it`,
        ).toBe(true);
      }
    },
  );

  it('ships the two bundles (the CLI, the pi extension), README, LICENSE and package.json, nothing else', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/bin/pi-extension.js',
      'package/bin/pi-sessions.js',
      'package/package.json',
    ]);
    const bundle = execFileSync('tar', ['-xzOf', tarball, 'package/bin/pi-sessions.js'], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    expect(bundle.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(bundle).not.toMatch(/sourceMappingURL/);
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
    ) as Record<string, unknown>;
    expect(Object.keys(manifest['dependencies'] as object)).toEqual(['trash']);
    // Any of these makes npm run `npm install` in a git-URL install before packing it.
    for (const script of ['build', 'prepare', 'prepack', 'preinstall', 'install', 'postinstall'])
      expect(manifest['scripts']).not.toHaveProperty(script);
    for (const field of ['repository', 'homepage', 'bugs', 'license']) expect(manifest).toHaveProperty(field);
  });

  it(
    'installs globally from the tarball and runs without the repository',
    () => {
      const prefix = join(work, 'prefix-tarball');
      expectCleanInstall(npm(['install', '-g', '--prefix', prefix, tarball], work));
      expectWorks(prefix);
    },
    NPM_MS,
  );

  it(
    'installs globally from a git URL of a clone and runs without the repository',
    () => {
      const clone = tempDir('pi-sessions-package-clone-');
      onTestFinished(() => {
        execFileSync('rm', ['-rf', clone]);
      });
      execFileSync('git', ['clone', '--quiet', REPO_ROOT, join(clone, 'repo')]);
      const prefix = join(work, 'prefix-git');
      expectCleanInstall(npm(['install', '-g', '--prefix', prefix, `git+file://${join(clone, 'repo')}`], work));
      expectWorks(prefix);
    },
    NPM_MS,
  );

  it(
    'runs with npx from the tarball',
    () => {
      const run = npm(['exec', '--yes', '--package', tarball, '--', 'pi-sessions', '--version'], work);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(pkg.version);
    },
    NPM_MS,
  );
});
