/**
 * Shell use: `pi --session "$(pi-sessions --print)"`. stdout is captured (here: redirected to a
 * file or a pipe by `sh` inside a real pty), so the picker must draw on the controlling terminal
 * and read its keys there, while stdout receives exactly the chosen path. Only a process with no
 * controlling terminal at all (`setsid`) is refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_SETSID, NO_SETSID } from '../helpers/cli.js';
import { SessionBuilder } from '../helpers/factory.js';
import { CLI_PATH, PTY_KEYS, type PtySession, startPty } from '../helpers/pty.js';
import { unsafeBytes } from '../helpers/terminal-bytes.js';
import {
  E2E_TEST_MS,
  E2E_WAIT_MS,
  expectRestored,
  makeHome,
  sttyFlags,
  type TestHome,
  writeSession,
} from './harness.js';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
const CLI = `${quote(process.execPath)} ${quote(CLI_PATH)}`;

/** One session in this folder, its file named `fileName`. */
function oneSessionHome(fileName = '2026-01-06T09-00-00-000Z_keeper.jsonl'): { home: TestHome; path: string } {
  const home = makeHome();
  const builder = new SessionBuilder({ id: '0000000d-0000-7000-8000-000000000000', cwd: home.cwd });
  builder.user('keep this migration work');
  builder.assistant('done');
  return { home, path: writeSession(builder, home.projectDir, fileName, 5) };
}

/** Runs `script` with `sh -c` in a pty inside `home`; `$CLI` is the built CLI. */
function shell(home: TestHome, script: string): PtySession {
  // Wide: a path must fit on one row to be found on the screen.
  return startPty({
    command: '/bin/sh',
    args: ['-c', script.replaceAll('$CLI', CLI)],
    cwd: home.cwd,
    env: home.env,
    cols: 220,
    rows: 30,
    timeoutMs: E2E_WAIT_MS,
  });
}

describe('--print with stdout captured', { timeout: E2E_TEST_MS }, () => {
  it('draws the picker on the terminal and writes only the chosen path to the file', async () => {
    const { home, path } = oneSessionHome();
    const out = join(home.root, 'OUT');
    const pty = shell(home, `$CLI --print > ${quote(out)}; echo "cli-exit=$?"`);
    const screen = await pty.waitForText('keep this migration work');
    expect(screen).toMatch(/pi sessions 1\/1 · this folder/);
    expect(pty.isAlternateScreen()).toBe(true);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(await pty.waitForExit()).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`${path}\n`);
    expectRestored(pty);
    // The terminal got the screen, never the path.
    expect(pty.rawOutput()).not.toContain(path);
  });

  it('works inside $(…) the way pi --session uses it, and Esc prints nothing and exits 1', async () => {
    const { home, path } = oneSessionHome();
    const pty = shell(home, `chosen="$($CLI --print)"; echo "cli-exit=$? chosen=[$chosen]"`);
    await pty.waitForText('keep this migration work');
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForText(`cli-exit=0 chosen=[${path}]`)).toContain(path);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);

    const esc = shell(home, `chosen="$($CLI --print)"; echo "cli-exit=$? chosen=[$chosen]"`);
    await esc.waitForText('keep this migration work');
    await esc.press(PTY_KEYS.escape);
    await esc.waitForText('cli-exit=1 chosen=[]');
    expectRestored(esc);
  });

  it('follows the terminal\u2019s size on /dev/tty (a resize re-lays out the picker)', async () => {
    const { home, path } = oneSessionHome();
    const out = join(home.root, 'OUT');
    const pty = shell(home, `$CLI --print > ${quote(out)}; echo "cli-exit=$?"`);
    await pty.waitForText(/^pi sessions 1\/1 · this folder/m);
    // Narrow: the header drops its "pi sessions" prefix (below 70 columns).
    pty.resize(50, 12);
    const narrow = await pty.waitForScreen(
      (s) => /^1\/1 · this folder/m.test(s) && /Enter/.test(s),
      'the narrow frame',
    );
    for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(50);
    pty.resize(120, 30);
    await pty.waitForText(/^pi sessions 1\/1 · this folder/m);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(readFileSync(out, 'utf8')).toBe(`${path}\n`);
  });

  it('reads keys from the terminal when stdin is redirected', async () => {
    const { home, path } = oneSessionHome();
    const out = join(home.root, 'OUT');
    const pty = shell(home, `$CLI --print < /dev/null > ${quote(out)}; echo "cli-exit=$?"`);
    await pty.waitForText('keep this migration work');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(readFileSync(out, 'utf8')).toBe(`${path}\n`);
  });

  it('Ctrl+C exits 130 with the terminal restored and nothing on stdout', async () => {
    const { home } = oneSessionHome();
    const out = join(home.root, 'OUT');
    const pty = shell(home, `$CLI --print > ${quote(out)}; echo "cli-exit=$?"; stty -a; echo stty-done`);
    await pty.waitForText('keep this migration work');
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForText('cli-exit=130');
    const screen = await pty.waitForText('stty-done');
    expect(readFileSync(out, 'utf8')).toBe('');
    expectRestored(pty, sttyFlags(screen));
  });

  it('is refused (exit 2, "needs a terminal") only without any controlling terminal', async (ctx) => {
    ctx.skip(!HAS_SETSID, NO_SETSID);
    const { home } = oneSessionHome();
    // setsid: a new session without a controlling terminal, as under cron; -w waits for the CLI.
    const pty = shell(home, `setsid -w $CLI --print > /dev/null; echo "cli-exit=$?"`);
    const screen = await pty.waitForText('cli-exit=');
    expect(screen).toContain('cli-exit=2');
    expect(screen).toContain('pi-sessions: the session picker needs a terminal (there is no controlling terminal)');
    expect(screen).toContain('pi-sessions list');
    expect(pty.rawOutput()).not.toContain('\u001b[?1049h');
    expect(screen).not.toMatch(/\n\s+at /);
  });
});

describe('tree --print', { timeout: E2E_TEST_MS }, () => {
  it('prints the session Open in pi would open, instead of running pi', async () => {
    const { home, path } = oneSessionHome();
    const out = join(home.root, 'OUT');
    const pty = shell(home, `$CLI tree ${quote(path)} --print > ${quote(out)}; echo "cli-exit=$?"`);
    await pty.waitForText('keep this migration work');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('❯ Resume from here');
    // One move at a time, each seen before the next (a key typed before the menu subscribes is lost).
    for (let i = 0; i < 10 && !pty.screen().includes('❯ Open in pi'); i++) {
      const before = pty.screen();
      await pty.press(PTY_KEYS.down);
      await pty.waitForScreen((s) => s !== before, 'the highlight moved', 500).catch(() => undefined);
    }
    await pty.waitForText('❯ Open in pi');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(readFileSync(out, 'utf8')).toBe(`${path}\n`);
    expectRestored(pty);
  });
});

describe('the path --print writes', { timeout: E2E_TEST_MS }, () => {
  // A file name may hold ESC and BEL (only "/" and NUL are impossible).
  const hostileName = '2026-01-06T09-00-00-000Z_\u001b]52;c;cHduZWQ=\u0007\u001b]0;TITLE\u0007\u001b[2Jx.jsonl';

  it('is unchanged when stdout is captured', async () => {
    const { home, path } = oneSessionHome(hostileName);
    const out = join(home.root, 'OUT');
    const pty = shell(home, `$CLI --print > ${quote(out)}; echo "cli-exit=$?"`);
    await pty.waitForText('keep this migration work');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(readFileSync(out, 'utf8')).toBe(`${path}\n`);
    expect(unsafeBytes(pty.rawOutput())).toEqual([]);
  });

  it('is made safe when stdout is the terminal', async () => {
    const { home, path } = oneSessionHome(hostileName);
    const pty = shell(home, `$CLI --print; echo "cli-exit=$?"`);
    await pty.waitForText('keep this migration work');
    await pty.press(PTY_KEYS.enter);
    // The path is as long as the test's temp dir makes it: it may wrap at the terminal's edge.
    const screen = (await pty.waitForText('cli-exit=0')).replaceAll('\n', '');
    expect(screen).toContain('_␛]52;c;cHduZWQ=\\x07␛]0;TITLE\\x07␛[2Jx.jsonl');
    expect(pty.rawOutput()).not.toContain(path);
    expect(unsafeBytes(pty.rawOutput())).toEqual([]);
  });
});
