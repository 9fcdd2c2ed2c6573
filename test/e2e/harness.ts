/**
 * Shared set-up for the real-terminal suites: a throw-away home per test with a pi agent dir
 * (`PI_CODING_AGENT_DIR`), a project folder the CLI runs in, and the trash under a temporary
 * `XDG_DATA_HOME`, so nothing a test does can touch the user's sessions or trash.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCwd } from '../../src/store/index.js';
import { type SessionBuilder, tempDir } from '../helpers/factory.js';
import { CLI_PATH, type PtySession, type StartPtyOptions, startPty } from '../helpers/pty.js';

export interface TestHome {
  root: string;
  /** `PI_CODING_AGENT_DIR`. */
  agentDir: string;
  /** `<agentDir>/sessions`: pi's sessions root. */
  sessionsRoot: string;
  /** The folder the CLI runs in (its "current folder" scope). */
  cwd: string;
  /** Where pi keeps the sessions of `cwd`. */
  projectDir: string;
  /** `XDG_DATA_HOME`: the freedesktop trash lands in `<xdg>/Trash`. */
  xdg: string;
  env: Record<string, string>;
}

/** A fresh home; `root` (an empty or missing folder) reuses a path, so two runs show the same cwd. */
export function makeHome(root: string = tempDir('pi-sessions-e2e-')): TestHome {
  const agentDir = join(root, 'agent');
  const sessionsRoot = join(agentDir, 'sessions');
  const cwd = join(root, 'work', 'proj');
  const projectDir = join(sessionsRoot, encodeCwd(cwd));
  const xdg = join(root, 'xdg');
  for (const dir of [projectDir, cwd, xdg, join(root, 'home')]) mkdirSync(dir, { recursive: true });
  // HOME too: a stray ~/.pi/agent/settings.json of the machine must not redirect the store.
  const env = { PI_CODING_AGENT_DIR: agentDir, XDG_DATA_HOME: xdg, HOME: join(root, 'home') };
  return { root, agentDir, sessionsRoot, cwd, projectDir, xdg, env };
}

const DAY_MS = 86_400_000;

/**
 * Writes a hand-made session into `dir` and dates its mtime `ageDays` back, so it does not look
 * live (the picker asks for `y` instead of Enter before deleting a session changed in the last
 * five minutes).
 */
export function writeSession(builder: SessionBuilder, dir: string, fileName: string, ageDays = 30): string {
  const path = builder.writeTo(join(dir, fileName));
  const time = new Date(Date.now() - ageDays * DAY_MS);
  utimesSync(path, time, time);
  return path;
}

/** Copies a corpus session (test/fixtures) into `dir`, where the test may change it. */
export function copyCorpusSession(source: string, dir: string, fileName: string): string {
  const target = join(dir, fileName);
  cpSync(source, target);
  return target;
}

/**
 * How long a screen may take to show a key's effect. Generous because `npm test` runs the big
 * hostile files (a 200 MB line, a million entries) on the other worker at the same time, and a
 * loaded 2-core machine can stall a keystroke for seconds; a real hang still fails.
 */
export const E2E_WAIT_MS = 20_000;
/** Test timeout for e2e tests (many waits each). */
export const E2E_TEST_MS = 120_000;

/**
 * Whether the last frame has been drawn whole: ink writes a frame between the synchronized-update
 * markers, in several writes that may reach the pty in several reads, so a screen read between
 * them may hold new rows above and the previous frame's rows below.
 */
export function frameDone(pty: PtySession): boolean {
  const raw = pty.rawOutput();
  return raw.lastIndexOf('\u001b[?2026l') > raw.lastIndexOf('\u001b[?2026h');
}

/** Waits for a screen that `predicate` accepts, read between two frames (see `frameDone`). */
export function waitForFrame(
  pty: PtySession,
  predicate: (screen: string) => boolean,
  what: string,
  timeoutMs?: number,
): Promise<string> {
  return pty.waitForScreen((screen) => frameDone(pty) && predicate(screen), what, timeoutMs);
}

/** Starts the built CLI in a pty inside `home`. */
export function startApp(
  home: TestHome,
  args: string[] = [],
  options: Omit<StartPtyOptions, 'args' | 'env' | 'cwd'> & { env?: Record<string, string> } = {},
): PtySession {
  return startPty({ timeoutMs: E2E_WAIT_MS, ...options, args, cwd: home.cwd, env: { ...home.env, ...options.env } });
}

/** Files in the freedesktop trash under `home.xdg`. */
/**
 * The original paths of what is in the freedesktop trash under `home.xdg` (from the
 * `.trashinfo` files: the `trash` package stores the files themselves under random names).
 */
export function trashedPaths(home: TestHome): string[] {
  const dir = join(home.xdg, 'Trash', 'info');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => /^Path=(.*)$/m.exec(readFileSync(join(dir, name), 'utf8'))?.[1] ?? `unreadable ${name}`)
    .map((path) => decodeURIComponent(path))
    .sort();
}

/**
 * The terminal settings after the app exits, read by `stty -a` in the same pty: the CLI runs
 * under `sh -c`, which then prints the CLI's exit code and the line discipline's flags. The shell
 * then waits for a line instead of exiting: when the last process on a pty exits, Linux may drop
 * output the master has not read yet, so "stty-done" could be lost (the pty is killed when the
 * test ends).
 */
export function startAppThenStty(
  home: TestHome,
  args: string[],
  options: { cols?: number; rows?: number } = {},
): PtySession {
  const quoted = [process.execPath, CLI_PATH, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return startPty({
    timeoutMs: E2E_WAIT_MS,
    command: '/bin/sh',
    // The trap keeps the shell alive if a Ctrl+C reaches the process group as SIGINT (a trap with
    // a command, unlike an ignored signal, is reset to the default in the child).
    args: ['-c', `trap 'echo sh-saw-sigint' INT; ${quoted}; echo "cli-exit=$?"; stty -a; echo stty-done; read _`],
    cwd: home.cwd,
    env: home.env,
    ...options,
  });
}

/** The flags of `stty -a` output as a set (`echo`, `-echo`, `icanon`, …). */
export function sttyFlags(screenText: string): Set<string> {
  return new Set(screenText.split(/\s+/).filter((word) => /^-?[a-z0-9]+$/.test(word)));
}

/** Asserts the terminal is back to what a shell expects: main screen, cursor shown, cooked mode with echo. */
export function expectRestored(pty: PtySession, flags?: Set<string>): void {
  if (pty.isAlternateScreen()) throw new Error(`still on the alternate screen:\n${pty.screen()}`);
  if (pty.cursorHidden()) throw new Error('the cursor is still hidden');
  if (flags) {
    for (const flag of ['echo', 'icanon', 'isig', 'icrnl', 'opost']) {
      if (!flags.has(flag)) throw new Error(`stty: ${flag} is not on after exit (flags: ${[...flags].join(' ')})`);
    }
  }
}
