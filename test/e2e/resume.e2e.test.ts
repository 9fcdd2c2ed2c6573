/**
 * Enter resumes, as pi's /resume: the picker leaves the terminal and runs `pi --session <path>` in
 * the session's folder. A stand-in `pi` on the PATH (a shell script) records its folder and
 * arguments; without one the exact command is printed. A session whose folder is gone gets pi's
 * question before pi is started (continue here, fork here, cancel).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeCwd } from '../../src/store/index.js';
import { SessionBuilder } from '../helpers/factory.js';
import { CLI_PATH, PTY_KEYS, startPty } from '../helpers/pty.js';
import {
  E2E_TEST_MS,
  E2E_WAIT_MS,
  expectRestored,
  makeHome,
  startApp,
  type TestHome,
  writeSession,
} from './harness.js';

/** A folder holding a `pi` that writes where it ran and its arguments to `<root>/pi-ran`, and exits 0. */
function fakePi(home: TestHome): { bin: string; ran: string } {
  const bin = join(home.root, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  const ran = join(home.root, 'pi-ran');
  writeFileSync(join(bin, 'pi'), `#!/bin/sh\n{ pwd; for a in "$@"; do echo "$a"; done; } > '${ran}'\n`);
  chmodSync(join(bin, 'pi'), 0o755);
  return { bin, ran };
}

function sessionIn(home: TestHome, cwd: string, prompt: string): string {
  const b = new SessionBuilder({ cwd });
  b.user(prompt);
  b.assistant(`Answer about ${prompt}`);
  const dir = join(home.sessionsRoot, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true });
  return writeSession(b, dir, 'resume-me.jsonl');
}

describe('Enter resumes in pi', { timeout: E2E_TEST_MS }, () => {
  it('runs pi --session <path> in the session folder, after leaving the screen', async () => {
    const home = makeHome();
    const path = sessionIn(home, home.cwd, 'resume this one');
    const pi = fakePi(home);
    const pty = startApp(home, [], { cols: 100, rows: 24, env: { PATH: pi.bin } });
    await pty.waitForText('resume this one');
    await pty.waitForText('→ tree  Enter resume');
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
    expect(readFileSync(pi.ran, 'utf8')).toBe(`${home.cwd}\n--session\n${path}\n`);
  });

  it('without pi on the PATH: prints the exact command and exits 1', async () => {
    const home = makeHome();
    const path = sessionIn(home, home.cwd, 'resume this one');
    const empty = join(home.root, 'empty-bin');
    mkdirSync(empty);
    const pty = startApp(home, [], { cols: 200, rows: 24, env: { PATH: empty } });
    await pty.waitForText('resume this one');
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(1);
    // On the main screen, after the alternate screen is left: one line to copy (the terminal may wrap it).
    const raw = pty.rawOutput();
    const afterLeave = raw.slice(raw.lastIndexOf('\u001b[?1049l'));
    expect(afterLeave).toContain(
      `pi is not on your PATH. To resume this session, run:\r\n  cd ${home.cwd} && pi --session ${path}\r\n`,
    );
  });

  it('without pi on the PATH: the command goes to stderr, not stdout (stdout is the terminal, stderr a file)', async () => {
    const home = makeHome();
    const path = sessionIn(home, home.cwd, 'resume this one');
    const empty = join(home.root, 'empty-bin');
    mkdirSync(empty);
    const errFile = join(home.root, 'stderr.txt');
    const pty = startPty({
      timeoutMs: E2E_WAIT_MS,
      command: '/bin/sh',
      args: ['-c', `'${process.execPath}' '${CLI_PATH}' 2>'${errFile}'; echo "cli-exit=$?"`],
      cwd: home.cwd,
      env: { ...home.env, PATH: empty },
      cols: 200,
      rows: 24,
    });
    await pty.waitForText('resume this one');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('cli-exit=1');
    const raw = pty.rawOutput();
    expect(raw.slice(raw.lastIndexOf('\u001b[?1049l'))).not.toContain('pi is not on your PATH');
    // ink's cursor helper (restore-cursor) writes "show the cursor" to stderr at exit even when
    // stderr is not a terminal: not ours, so it is taken off before comparing.
    expect(readFileSync(errFile, 'utf8').replace(/\u001b\[\?25h$/, '')).toBe(
      `pi is not on your PATH. To resume this session, run:\n  cd ${home.cwd} && pi --session ${path}\n`,
    );
  });

  it("a missing folder: pi's question first; Cancel starts nothing; Fork runs pi --fork in the current folder", async () => {
    const home = makeHome();
    const gone = join(home.root, 'moved-away');
    const path = sessionIn(home, gone, 'from a moved project');
    const pi = fakePi(home);
    const pty = startApp(home, ['--all'], { cols: 160, rows: 24, env: { PATH: pi.bin } });
    await pty.waitForText('from a moved project');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText(`The session's folder does not exist: ${gone}`);
    const asked = pty.screen();
    expect(asked).toContain(`Continue in ${home.cwd} (pi confirms once more, and asks again next time)`);
    expect(asked).toContain(`Fork into ${home.cwd} (new session ID, original kept)`);
    expect(asked).not.toMatch(/could not start|ENOENT/);
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Resume cancelled');
    expect(existsSync(pi.ran)).toBe(false);

    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Fork into');
    await pty.press(PTY_KEYS.down);
    await pty.waitForText(/❯ Fork into/);
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
    expect(readFileSync(pi.ran, 'utf8')).toBe(`${home.cwd}\n--fork\n${path}\n`);
  });
});
