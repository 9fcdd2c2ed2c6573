/**
 * pi-sessions inside the real pi 1.6.0 TUI (the dev dependency), loaded with `-e` as a user tries
 * a package: `/sessions` picks a session and pi switches to it (its footer shows the new name),
 * and Esc and Ctrl+C (as a key, and as a SIGINT to the whole process group) give pi its terminal
 * back. `/sessions-tree`'s "Resume from here": pi-extension-tree.e2e.test.ts. How pi is run, and
 * the Node 22 it needs: pi-tui.ts.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, writeSession } from './harness.js';
import {
  bracketedPaste,
  CTRL,
  command,
  EXTENSION,
  expectPiHasTheTerminal,
  firstCtrlC,
  footer,
  lastClearSeen,
  nodeForPi,
  probeText,
  startPi,
  twoSessions,
} from './pi-tui.js';

const nodeOrSkip = nodeForPi();

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
});
