/** The repository's working tree as it is now, for tests that install or clone "a fresh checkout". */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './corpus.js';

/**
 * Copies the working tree's files into `target`: those git tracks and the untracked ones it does
 * not ignore (not node_modules, dist, bin), without the deleted ones. That is what a clone would
 * hold if the current changes were committed.
 */
export function copyWorkingTree(target: string): string {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  for (const file of new Set(listed.split('\0').filter((f) => f !== ''))) {
    const from = join(REPO_ROOT, file);
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file));
  }
  return target;
}

/**
 * The environment without npm's own variables: run under `npm test` or `npx vitest`, a test
 * inherits that npm's settings (npm_config_*, npm_lifecycle_*…), which would change what an npm
 * it starts does.
 */
export function withoutNpmVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}
