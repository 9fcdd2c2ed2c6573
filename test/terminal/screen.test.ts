import { EventEmitter } from 'node:events';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DISABLE_BRACKETED_PASTE,
  DISABLE_MOUSE,
  ENABLE_BRACKETED_PASTE,
  ENABLE_MOUSE,
  END_SYNCHRONIZED_UPDATE,
  ENTER_ALT_SCREEN,
  ENTER_SEQUENCE,
  ENTER_WITH_MOUSE,
  enterFullScreen,
  HIDE_CURSOR,
  isFullScreenActive,
  LEAVE_ALT_SCREEN,
  LEAVE_SEQUENCE,
  LEAVE_WITH_MOUSE,
  leaveFullScreen,
  POP_KITTY_KEYBOARD,
  type ProcessLike,
  PUSH_KITTY_KEYBOARD,
  SHOW_CURSOR,
} from '../../src/terminal/screen.js';
import { REPO_ROOT, startPty } from '../helpers/pty.js';

class FakeProcess extends EventEmitter implements ProcessLike {
  exitCodes: number[] = [];
  env: Record<string, string | undefined> = {};
  exit(code?: number): void {
    this.exitCodes.push(code ?? 0);
  }
}

function setup(stdinIsTTY = true, mouse = false) {
  const out: string[] = [];
  const err: string[] = [];
  const rawCalls: boolean[] = [];
  const proc = new FakeProcess();
  const stdout = { isTTY: true, write: (s: string) => out.push(s) };
  const stderr = { write: (s: string) => err.push(s) };
  const stdin = { isTTY: stdinIsTTY, setRawMode: (mode: boolean) => rawCalls.push(mode) };
  enterFullScreen(stdout, { stdin, stderr, process: proc, appName: 'app', mouse });
  return { out, err, rawCalls, proc, stdout };
}

afterEach(() => leaveFullScreen());

describe('enterFullScreen / leaveFullScreen', () => {
  it('enters the alternate screen and hides the cursor once; leaves once', () => {
    const { out, proc, stdout } = setup();
    enterFullScreen(stdout, { process: proc });
    expect(out).toEqual([ENTER_SEQUENCE]);
    expect(isFullScreenActive()).toBe(true);
    expect(proc.listenerCount('exit')).toBe(1);
    leaveFullScreen(stdout);
    leaveFullScreen(stdout);
    expect(out).toEqual([ENTER_SEQUENCE, LEAVE_SEQUENCE]);
    expect(isFullScreenActive()).toBe(false);
    for (const event of ['exit', 'SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT', 'uncaughtException', 'unhandledRejection']) {
      expect(proc.listenerCount(event)).toBe(0);
    }
  });

  it('turns bracketed paste on with the full screen and off before leaving it, ending any synchronized update', () => {
    expect(ENTER_SEQUENCE).toBe(ENTER_ALT_SCREEN + HIDE_CURSOR + ENABLE_BRACKETED_PASTE + PUSH_KITTY_KEYBOARD);
    expect(LEAVE_SEQUENCE).toBe(
      POP_KITTY_KEYBOARD + END_SYNCHRONIZED_UPDATE + DISABLE_BRACKETED_PASTE + SHOW_CURSOR + LEAVE_ALT_SCREEN,
    );
    // Pushed onto the terminal's stack and popped, never set: pi's own mode comes back after us.
    expect([PUSH_KITTY_KEYBOARD, POP_KITTY_KEYBOARD]).toEqual(['\u001b[>1u', '\u001b[<u']);
    expect(END_SYNCHRONIZED_UPDATE).toBe('\u001b[?2026l');
  });

  it('turns SGR mouse reporting on when asked (presses and the wheel, no motion) and off first on the way out', () => {
    expect([ENABLE_MOUSE, DISABLE_MOUSE]).toEqual(['\u001b[?1000h\u001b[?1006h', '\u001b[?1000l\u001b[?1006l']);
    expect(ENTER_WITH_MOUSE).toBe(ENTER_SEQUENCE + ENABLE_MOUSE);
    expect(LEAVE_WITH_MOUSE).toBe(DISABLE_MOUSE + LEAVE_SEQUENCE);
    const { out, stdout } = setup(true, true);
    leaveFullScreen(stdout);
    expect(out).toEqual([ENTER_WITH_MOUSE, LEAVE_WITH_MOUSE]);
  });

  it('never writes a mouse sequence when the mouse is off', () => {
    const { out, stdout } = setup(true, false);
    leaveFullScreen(stdout);
    expect(out.join('')).not.toMatch(/\?100[06]/);
  });

  it.each([
    ['exit', 0],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ])('turns the mouse off on %s', (event, code) => {
    const { out, proc } = setup(true, true);
    proc.emit(event, event === 'exit' ? 0 : event);
    expect(out.at(-1)).toBe(LEAVE_WITH_MOUSE);
    expect(proc.exitCodes).toEqual(event === 'exit' ? [] : [code]);
  });

  it('turns the mouse off on a crash before the one-line message', () => {
    const { out, err, proc } = setup(true, true);
    proc.emit('uncaughtException', new Error('boom'));
    expect(out.at(-1)).toBe(LEAVE_WITH_MOUSE);
    expect(err).toEqual(['app: boom\n']);
  });

  it('ignores leave for a different stream', () => {
    const { out } = setup();
    leaveFullScreen({ write: () => undefined });
    expect(isFullScreenActive()).toBe(true);
    expect(out).toHaveLength(1);
  });

  it('restores the terminal on process exit', () => {
    const { out, proc, rawCalls } = setup();
    proc.emit('exit', 0);
    expect(out.at(-1)).toBe(LEAVE_SEQUENCE);
    expect(rawCalls).toEqual([false]);
    expect(proc.exitCodes).toEqual([]);
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    ['SIGQUIT', 131],
    ['SIGINT', 130],
  ])('restores and exits on %s with %i', (signal, code) => {
    const { out, proc } = setup();
    proc.emit(signal, signal);
    expect(out.at(-1)).toBe(LEAVE_SEQUENCE);
    expect(proc.exitCodes).toEqual([code]);
  });

  it('restores, prints one line and exits 1 on an uncaught exception', () => {
    const { out, err, proc, rawCalls } = setup();
    proc.emit('uncaughtException', new Error('boom\n  at somewhere\u001b[31m'));
    expect(out.at(-1)).toBe(LEAVE_SEQUENCE);
    expect(rawCalls).toEqual([false]);
    expect(err).toEqual(['app: boom at somewhere␛[31m\n']);
    expect(proc.exitCodes).toEqual([1]);
  });

  it('handles unhandled rejections with non-Error values', () => {
    const { err, proc } = setup(false);
    proc.emit('unhandledRejection', 'just a string');
    expect(err).toEqual(['app: just a string\n']);
    expect(proc.exitCodes).toEqual([1]);
  });

  it('prints the stack only with PI_SESSIONS_DEBUG set', () => {
    const { err, proc } = setup();
    proc.env['PI_SESSIONS_DEBUG'] = '1';
    const error = new Error('boom');
    proc.emit('uncaughtException', error);
    expect(err[0]).toBe(`app: boom\n${error.stack}\n`);
  });

  it('does not touch raw mode when stdin is not a TTY', () => {
    const { proc, rawCalls } = setup(false);
    proc.emit('exit', 0);
    expect(rawCalls).toEqual([]);
  });
});

// End to end in a real pty: a crash while on the alternate screen leaves the user's terminal usable.
describe('in a real terminal', () => {
  const outDir = join(REPO_ROOT, 'node_modules', '.cache', 'pi-sessions-tests', `screen-${process.pid}`);

  beforeAll(() => {
    // Node 20 can't run TypeScript: transpile the modules, keeping their relative layout.
    for (const file of ['src/terminal/screen.ts', 'src/terminal/error-report.ts', 'src/text/terminal-text.ts']) {
      const { outputText } = ts.transpileModule(readFileSync(join(REPO_ROOT, file), 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const target = join(outDir, file.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, outputText);
    }
    writeFileSync(join(outDir, 'package.json'), '{"type":"module"}');
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  const script = (body: string): string =>
    `import('${join(outDir, 'src/terminal/screen.js')}').then(({ enterFullScreen }) => {\n` +
    `  enterFullScreen(process.stdout);\n  process.stdin.setRawMode(true);\n  process.stdout.write('in app');\n${body}\n});`;

  it('restores the main screen, cursor and cooked mode after an uncaught exception', async () => {
    const pty = startPty({
      command: process.execPath,
      args: ['-e', script(`process.stdin.on('data', () => { throw new Error('kaput\\nsecond line'); });`)],
      cols: 60,
      rows: 8,
    });
    await pty.waitForText('in app');
    expect(pty.isAlternateScreen()).toBe(true);
    expect(pty.cursorHidden()).toBe(true);
    pty.write('x');
    expect(await pty.waitForExit()).toBe(1);
    expect(pty.isAlternateScreen()).toBe(false);
    expect(pty.cursorHidden()).toBe(false);
    expect(pty.screen()).toBe('pi-sessions: kaput second line');
    expect(pty.rawOutput()).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it('restores the terminal when killed with SIGTERM', async () => {
    const pty = startPty({
      command: process.execPath,
      args: ['-e', script(`setInterval(() => {}, 1000);`)],
      cols: 60,
      rows: 8,
    });
    await pty.waitForText('in app');
    pty.kill('SIGTERM');
    expect(await pty.waitForExit()).toBe(143);
    expect(pty.isAlternateScreen()).toBe(false);
    expect(pty.cursorHidden()).toBe(false);
  });
});
