/**
 * The package as a user gets it: `npm pack` ships the bundles, README, LICENSE and package.json and
 * nothing else; the bundles are not in git, and npm builds them from the sources where it builds
 * packages (`prepare`: before packing, and in the clone a git-URL install makes). Installed from
 * the tarball and from a git URL into a temp prefix, and run through `npx`, the command runs
 * without the repository's node_modules (`--version`, `list --json` on a generated store), and
 * what each install runs is the bundle of the current sources, byte for byte: the git URL points
 * at a repository made of the working tree as it is now, uncommitted changes included.
 *
 * npm uses the machine's npm cache, offline first: a git-URL install installs the package's
 * devDependencies in its clone to build it, and the repository's own `npm install` has put them
 * there. Its user config is an empty file, so no setting of the user's changes what it does; the
 * machine's global config (a CA, a proxy, a registry mirror) still applies, as it does to the
 * user's own global install.
 */
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStore } from '../../src/tools/generate/store.js';
import { tempDir } from '../helpers/factory.js';
import { REPO_ROOT } from '../helpers/pty.js';
import { copyWorkingTree, withoutNpmVariables } from '../helpers/working-tree.js';
import { makeHome, type TestHome } from './harness.js';

const NPM_MS = 300_000;
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
/** The CLI, secretlint (loaded by the CLI when a scan runs, scripts/bundle.mjs), the pi extension. */
const BUNDLES = ['pi-sessions.js', 'pi-sessions-secretlint.js', 'pi-extension.js'];

let work: string;
let home: TestHome;
let tarball: string;
/** A git repository of the working tree as it is now (test/global-bundle.ts bundled the same). */
let sources: string;

/**
 * npm looks for its global config under the prefix, so an install into a temp prefix would lose
 * the machine's (behind a TLS-inspecting proxy: every registry request fails on its certificate).
 */
const MACHINE_GLOBAL_CONFIG = spawnSync('npm', ['config', 'get', 'globalconfig'], {
  encoding: 'utf8',
  env: withoutNpmVariables(),
}).stdout.trim();

function npm(args: string[], cwd: string, env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: NPM_MS,
    env: {
      ...withoutNpmVariables(),
      ...env,
      npm_config_userconfig: join(work, 'npmrc'),
      ...(MACHINE_GLOBAL_CONFIG ? { npm_config_globalconfig: MACHINE_GLOBAL_CONFIG } : {}),
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
  });
}

/** npm's output of an install, with what a user must not see: no warning, no error, no script run. */
function expectCleanInstall(run: SpawnSyncReturns<string>): void {
  expect(run.status, `${run.error?.message ?? ''}\n${run.stderr}`).toBe(0);
  const output = `${run.stdout}\n${run.stderr}`;
  expect(output).not.toMatch(/npm warn|EBADENGINE|install-scripts|ERR!|npm error/i);
}

/** The URL of the repository of the working tree. */
const gitUrl = (): string => `git+file://${sources}`;

/**
 * npm 11.16 and later list a package's `prepare` among the install scripts nobody approved when it
 * comes from a tarball or a git URL (even from a tarball, where npm does not run it: the bundles
 * are inside); this approves it for that source, as the README tells users to.
 */
const allowPrepare = (spec: string): string => `--allow-scripts=${spec.startsWith('git+') ? spec : `file:${spec}`}`;

/** Whether the installed bundles of the package installed at `dir` are the ones of the current sources. */
function expectCurrentBundles(dir: string): void {
  for (const bundle of BUNDLES) {
    const built = readFileSync(join(REPO_ROOT, 'bin', bundle));
    expect(readFileSync(join(dir, 'bin', bundle)).equals(built), `${dir}/bin/${bundle} is not the current bundle`).toBe(
      true,
    );
  }
}

/** A fresh git repository of the working tree as it is now: what a clone of the current sources holds. */
function repositoryOfWorkingTree(target: string): string {
  copyWorkingTree(target);
  const git = (...args: string[]): void => {
    execFileSync('git', args, {
      cwd: target,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'test',
        GIT_AUTHOR_EMAIL: 'test@example.invalid',
        GIT_COMMITTER_NAME: 'test',
        GIT_COMMITTER_EMAIL: 'test@example.invalid',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
      },
    });
  };
  git('init', '--quiet', '--initial-branch=main');
  git('add', '-A');
  git('commit', '--quiet', '--no-gpg-sign', '-m', 'the working tree');
  return target;
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

/** The sessions of `list --json`. */
const sessionsOf = (json: unknown): { path: string }[] => (json as { sessions: { path: string }[] }).sessions;

function expectWorks(prefix: string): void {
  const version = runInstalled(prefix, ['--version']);
  expect(version.status, version.stderr).toBe(0);
  expect(version.stdout.trim()).toBe(pkg.version);
  const list = runInstalled(prefix, ['list', '--all', '--json']);
  expect(list.status, list.stderr).toBe(0);
  const sessions = sessionsOf(JSON.parse(list.stdout));
  expect(sessions.length).toBe(12);
  for (const s of sessions) expect(s.path.startsWith(home.sessionsRoot)).toBe(true);
  // The secret scan loads secretlint's bundle from beside the CLI's: every file scanned (exit 1 if one holds a secret).
  const secrets = runInstalled(prefix, ['check', '--secrets', '--all', '--no-cache']);
  expect([0, 1], secrets.stderr).toContain(secrets.status);
  expect(secrets.stdout).toMatch(/\b12 files in /);
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
  writeFileSync(join(work, 'npmrc'), '');
  home = makeHome();
  writeStore(home.sessionsRoot, { projects: 3, sessions: 12, entries: 20, toolBytes: 300, seed: 7 });
  // In the repository: its `prepare` bundles the sources again, into the bin/ the tests use.
  const packed = npm(['pack', '--pack-destination', work], REPO_ROOT);
  expect(packed.status, packed.stderr).toBe(0);
  tarball = join(work, readdirSync(work).find((name) => name.endsWith('.tgz'))!);
  sources = repositoryOfWorkingTree(join(work, 'sources'));
}, NPM_MS);

afterAll(() => {
  execFileSync('rm', ['-rf', work, home.root]);
});

const isGitCheckout = spawnSync('git', ['rev-parse', '--git-dir'], { cwd: REPO_ROOT }).status === 0;

describe('the package', () => {
  it.skipIf(!isGitCheckout)('keeps the bundles out of git: bin/ is ignored and nothing in it is committed', () => {
    const committed = execFileSync('git', ['ls-files', '--', 'bin'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(committed).toBe('');
    for (const bundle of BUNDLES) {
      const ignored = spawnSync('git', ['check-ignore', '--quiet', `bin/${bundle}`], { cwd: REPO_ROOT });
      expect(ignored.status, `bin/${bundle} is not ignored`).toBe(0);
    }
  });

  it('ships the bundles of the current sources (the CLI, its secretlint, the pi extension), README, LICENSE and package.json, nothing else', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/bin/pi-extension.js',
      'package/bin/pi-sessions-secretlint.js',
      'package/bin/pi-sessions.js',
      'package/package.json',
    ]);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
    expectCurrentBundles(join(unpacked, 'package'));
    const bundle = readFileSync(join(unpacked, 'package', 'bin', 'pi-sessions.js'), 'utf8');
    expect(bundle.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(bundle).not.toMatch(/sourceMappingURL/);
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8')) as {
      dependencies: object;
      scripts: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).toEqual(['trash']);
    // `prepare` builds the bundles in a clone and before packing; a tarball holds them, and npm
    // runs no `prepare` when it installs one. A script that runs on the user's machine would.
    expect(manifest.scripts['prepare']).toBe('node scripts/bundle.mjs');
    for (const script of ['preinstall', 'install', 'postinstall']) expect(manifest.scripts).not.toHaveProperty(script);
    for (const field of ['repository', 'homepage', 'bugs', 'license']) expect(manifest).toHaveProperty(field);
  });

  it(
    'installs globally from the tarball, quietly, and runs without the repository',
    () => {
      const prefix = join(work, 'prefix-tarball');
      expectCleanInstall(npm(['install', '-g', '--prefix', prefix, allowPrepare(tarball), tarball], work));
      expectWorks(prefix);
      expectCurrentBundles(join(prefix, 'lib', 'node_modules', pkg.name));
    },
    NPM_MS,
  );

  it(
    'installs globally from a git URL (npm pack builds the bundles in its clone) and runs the current sources',
    () => {
      // `npm install -g git+…` itself leaves a link to a deleted temp folder for any package that
      // builds in `prepare` (npm passes -g on to the install in its clone): the README says to
      // pack the URL and install the tarball, which this does.
      const packs = join(work, 'git-pack');
      mkdirSync(packs);
      const packed = npm(['pack', '--pack-destination', packs, gitUrl()], work);
      expect(packed.status, packed.stderr).toBe(0);
      expect(`${packed.stdout}\n${packed.stderr}`).not.toMatch(/npm warn|npm error/i);
      const fromGit = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz'))!);
      const prefix = join(work, 'prefix-git');
      expectCleanInstall(npm(['install', '-g', '--prefix', prefix, allowPrepare(fromGit), fromGit], work));
      expectWorks(prefix);
      expectCurrentBundles(join(prefix, 'lib', 'node_modules', pkg.name));
    },
    NPM_MS,
  );

  it(
    'runs with npx from the tarball, and from the git URL (npm builds the bundles in its clone)',
    () => {
      for (const spec of [tarball, gitUrl()]) {
        const run = npm(
          ['exec', '--yes', '--package', spec, '--', 'pi-sessions', 'list', '--all', '--json'],
          home.cwd,
          // Not the test home's HOME: npm would look for its cache there.
          { PI_CODING_AGENT_DIR: home.agentDir },
        );
        expect(run.status, `${spec}: ${run.stdout}\n${run.stderr}`).toBe(0);
        expect(run.stderr).not.toMatch(/npm warn|npm error/i);
        const sessions = JSON.parse(run.stdout) as unknown;
        expect(sessionsOf(sessions)).toHaveLength(12);
      }
    },
    NPM_MS,
  );
});
