/**
 * `npm start` without pi sessions (dist/src/start.js, what the script runs after bundling): the
 * picker opens on a generated demo store, says so in its header, and the store's temporary
 * directory is gone after the app exits, whichever way: Esc, Ctrl+C, SIGTERM sent to the start
 * process, or the app dying (SIGKILL of the app process stands in for a crash). Nothing of the
 * demo is left in the (empty) HOME or XDG folders either: its catalogue and the journal of a
 * change made in it live in the demo's folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession, REPO_ROOT, startPty } from '../helpers/pty.js';
import { E2E_TEST_MS, E2E_WAIT_MS, expectRestored } from './harness.js';

const START = join(REPO_ROOT, 'dist', 'src', 'start.js');

interface Demo {
  pty: PtySession;
  tmp: string;
  /** HOME and, when given, the XDG folders: empty when the demo starts, and after it exits. */
  homes: string[];
}

/** `xdg`: XDG_CACHE_HOME and XDG_STATE_HOME set (else the catalogue and journal would go under HOME). */
function startDemo(options: { xdg?: boolean } = {}): Demo {
  const root = tempDir('demo-start-');
  // The demo goes under TMPDIR (os.tmpdir()); an empty agent dir and HOME: "no pi sessions".
  const tmp = join(root, 'tmp');
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  const xdg = options.xdg ? { XDG_CACHE_HOME: join(root, 'xdg-cache'), XDG_STATE_HOME: join(root, 'xdg-state') } : {};
  const homes = [home, ...Object.values(xdg)];
  for (const dir of [tmp, cwd, ...homes]) mkdirSync(dir, { recursive: true });
  const pty = startPty({
    command: process.execPath,
    args: [START],
    cwd,
    cols: 120,
    rows: 30,
    timeoutMs: E2E_WAIT_MS,
    env: { HOME: home, TMPDIR: tmp, PI_CODING_AGENT_DIR: join(root, 'agent'), ...xdg },
  });
  return { pty, tmp, homes };
}

/** Everything under `dir`, as paths relative to it. */
const contents = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' });

function expectNothingLeft({ tmp, homes }: Demo): void {
  expect(demoDirs(tmp)).toEqual([]);
  for (const dir of homes) expect(contents(dir), dir).toEqual([]);
}

const demoDirs = (tmp: string): string[] => readdirSync(tmp).filter((name) => name.startsWith('pi-sessions-demo-'));

async function opened({ pty, tmp }: Demo): Promise<void> {
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
  it('says it is a demo, and Esc removes the store and leaves nothing in HOME', async () => {
    const demo = startDemo();
    await opened(demo);
    await demo.pty.press(PTY_KEYS.escape);
    expect(await demo.pty.waitForExit()).toBe(0);
    expectNothingLeft(demo);
  });

  it('a rename in the demo (journalled) leaves nothing in HOME, XDG_CACHE_HOME or XDG_STATE_HOME', async () => {
    const demo = startDemo({ xdg: true });
    const { pty } = demo;
    await opened(demo);
    await pty.press('\u0012');
    await pty.waitForText('Name:');
    await pty.write('renamed in the demo');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('✓ Renamed');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectNothingLeft(demo);
  });

  it('Ctrl+C removes it', async () => {
    const demo = startDemo();
    const { pty } = demo;
    await opened(demo);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectNothingLeft(demo);
  });

  it('SIGTERM to the start process is passed on; the store is removed', async () => {
    const demo = startDemo();
    const { pty } = demo;
    await opened(demo);
    process.kill(pty.pid, 'SIGTERM');
    expect(await pty.waitForExit()).toBe(143);
    expectNothingLeft(demo);
  });

  it('the app dying (SIGKILL, as a crash) still removes the store, and the terminal is put back', async () => {
    const demo = startDemo();
    const { pty } = demo;
    await opened(demo);
    process.kill(appPid(pty.pid), 'SIGKILL');
    expect(await pty.waitForExit()).toBe(137);
    expectNothingLeft(demo);
    expectRestored(pty);
  });
});
