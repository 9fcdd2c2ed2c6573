/**
 * Files that vanish under the screen: a session listed a moment ago is deleted (by pi, a shell,
 * another pi-sessions) before the user acts on it. Every action says it is gone, drops the row
 * and does nothing else: pi is never started on the missing path (it would begin a new, empty
 * session there), no resume command or --print path leads nowhere, nothing is written or
 * re-created. Keys are sent one at a time and, where a user could type them ahead, in one write.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { CLI_PATH, PTY_KEYS, type PtySession, startPty } from '../helpers/pty.js';
import {
  E2E_TEST_MS,
  E2E_WAIT_MS,
  expectRestored,
  makeHome,
  startApp,
  type TestHome,
  trashedPaths,
  waitForFrame,
  writeSession,
} from './harness.js';

const CTRL = { d: '\u0004', l: '\u000c', r: '\u0012' } as const;
/** Alt+C opens the check view (Ctrl+K is pi's kill-to-end). */
const CHECK = '\u001bc';

/** A session of this folder named `<word>.jsonl`, `ageDays` old (the picker lists the newest first). */
function session(home: TestHome, word: string, ageDays: number, label?: string): string {
  // The list's order comes from the entries' times: the younger, the higher.
  const b = new SessionBuilder({ cwd: home.cwd, startMs: Date.UTC(2026, 0, 10 - ageDays, 9) });
  const prompt = b.user(`the ${word} prompt`);
  b.assistant(`the ${word} answer`);
  if (label) b.label(prompt, label);
  return writeSession(b, home.projectDir, `2026-01-0${ageDays}T09-00-00-000Z_${word}.jsonl`, ageDays);
}

/** A `pi` that records its arguments in `<root>/pi-ran`. */
function fakePi(home: TestHome): { bin: string; ran: string } {
  const bin = join(home.root, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const ran = join(home.root, 'pi-ran');
  writeFileSync(join(bin, 'pi'), `#!/bin/sh\n{ for a in "$@"; do echo "$a"; done; } > '${ran}'\n`);
  chmodSync(join(bin, 'pi'), 0o755);
  return { bin, ran };
}

function noPi(home: TestHome): string {
  const empty = join(home.root, 'empty-bin');
  mkdirSync(empty, { recursive: true });
  return empty;
}

const goneLine = (path: string, since = 'the list was drawn') =>
  new RegExp(`${basename(path).replace(/\./g, '\\.')} was deleted or moved since ${since}`);

/**
 * The picker's list, drawn and done loading. A file deleted while the listing still runs is left
 * out of it without a word (it was never shown as listed), so the deletes below wait for this.
 */
async function listed(pty: PtySession): Promise<void> {
  await waitForFrame(pty, (s) => s.includes('the beta prompt') && !s.includes('loading'), 'the list, done loading');
}

async function dropped(pty: PtySession, word: string): Promise<void> {
  await waitForFrame(pty, (s) => !s.includes(`the ${word} prompt`), `the ${word} row is dropped`);
}

describe('a session deleted after the list was drawn', { timeout: E2E_TEST_MS }, () => {
  it('Enter with pi on the PATH: says so, drops the row, starts nothing; the next Enter resumes the next one', async () => {
    const home = makeHome();
    const first = session(home, 'alpha', 1);
    const second = session(home, 'beta', 2);
    const pi = fakePi(home);
    const pty = startApp(home, [], { cols: 200, rows: 24, env: { PATH: pi.bin } });
    await listed(pty);
    rmSync(first);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(goneLine(first));
    await dropped(pty, 'alpha');
    expect(existsSync(pi.ran)).toBe(false);
    expect(existsSync(first)).toBe(false);
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
    expect(readFileSync(pi.ran, 'utf8')).toBe(`--session\n${second}\n`);
  });

  it('↓ Enter in one write, without pi on the PATH: says so, prints no resume command for it', async () => {
    const home = makeHome();
    session(home, 'alpha', 1);
    const second = session(home, 'beta', 2);
    const pty = startApp(home, [], { cols: 200, rows: 24, env: { PATH: noPi(home) } });
    await listed(pty);
    rmSync(second);
    pty.write(PTY_KEYS.down + PTY_KEYS.enter);
    await pty.waitForText(goneLine(second));
    await dropped(pty, 'beta');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    const raw = pty.rawOutput();
    expect(raw).not.toContain('pi is not on your PATH');
    expect(raw).not.toContain(`pi --session ${second}`);
  });

  // Each action in an app of its own: a gone row makes the picker list again, and a file deleted
  // while that listing runs would leave the list before the next action could find it gone.
  it('Ctrl+D Enter in one write: says it is gone; nothing trashed', async () => {
    const home = makeHome();
    const a = session(home, 'alpha', 1);
    const b = session(home, 'beta', 2);
    const pty = startApp(home, [], { cols: 200, rows: 24 });
    await listed(pty);
    rmSync(a);
    pty.write(CTRL.d + PTY_KEYS.enter);
    await pty.waitForText(goneLine(a));
    await dropped(pty, 'alpha');
    expect(trashedPaths(home)).toEqual([]);
    expect(readdirSync(home.projectDir)).toEqual([basename(b)]);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('Ctrl+R rename: says it is gone (not "Rename failed"); the file is not re-created', async () => {
    const home = makeHome();
    const a = session(home, 'alpha', 1);
    session(home, 'beta', 2);
    const pty = startApp(home, [], { cols: 200, rows: 24 });
    await listed(pty);
    rmSync(a);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “');
    await pty.press('x');
    await pty.waitForText('Name: x');
    await pty.press(PTY_KEYS.enter);
    const screen = await pty.waitForText(goneLine(a));
    expect(screen).not.toContain('Rename failed');
    await dropped(pty, 'alpha');
    expect(existsSync(a)).toBe(false);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it.each([
    ['$ stats of the listed rows', async (pty: PtySession) => pty.press('$')],
    ['→ tree', async (pty: PtySession) => pty.press(PTY_KEYS.right)],
  ])('%s: says it is gone', async (_, act) => {
    const home = makeHome();
    const a = session(home, 'alpha', 1);
    session(home, 'beta', 2);
    const pty = startApp(home, [], { cols: 200, rows: 30 });
    await listed(pty);
    rmSync(a);
    await act(pty);
    await pty.waitForText(goneLine(a));
    expect(pty.screen()).not.toContain('Session Tree');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('labels view Enter (deleted after the labels were read): says so, its label leaves the list', async () => {
    const home = makeHome();
    const a = session(home, 'alpha', 1, 'keep-me');
    session(home, 'beta', 2, 'other-one');
    const pty = startApp(home, [], { cols: 200, rows: 30 });
    await listed(pty);
    await pty.press(CTRL.l);
    await waitForFrame(pty, (s) => s.includes('[keep-me]') && s.includes('[other-one]'), 'both labels');
    rmSync(a);
    // The cursor is on the newest label's row: the one of alpha.
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(goneLine(a));
    await waitForFrame(pty, (s) => !s.includes('[keep-me]') && s.includes('[other-one]'), 'its label row is dropped');
    expect(pty.screen()).not.toContain('Session Tree');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('check view Enter (deleted after the audit): says so, the file leaves the view', async () => {
    const home = makeHome();
    session(home, 'alpha', 1);
    session(home, 'beta', 2);
    const pty = startApp(home, [], { cols: 200, rows: 30 });
    await listed(pty);
    await pty.press(CHECK);
    // The check view names each file by its session's title, its path on the line below.
    const audit = await pty.waitForText(/› the (alpha|beta) prompt/);
    const selected = /› the (alpha|beta) prompt/.exec(audit)![1]!;
    const checked = join(home.projectDir, `2026-01-0${selected === 'alpha' ? 1 : 2}T09-00-00-000Z_${selected}.jsonl`);
    rmSync(checked);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(goneLine(checked));
    await waitForFrame(pty, (s) => !s.includes(`the ${selected} prompt`), 'the checked file leaves the view');
    expect(pty.screen()).not.toContain('Session Tree');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('in the tree (deleted after it was opened): label, fork and Open in pi say so; nothing written, pi not started', async () => {
    const home = makeHome();
    const path = session(home, 'alpha', 1);
    const pi = fakePi(home);
    const pty = startApp(home, ['tree', path], { cols: 200, rows: 30, env: { PATH: pi.bin } });
    await pty.waitForText('Session Tree');
    await pty.waitForText('the alpha prompt');
    rmSync(path);
    const opened = goneLine(path, 'it was opened');

    await pty.press('L');
    await pty.waitForText(/Label/);
    await pty.press('x');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(opened);

    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Fork to a new session');
    await pty.press(PTY_KEYS.down, PTY_KEYS.down);
    await pty.waitForText(/❯ Fork to a new session/);
    await pty.press(PTY_KEYS.enter);
    await waitForFrame(pty, (s) => opened.test(s) && !s.includes('❯ Fork'), 'the fork says it is gone');

    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Open in pi');
    await pty.press(...Array(6).fill(PTY_KEYS.down));
    await pty.waitForText(/❯ Open in pi/);
    await pty.press(PTY_KEYS.enter);
    await waitForFrame(pty, (s) => opened.test(s) && !s.includes('❯ Open'), 'Open in pi says it is gone');
    expect(existsSync(pi.ran)).toBe(false);
    expect(readdirSync(home.projectDir)).toEqual([]);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('--print: the gone path is never printed; the next Enter prints the one still there', async () => {
    const home = makeHome();
    const first = session(home, 'alpha', 1);
    const second = session(home, 'beta', 2);
    const out = join(home.root, 'OUT');
    const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
    const pty = startPty({
      command: '/bin/sh',
      args: ['-c', `${quote(process.execPath)} ${quote(CLI_PATH)} --print > ${quote(out)}; echo "cli-exit=$?"`],
      cwd: home.cwd,
      env: home.env,
      cols: 200,
      rows: 24,
      timeoutMs: E2E_WAIT_MS,
    });
    await listed(pty);
    rmSync(first);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(goneLine(first));
    await dropped(pty, 'alpha');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=0');
    expect(readFileSync(out, 'utf8')).toBe(`${second}\n`);
  });
});
