/** Runs the built CLI (the shipped bundle, `bin/pi-sessions.js`) as a user would, without a terminal. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './corpus.js';

export const CLI = join(REPO_ROOT, 'bin', 'pi-sessions.js');

/** Whether `setsid` (util-linux) can start a process without a controlling terminal here. */
export const HAS_SETSID = spawnSync('setsid', ['--version'], { stdio: 'ignore' }).status === 0;
export const NO_SETSID =
  'setsid (util-linux) is not installed: a process without a controlling terminal cannot be started';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `noTerminal`: run in a new session (`setsid`), without a controlling terminal, so a command that
 * would open the full-screen app on /dev/tty is refused even when the tests run in a terminal.
 */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; noTerminal?: boolean } = {},
): CliRun {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: the tests' global setup (test/global-bundle.ts) builds it`);
  const [command, ...argv] = [...(options.noTerminal ? ['setsid', '-w'] : []), process.execPath, CLI, ...args];
  const result = spawnSync(command!, argv, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The sessions of `list --json` (`{version, searched, sessions}`). */
export function sessionsOf(json: unknown): unknown[] {
  return (json as { sessions: unknown[] }).sessions;
}
