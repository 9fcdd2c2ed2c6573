/** Runs the built CLI (`dist/src/cli.js`) as a user would, without a terminal. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './corpus.js';

export const CLI = join(REPO_ROOT, 'dist', 'src', 'cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {}): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
