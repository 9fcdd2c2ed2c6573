/**
 * Ink 6.8 + React 19 test harness (replaces ink-testing-library, which targets ink 5 / React 18
 * and has no `rows`).
 *
 * Renders through ink's real (non-debug) output path: frames are the text of each stdout write
 * with ANSI sequences stripped. Input goes through ink's real stdin path ('readable' + read()), so
 * key parsing, chunk splitting and the lone-ESC delay behave exactly as in the terminal.
 *
 * Usage:
 *   const app = renderInk(<Screen />, { columns: 60, rows: 12 });
 *   await app.press(KEYS.down, KEYS.down);
 *   await app.waitFor('> second row');
 *   app.unmount();   // also done automatically at the end of the current test
 */
import { EventEmitter } from 'node:events';
import { type Instance, render } from 'ink';
import type { ReactElement } from 'react';
import { onTestFinished } from 'vitest';
import { stripTerminalSequences } from '../../src/text/terminal-text.js';

/** Removes terminal escape sequences from `s` (CSI, OSC, two-byte ESC: the app's own helper). */
export function stripAnsi(s: string): string {
  return stripTerminalSequences(s);
}

type WriteCallback = (error?: Error | null) => void;

/**
 * Stand-in for process.stdout: a TTY of a given size that records every write and derives
 * frames from them. Emits 'frame' (with the frame text) whenever a new frame is recorded.
 */
export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  columns: number;
  rows: number;
  /** Every write, raw (with escape sequences). */
  readonly writes: string[] = [];
  /** Every rendered frame, escape sequences stripped, trailing newline removed. */
  readonly frames: string[] = [];

  constructor(columns = 80, rows = 24) {
    super();
    this.columns = columns;
    this.rows = rows;
  }

  write(
    chunk: string | Uint8Array,
    encodingOrCallback?: BufferEncoding | WriteCallback,
    callback?: WriteCallback,
  ): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.writes.push(text);
    // ink writes a bare '\n' in CI mode on unmount; it is not a frame.
    if (text !== '\n') {
      const visible = stripAnsi(text);
      // Pure control writes (cursor hide/show, synchronized-update markers, erase) are not frames.
      // An empty render still arrives as '\n' after the erase sequence, so it becomes frame ''.
      if (visible !== '') {
        const frame = visible.endsWith('\n') ? visible.slice(0, -1) : visible;
        this.frames.push(frame);
        this.emit('frame', frame);
      }
    }
    const cb = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (cb) queueMicrotask(() => cb(null));
    return true;
  }

  /** The most recent frame, or '' before the first render. */
  lastFrame(): string {
    return this.frames.at(-1) ?? '';
  }

  /** All raw output so far (for asserting on escape sequences such as cursor visibility). */
  output(): string {
    return this.writes.join('');
  }

  /** Changes the size and emits 'resize', as a real TTY does on SIGWINCH. */
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

/**
 * Stand-in for process.stdin as ink 6.8 uses it: `isTTY`, `setRawMode`, `setEncoding`,
 * `ref`/`unref`, and the 'readable' event followed by `read()` until it returns null.
 * `write(data)` queues one chunk (= one terminal read) and signals 'readable'.
 */
export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  isRaw = false;
  private readonly chunks: string[] = [];

  constructor() {
    super();
    // Data written before ink attached its 'readable' listener is delivered when it attaches.
    this.on('newListener', (event: string) => {
      if (event === 'readable' && this.chunks.length > 0) setImmediate(() => this.emit('readable'));
    });
  }

  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    return this;
  }
  setEncoding(_encoding?: BufferEncoding): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  /** ink only calls this for kitty keyboard detection, which the harness leaves disabled. */
  unshift(chunk: string | Uint8Array): void {
    this.chunks.unshift(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  }

  read(): string | null {
    return this.chunks.shift() ?? null;
  }

  /** Feeds one chunk of input, delivered synchronously to ink's listener (if attached). */
  write(data: string): void {
    this.chunks.push(data);
    this.emit('readable');
  }
}

export { KEYS } from './keys.js';

/** Ctrl+letter as a terminal sends it (the C0 control code), e.g. ctrl('r') === '\x12'. */
export function ctrl(letter: string): string {
  const code = letter.toLowerCase().charCodeAt(0);
  if (letter.length !== 1 || code < 0x61 || code > 0x7a)
    throw new Error(`ctrl() expects a letter a-z, got ${JSON.stringify(letter)}`);
  return String.fromCharCode(code & 0x1f);
}

/** Alt/Option+key as terminals with "meta sends escape" send it: ESC followed by the key. */
export function alt(key: string): string {
  return `\u001b${key}`;
}

export interface RenderInkOptions {
  columns?: number;
  rows?: number;
  /**
   * ink's render throttle. Defaults to 1000 fps (1 ms throttle) so tests are fast while still
   * exercising ink's throttled, non-debug write path.
   */
  maxFps?: number;
  /** Unmount automatically when the current vitest test finishes (default true). */
  autoUnmount?: boolean;
}

export type FramePredicate = (frame: string) => boolean;

export interface InkTestApp {
  readonly stdout: FakeStdout;
  readonly stdin: FakeStdin;
  readonly instance: Instance;
  /** All frames so far (escape sequences stripped). */
  readonly frames: string[];
  /** The most recent frame ('' before the first render). */
  lastFrame(): string;
  /** Each key is written as its own chunk (like separate keystrokes), yielding a tick after each so a lone ESC is flushed. */
  press(...keys: string[]): Promise<void>;
  /** Types `text` one code point per chunk, like a fast typist. */
  type(text: string): Promise<void>;
  /** Writes `data` as ONE chunk (like a paste, or several keys arriving in one read) and yields a tick. */
  write(data: string): Promise<void>;
  resize(columns: number, rows: number): void;
  rerender(element: ReactElement): void;
  /** Resolves with the matching frame; rejects after `timeoutMs` with the last frame in the message. */
  waitFor(expected: string | RegExp | FramePredicate, timeoutMs?: number): Promise<string>;
  /** Lets pending input, effects and ink's render throttle run (for asserting that nothing changed). */
  settle(): Promise<void>;
  waitUntilExit(): Promise<unknown>;
  unmount(): void;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function describeExpectation(expected: string | RegExp | FramePredicate): string {
  if (typeof expected === 'string') return `text ${JSON.stringify(expected)}`;
  if (expected instanceof RegExp) return `pattern ${String(expected)}`;
  return `predicate ${expected.name || '(anonymous)'}`;
}

export function renderInk(element: ReactElement, options: RenderInkOptions = {}): InkTestApp {
  const stdout = new FakeStdout(options.columns ?? 80, options.rows ?? 24);
  const stdin = new FakeStdin();
  const stderr = new FakeStdout(options.columns ?? 80, options.rows ?? 24);
  const maxFps = options.maxFps ?? 1000;
  const throttleMs = Math.max(1, Math.ceil(1000 / maxFps));

  const instance = render(element, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    debug: false,
    patchConsole: false,
    exitOnCtrlC: false,
    maxFps,
  });

  let unmounted = false;
  const unmount = (): void => {
    if (unmounted) return;
    unmounted = true;
    instance.unmount();
    instance.cleanup();
  };

  if (options.autoUnmount !== false) {
    try {
      onTestFinished(unmount);
    } catch {
      // Not inside a running test (e.g. a beforeAll): the caller unmounts.
    }
  }

  const waitFor = (expected: string | RegExp | FramePredicate, timeoutMs = 3000): Promise<string> => {
    const matches: FramePredicate =
      typeof expected === 'string'
        ? (frame) => frame.includes(expected)
        : expected instanceof RegExp
          ? (frame) => expected.test(frame)
          : expected;
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const frame = stdout.lastFrame();
        if (!matches(frame)) return false;
        cleanup();
        resolve(frame);
        return true;
      };
      const onFrame = (): void => {
        check();
      };
      // Predicates may also depend on state outside the frame: re-check periodically too.
      const poll = setInterval(check, 10);
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `waitFor timed out after ${timeoutMs}ms waiting for ${describeExpectation(expected)}.\n` +
              `Last frame (${stdout.frames.length} frames so far):\n${stdout.lastFrame()}`,
          ),
        );
      }, timeoutMs);
      function cleanup(): void {
        clearInterval(poll);
        clearTimeout(timer);
        stdout.off('frame', onFrame);
      }
      stdout.on('frame', onFrame);
      check();
    });
  };

  return {
    stdout,
    stdin,
    instance,
    get frames() {
      return stdout.frames;
    },
    lastFrame: () => stdout.lastFrame(),
    async press(...keys: string[]) {
      for (const key of keys) {
        stdin.write(key);
        await tick();
      }
    },
    async type(text: string) {
      for (const ch of text) {
        stdin.write(ch);
        await tick();
      }
    },
    async write(data: string) {
      stdin.write(data);
      await tick();
    },
    resize: (columns, rows) => stdout.resize(columns, rows),
    rerender: (next) => instance.rerender(next),
    waitFor,
    async settle() {
      await tick();
      await tick();
      await new Promise((resolve) => setTimeout(resolve, throttleMs + 1));
      await tick();
    },
    waitUntilExit: () => instance.waitUntilExit(),
    unmount,
  };
}
