/**
 * `npm start` without pi sessions (dist/src/start.js, what the script runs after compiling): the
 * picker opens on a generated demo store, says so in its header, and the store's temporary
 * directory is gone after the app exits, whichever way: Esc, Ctrl+C, SIGTERM sent to the start
 * process, or the app dying (SIGKILL of the app process stands in for a crash).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession, REPO_ROOT, startPty } from '../helpers/pty.js';
import { E2E_TEST_MS, E2E_WAIT_MS, expectRestored } from './harness.js';

const START = join(REPO_ROOT, 'dist', 'src', 'start.js');

function startDemo(): { pty: PtySession; tmp: string } {
  const root = tempDir('demo-start-');
  // The demo goes under TMPDIR (os.tmpdir()); an empty agent dir and HOME: "no pi sessions".
  const tmp = join(root, 'tmp');
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  for (const dir of [tmp, home, cwd]) mkdirSync(dir, { recursive: true });
  const pty = startPty({
    command: process.execPath,
    args: [START],
    cwd,
    cols: 120,
    rows: 30,
    timeoutMs: E2E_WAIT_MS,
    env: { HOME: home, TMPDIR: tmp, PI_CODING_AGENT_DIR: join(root, 'agent') },
  });
  return { pty, tmp };
}

const demoDirs = (tmp: string): string[] => readdirSync(tmp).filter((name) => name.startsWith('pi-sessions-demo-'));

async function opened(pty: PtySession, tmp: string): Promise<void> {
  await pty.waitForText(/^DEMO store · pi sessions \d+\/\d+ · all projects/m);
  await pty.waitForText('Checkout: fix rounding in totals');
  expect(demoDirs(tmp)).toHaveLength(1);
}

/** The app process: the start process's one child. */
function appPid(startPid: number): number {
  const pids = execFileSync('pgrep', ['-P', String(startPid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  expect(pids).toHaveLength(1);
  return pids[0]!;
}

describe('npm start on the demo store', { timeout: E2E_TEST_MS }, () => {
  it('says it is a demo, and Esc removes the store', async () => {
    const { pty, tmp } = startDemo();
    await opened(pty, tmp);
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expect(demoDirs(tmp)).toEqual([]);
  });

  it('Ctrl+C removes it', async () => {
    const { pty, tmp } = startDemo();
    await opened(pty, tmp);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expect(demoDirs(tmp)).toEqual([]);
  });

  it('SIGTERM to the start process is passed on; the store is removed', async () => {
    const { pty, tmp } = startDemo();
    await opened(pty, tmp);
    process.kill(pty.pid, 'SIGTERM');
    expect(await pty.waitForExit()).toBe(143);
    expect(demoDirs(tmp)).toEqual([]);
  });

  it('the app dying (SIGKILL, as a crash) still removes the store, and the terminal is put back', async () => {
    const { pty, tmp } = startDemo();
    await opened(pty, tmp);
    process.kill(appPid(pty.pid), 'SIGKILL');
    expect(await pty.waitForExit()).toBe(137);
    expect(demoDirs(tmp)).toEqual([]);
    expectRestored(pty);
  });
});
