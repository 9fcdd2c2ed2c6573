/**
 * Running the built CLI on hostile input: asynchronously (so a test can damage files while it
 * reads), with a hard time bound (a hang is a failure, not a stuck suite), stdout optionally to a
 * file (the JSON of a 1,000,000-entry tree is too big for a pipe buffer), and the checks every
 * hostile run shares: a documented exit code and no stack trace.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { CLI } from '../helpers/cli.js';

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  /** Write stdout to this file instead of collecting it (`stdout` is then ''). */
  stdoutFile?: string;
  /** Prefix the command, e.g. `['setpriv', '--reuid=65534', …]` or `['unshare', '-rm', …]`. */
  wrapper?: string[];
}

export function runCliAsync(args: string[], options: RunOptions = {}): Promise<Run> {
  const started = Date.now();
  const out = options.stdoutFile ? openSync(options.stdoutFile, 'w') : 'pipe';
  const [command, ...prefix] = options.wrapper ?? [process.execPath];
  const fullArgs = options.wrapper ? [...prefix, process.execPath, CLI, ...args] : [CLI, ...args];
  const child = spawn(command!, fullArgs, {
    cwd: options.cwd ?? '/',
    // TMPDIR and XDG_CACHE_HOME: the run's temp dir and the file's throw-away catalogue folder
    // (test/global-setup.ts, test/setup.ts), so the CLI never writes into the user's ~/.cache.
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? '/',
      TMPDIR: process.env['TMPDIR'] ?? '/tmp',
      XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] ?? '',
      ...options.env,
    },
    stdio: ['ignore', out, 'pipe'],
  });
  if (typeof out === 'number') closeSync(out);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 30_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/** The contract of every run on hostile input: in time, exit 0 or 1, one clear line on failure, never a stack. */
export function expectCleanRun(run: Run, what: string): void {
  expect(run.timedOut, `${what}: timed out`).toBe(false);
  expect(run.signal, `${what}: killed by a signal`).toBeNull();
  expect([0, 1], `${what}: exit ${run.code}, stderr ${run.stderr}`).toContain(run.code);
  expect(run.stderr, `${what}: stack trace`).not.toMatch(
    /\n\s+at |node:internal|TypeError|RangeError|unexpected error/,
  );
  if (run.code === 1) expect(run.stderr.trim(), `${what}: failure message`).toMatch(/^pi-sessions: \S.*$/);
}

/** Parses JSON stdout (or the stdout file) of a successful run. */
export function jsonOf(run: Run, stdoutFile?: string): unknown {
  return JSON.parse(stdoutFile ? readFileSync(stdoutFile, 'utf8') : run.stdout);
}
