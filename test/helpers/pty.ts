/**
 * Real pseudo-terminal harness for end-to-end tests: runs a command (by default the shipped
 * bundle, `node bin/pi-sessions.js`) in a pty via @lydell/node-pty and feeds its output into a headless
 * xterm of the same size, so tests assert on what a user would actually see (alternate screen,
 * cursor visibility, exit codes) rather than on raw bytes.
 *
 *   const pty = startPty({ args: ['--dir', tmp], cols: 80, rows: 24 });
 *   await pty.waitForText('sessions');
 *   pty.press(PTY_KEYS.down, 'q');
 *   expect(await pty.waitForExit()).toBe(0);
 *
 * Children are killed automatically when the current vitest test finishes (and by `kill()`).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type IPty, spawn } from '@lydell/node-pty';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { onTestFinished } from 'vitest';
import { KEYS } from './keys.js';

// @xterm/headless ships CommonJS only (its "module" field points at a file that isn't published).
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless');

/** Repository root (this file is test/helpers/pty.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built CLI started when no `command` is given: the bundle the package ships. */
export const CLI_PATH = fileURLToPath(new URL('../../bin/pi-sessions.js', import.meta.url));

/** Input sequences as an xterm sends them (normal cursor-key mode). */
export const PTY_KEYS = KEYS;

export interface StartPtyOptions {
  /** Arguments for `command` (for the default command: arguments of the CLI). */
  args?: string[];
  cols?: number;
  rows?: number;
  /** Extra environment, merged over a clean base (PATH, HOME, TERM=xterm-256color, no CI, no colour forcing). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Executable to run; default `process.execPath` with `[CLI_PATH, ...args]`. */
  command?: string;
  /** Kill the child when the current vitest test finishes (default true). */
  autoKill?: boolean;
  /** Default timeout of the waitFor… methods (default 5000 ms). */
  timeoutMs?: number;
}

export interface PtySession {
  /** Visible rows of the active buffer joined by '\n', trailing spaces trimmed per row, trailing empty rows dropped. */
  screen(): string;
  /** Every byte the child wrote, as a string (escape sequences included). */
  rawOutput(): string;
  waitForText(expected: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits until `predicate(screen)` holds (e.g. for text to disappear); resolves with the screen. */
  waitForScreen(predicate: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (128 + signal when killed by a signal). */
  waitForExit(timeoutMs?: number): Promise<number>;
  write(data: string): void;
  /** Writes each key as its own chunk, waiting briefly between keys so a lone ESC is seen as a key. */
  press(...keys: string[]): Promise<void>;
  resize(cols: number, rows: number): void;
  /** True while the child has the alternate screen active. */
  isAlternateScreen(): boolean;
  /** True when the last cursor-visibility sequence (DECTCEM) the child wrote hid the cursor. */
  cursorHidden(): boolean;
  /** The exit code once the child exited, otherwise undefined. */
  exitCode(): number | undefined;
  readonly pid: number;
  kill(signal?: string): void;
}

function cleanEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const base: Record<string, string | undefined> = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    TMPDIR: process.env['TMPDIR'],
    // Without a HOME of the test's own, the file's throw-away catalogue folder (test/setup.ts),
    // not the user's ~/.cache; with one, the catalogue lands under it, per test.
    XDG_CACHE_HOME: extra['HOME'] === undefined ? process.env['XDG_CACHE_HOME'] : undefined,
    LANG: process.env['LANG'] ?? 'C.UTF-8',
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
  };
  const merged = { ...base, ...extra };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(merged)) if (value !== undefined) env[key] = value;
  return env;
}

const DECTCEM_RE = /\u001b\[\?25([hl])/g;
/** Synchronized output (mode 2026): begin and end of a frame the terminal shows at once. */
const SYNC_UPDATE_BEGIN = '\u001b[?2026h';
const SYNC_UPDATE_END = '\u001b[?2026l';

export function startPty(options: StartPtyOptions = {}): PtySession {
  const defaultTimeout = options.timeoutMs ?? 5000;
  const cols = options.cols ?? 80;
  const rows = options.rows ?? 24;
  const command = options.command ?? process.execPath;
  const args = options.command === undefined ? [CLI_PATH, ...(options.args ?? [])] : (options.args ?? []);

  const term: XtermTerminal = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
  const child: IPty = spawn(command, args, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd ?? REPO_ROOT,
    env: cleanEnv(options.env ?? {}),
  });

  let raw = '';
  let exited: number | undefined;
  let pendingWrites = 0;
  // Inside a synchronized update (ink wraps each frame in BSU … ESU): a terminal that supports
  // them shows the frame at once, so the screen is read between frames only, never half drawn
  // (a frame larger than one pty read arrives in several chunks).
  let inFrame = false;
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };

  child.onData((data) => {
    raw += data;
    // The sequences may be cut between two chunks: look at this chunk with the end of the last.
    const tail = raw.slice(-(data.length + SYNC_UPDATE_BEGIN.length - 1));
    const begin = tail.lastIndexOf(SYNC_UPDATE_BEGIN);
    const end = tail.lastIndexOf(SYNC_UPDATE_END);
    if (begin !== -1 || end !== -1) inFrame = begin > end;
    pendingWrites++;
    // xterm parses asynchronously: notify once the buffer reflects this chunk.
    term.write(data, () => {
      pendingWrites--;
      notify();
    });
  });
  child.onExit(({ exitCode, signal }) => {
    exited = signal ? 128 + signal : exitCode;
    notify();
  });

  const screen = (): string => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < term.rows; y++) {
      // Only the visible columns: after a shrink, xterm keeps the cells past the new width in the line.
      lines.push(
        buffer
          .getLine(buffer.viewportY + y)
          ?.translateToString(true, 0, term.cols)
          .trimEnd() ?? '',
      );
    }
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines.join('\n');
  };

  /** Waits until `done()` returns a value, re-checking on every parsed chunk or exit. */
  const waitUntil = <T>(done: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (pendingWrites > 0 || (inFrame && exited === undefined)) return;
        const value = done();
        if (value === undefined) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        const status = exited === undefined ? 'still running' : `exited with ${exited}`;
        reject(
          new Error(
            `${what()} not seen within ${timeoutMs}ms (child ${status}).\nScreen:\n${screen()}\nRaw output tail: ${JSON.stringify(raw.slice(-400))}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  let killed = false;
  const kill = (signal?: string): void => {
    if (killed || exited !== undefined) return;
    killed = true;
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  };

  if (options.autoKill !== false) {
    try {
      onTestFinished(() => {
        kill('SIGKILL');
        term.dispose();
      });
    } catch {
      // Not inside a running test: the caller kills.
    }
  }

  return {
    pid: child.pid,
    screen,
    rawOutput: () => raw,
    waitForText(expected, timeoutMs = defaultTimeout) {
      const matches = (text: string): boolean =>
        typeof expected === 'string' ? text.includes(expected) : expected.test(text);
      return waitUntil(
        () => {
          const text = screen();
          return matches(text) ? text : undefined;
        },
        timeoutMs,
        () => `Text ${typeof expected === 'string' ? JSON.stringify(expected) : String(expected)}`,
      );
    },
    waitForScreen(predicate, what, timeoutMs = defaultTimeout) {
      return waitUntil(
        () => {
          const text = screen();
          return predicate(text) ? text : undefined;
        },
        timeoutMs,
        () => `Screen where ${what}`,
      );
    },
    waitForExit(timeoutMs = defaultTimeout) {
      return waitUntil(
        () => exited,
        timeoutMs,
        () => 'Exit',
      );
    },
    write(data) {
      child.write(data);
    },
    async press(...keys) {
      for (const key of keys) {
        child.write(key);
        // A separate read per key, like a human typing (a lone ESC must not merge with the next key).
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    resize(newCols, newRows) {
      term.resize(newCols, newRows);
      if (exited === undefined) child.resize(newCols, newRows);
    },
    isAlternateScreen: () => term.buffer.active.type === 'alternate',
    cursorHidden() {
      let hidden = false;
      for (const match of raw.matchAll(DECTCEM_RE)) hidden = match[1] === 'l';
      return hidden;
    },
    exitCode: () => exited,
    kill,
  };
}
