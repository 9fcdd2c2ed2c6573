/**
 * Every way the app ends puts the terminal back: SIGQUIT (`kill -QUIT`; Node's default would dump
 * core with the alternate screen and bracketed paste still on), SIGTERM, SIGHUP and SIGINT exit
 * with 128 + the signal's number; Esc, Ctrl+C and a `--print` whose stdout pipe is closed (EPIPE)
 * exit as they should. The raw output ends with the restore sequences, and `stty` in the same pty
 * sees a cooked terminal again. An uncaught exception and an unhandled rejection are raised in the
 * real app by a preload (`node --import`, through NODE_OPTIONS) when the test sends it SIGUSR2.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEAVE_SEQUENCE } from '../../src/terminal/screen.js';
import { SessionBuilder } from '../helpers/factory.js';
import { CLI_PATH, PTY_KEYS, type PtySession, startPty } from '../helpers/pty.js';
import {
  E2E_TEST_MS,
  E2E_WAIT_MS,
  expectRestored,
  makeHome,
  startAppThenStty,
  sttyFlags,
  type TestHome,
  writeSession,
} from './harness.js';

function store(): TestHome {
  const home = makeHome();
  const b = new SessionBuilder({ id: '0000000a-0000-7000-8000-000000000000', cwd: home.cwd });
  b.user('a session to look at');
  b.assistant('fine');
  writeSession(b, home.projectDir, '2026-01-02T00-00-00-000Z_a.jsonl', 2);
  return home;
}

/** The app's pid: the node process the shell of `startAppThenStty` runs. */
function appPid(pty: PtySession): number {
  const pid = Number(execFileSync('pgrep', ['-P', String(pty.pid), '-f', CLI_PATH], { encoding: 'utf8' }).trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no app process under ${pty.pid}`);
  return pid;
}

/** The app's own output: the bytes before the shell's `cli-exit=` line. */
function appOutput(pty: PtySession): string {
  const raw = pty.rawOutput();
  return raw.slice(0, raw.indexOf('cli-exit='));
}

/**
 * Every terminal mode the app turned on is off again at the end: each private mode set (`ESC[?Nh`,
 * the cursor's 25 aside, whose `h` is the restore) is reset later, and a kitty keyboard push
 * (`ESC[>Nu`) is popped.
 */
function expectModesOff(out: string): void {
  for (const [, mode] of out.matchAll(/\u001b\[\?(\d+(?:;\d+)*)h/g)) {
    if (mode === '25') continue;
    expect(out.lastIndexOf(`\u001b[?${mode}l`), `mode ${mode} turned off`).toBeGreaterThan(
      out.lastIndexOf(`\u001b[?${mode}h`),
    );
  }
  const kittyPush = out.lastIndexOf('\u001b[>');
  if (/\u001b\[>\d+u/.test(out))
    expect(out.lastIndexOf('\u001b[<u'), 'kitty keyboard popped').toBeGreaterThan(kittyPush);
}

/** The app's output ends with the restore sequences: after them only ink's own cursor-show, or line ends. */
function expectEndsRestored(pty: PtySession, screen: string): void {
  const out = appOutput(pty);
  const at = out.lastIndexOf(LEAVE_SEQUENCE);
  expect(at, 'the restore sequences were written').toBeGreaterThan(0);
  expect(JSON.stringify(out.slice(at + LEAVE_SEQUENCE.length))).toMatch(/^"(\\u001b\[\?25h|\\r|\\n)*"$/);
  expectModesOff(out);
  expectRestored(pty, sttyFlags(screen));
}

/**
 * A store whose app process, once sent SIGUSR2, throws (or rejects a promise) outside any handler
 * of its own: a preload script run by `node --import`, so the app's code is the shipped bundle's.
 */
function storeThatFails(how: 'throw' | 'reject'): TestHome {
  const home = store();
  const preload = join(home.root, 'fail-on-usr2.mjs');
  const fail =
    how === 'throw'
      ? `setImmediate(() => { throw new Error('injected failure'); })`
      : `void Promise.reject(new Error('injected failure'))`;
  writeFileSync(preload, `process.on('SIGUSR2', () => { ${fail}; });\n`);
  return { ...home, env: { ...home.env, NODE_OPTIONS: `--import=${preload}` } };
}

describe('every way the app ends restores the terminal', () => {
  for (const [signal, code] of [
    ['SIGQUIT', 131],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const) {
    it(
      `${signal}: exit ${code}, the screen, cursor, paste mode and line discipline back`,
      async () => {
        const pty = startAppThenStty(store(), [], { cols: 100, rows: 16 });
        await pty.waitForText('a session to look at');
        process.kill(appPid(pty), signal);
        const screen = await pty.waitForText('stty-done', E2E_WAIT_MS);
        expect(screen).toContain(`cli-exit=${code}`);
        expectEndsRestored(pty, screen);
      },
      E2E_TEST_MS,
    );
  }

  it(
    'Esc (exit 0) and Ctrl+C (exit 130)',
    async () => {
      for (const [key, code] of [
        [PTY_KEYS.escape, 0],
        [PTY_KEYS.ctrlC, 130],
      ] as const) {
        const pty = startAppThenStty(store(), [], { cols: 100, rows: 16 });
        await pty.waitForText('a session to look at');
        pty.write(key);
        const screen = await pty.waitForText('stty-done', E2E_WAIT_MS);
        expect(screen).toContain(`cli-exit=${code}`);
        expectEndsRestored(pty, screen);
      }
    },
    E2E_TEST_MS,
  );

  it(
    '--print into a closed pipe (EPIPE on stdout): restored, no stack trace',
    async () => {
      const home = store();
      const pty = startPty({
        command: '/bin/bash',
        args: [
          '-c',
          `'${process.execPath}' '${CLI_PATH}' --print | true; echo "cli-exit=\${PIPESTATUS[0]}"; stty -a; echo stty-done; read _`,
        ],
        cwd: home.cwd,
        env: home.env,
        cols: 100,
        rows: 16,
        timeoutMs: E2E_WAIT_MS,
      });
      await pty.waitForText('a session to look at');
      pty.write('\r');
      const screen = await pty.waitForText('stty-done', E2E_WAIT_MS);
      expect(screen).toContain('cli-exit=0');
      expect(screen).not.toMatch(/EPIPE|Error|at .*:\d+/);
      expectEndsRestored(pty, screen);
    },
    E2E_TEST_MS,
  );

  for (const how of ['throw', 'reject'] as const) {
    it(
      `an ${how === 'throw' ? 'uncaught exception' : 'unhandled rejection'}: exit 1, one line on stderr, restored`,
      async () => {
        const pty = startAppThenStty(storeThatFails(how), [], { cols: 100, rows: 16 });
        await pty.waitForText('a session to look at');
        process.kill(appPid(pty), 'SIGUSR2');
        const screen = await pty.waitForText('stty-done', E2E_WAIT_MS);
        expect(screen).toContain('cli-exit=1');
        expect(screen).toContain('pi-sessions: injected failure');
        expect(screen).not.toMatch(/at .*:\d+/);
        expectRestored(pty, sttyFlags(screen));
        // The message comes after the restore sequences, so it lands on the main screen.
        const out = appOutput(pty);
        expect(out.lastIndexOf(LEAVE_SEQUENCE)).toBeGreaterThan(0);
        expect(out.lastIndexOf(LEAVE_SEQUENCE)).toBeLessThan(out.lastIndexOf('injected failure'));
        expectModesOff(out);
      },
      E2E_TEST_MS,
    );
  }
});
