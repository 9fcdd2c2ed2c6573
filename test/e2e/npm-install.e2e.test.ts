/**
 * What a newcomer sees: `npm ci` in a fresh copy of the repository (from the npm cache the
 * repository's own install filled, offline first) prints no warning, and builds the bundles
 * (`prepare`). The repository's .npmrc shows npm's errors only, which would hide any warning, so
 * the same install at npm's default level (`--loglevel=warn`) proves what it hides: nothing but
 * the engine warnings of the test oracle's packages (pi and what only pi pulls in), never a
 * runtime dependency's, a deprecation or an install script that package.json's allowScripts does
 * not cover.
 */
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/factory.js';
import { REPO_ROOT } from '../helpers/pty.js';
import { copyWorkingTree, withoutNpmVariables } from '../helpers/working-tree.js';

const NPM_MS = 300_000;
const ORACLE = '@earendil-works/pi-coding-agent';

let work: string;
let copy: string;

beforeAll(() => {
  work = tempDir('pi-sessions-npm-install-');
  writeFileSync(join(work, 'npmrc'), '');
  copy = copyWorkingTree(join(work, 'repo'));
});
afterAll(() => {
  execFileSync('rm', ['-rf', work]);
});

function npmCi(extra: string[]): SpawnSyncReturns<string> {
  const run = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', ...extra], {
    cwd: copy,
    encoding: 'utf8',
    timeout: NPM_MS,
    env: {
      ...withoutNpmVariables(),
      npm_config_userconfig: join(work, 'npmrc'),
      npm_config_update_notifier: 'false',
    },
  });
  expect(run.status, `${run.error?.message ?? ''}\n${run.stderr}`).toBe(0);
  return run;
}

interface Lockfile {
  packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
}

/** `name@version` of `root` and of every package it pulls in, by the lockfile. */
function pulledIn(lock: Lockfile, root: string): Set<string> {
  const found = new Set<string>();
  const paths = Object.keys(lock.packages);
  const queue = [root];
  while (queue.length > 0) {
    const name = queue.pop()!;
    for (const path of paths.filter((p) => p === `node_modules/${name}` || p.endsWith(`/node_modules/${name}`))) {
      const entry = lock.packages[path]!;
      const id = `${name}@${entry.version}`;
      if (found.has(id)) continue;
      found.add(id);
      queue.push(...Object.keys(entry.dependencies ?? {}));
    }
  }
  return found;
}

describe('npm install in a fresh copy', () => {
  it(
    'prints no warning, and builds the bundles',
    () => {
      const run = npmCi([]);
      expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/warn|EBADENGINE|deprecated|install-scripts/i);
      for (const bundle of ['pi-sessions.js', 'pi-extension.js'])
        expect(existsSync(join(copy, 'bin', bundle))).toBe(true);
    },
    NPM_MS,
  );

  it(
    "hides only the test oracle's engine warnings (the same install at npm's default level)",
    () => {
      const output = `${npmCi(['--loglevel=warn']).stderr}`;
      const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lockfile;
      const oracle = pulledIn(lock, ORACLE);
      const runtime = pulledIn(lock, 'trash');
      const warnings = output.split('\n').filter((line) => /^npm warn/i.test(line));
      for (const line of warnings) expect(line).toMatch(/^npm warn EBADENGINE /);
      const named = [...output.matchAll(/^npm warn EBADENGINE +package: '([^']+)'/gm)].map((m) => m[1]!);
      for (const id of named) {
        expect(oracle, `${id} warns about its engine, and the test oracle does not pull it in`).toContain(id);
        expect(runtime, `${id} warns about its engine, and the runtime needs it`).not.toContain(id);
      }
      // On a Node older than the oracle's, the warnings are there to hide (on a newer one, none is).
      const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
      if (major < 22 || (major === 22 && minor < 19)) expect(named).toContain(`${ORACLE}@1.6.0`);
      else expect(named).toEqual([]);
    },
    NPM_MS,
  );
});
