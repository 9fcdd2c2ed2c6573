/**
 * One program in a real pseudo-terminal, its output fed into a headless xterm, with the two
 * timings the screen figures need: spawn → first screen that satisfies a predicate, and
 * key → the frame it caused.
 *
 * "The frame it caused" ends at the last output chunk of the burst in which the predicate first
 * held: ink writes a frame with one write(), which the pty may deliver in several chunks, and a
 * frame is on the screen only when its last chunk is. A burst ends after QUIET_MS without output.
 */
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IPty } from '@lydell/node-pty';
import type { Terminal as XtermTerminal } from '@xterm/headless';

const QUIET_MS = 40;
const TIMEOUT_MS = 30_000;

/** The shipped bundle (scripts/bundle.mjs): what users run and what every pty figure measures. */
export const APP_BUNDLE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'bin',
  'pi-sessions.js',
);

/**
 * The environment the app runs in for a figure: this store, this cache home (and `home` as HOME),
 * an xterm, and none of the settings that would change what it draws or where it looks.
 */
export function appEnv(agentDir: string, cacheHome: string, home?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_CACHE_HOME: cacheHome,
    TERM: 'xterm-256color',
  };
  if (home) env['HOME'] = home;
  for (const name of ['CI', 'NO_COLOR', 'FORCE_COLOR', 'PI_CODING_AGENT_SESSION_DIR']) delete env[name];
  return env;
}

export const COLUMNS = 120;
export const ROWS = 40;

export interface Screen {
  lines: string[];
  text: string;
}

/** Index of the line whose first character is the cursor glyph `›` (both screens), or -1. */
export function cursorLine(screen: Screen): number {
  return screen.lines.findIndex((line) => line.startsWith('›'));
}

export class PtyApp {
  private readonly term: XtermTerminal;
  private readonly child: IPty;
  private readonly t0: number;
  private lastData = 0;
  private listeners = new Set<() => void>();
  private exited = false;

  private constructor(
    pty: typeof import('@lydell/node-pty'),
    Terminal: typeof XtermTerminal,
    args: string[],
    env: NodeJS.ProcessEnv,
    command: string,
  ) {
    this.term = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true });
    this.t0 = performance.now();
    this.child = pty.spawn(command, args, {
      cols: COLUMNS,
      rows: ROWS,
      env: env as Record<string, string>,
      cwd: tmpdir(),
    });
    this.child.onData((data) => {
      const at = performance.now();
      this.term.write(data, () => {
        this.lastData = at;
        for (const listener of [...this.listeners]) listener();
      });
    });
    this.child.onExit(() => {
      this.exited = true;
      for (const listener of [...this.listeners]) listener();
    });
  }

  /** Runs `command` (default: this node) with `args`. */
  static async spawn(args: string[], env: NodeJS.ProcessEnv, command = process.execPath): Promise<PtyApp> {
    const pty = await import('@lydell/node-pty');
    // @xterm/headless is CommonJS whose named export ESM interop cannot see.
    const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless');
    return new PtyApp(pty, Terminal, args, env, command);
  }

  /** The child's process id (for its memory figures in /proc). */
  get pid(): number {
    return this.child.pid;
  }

  screen(): Screen {
    const lines: string[] = [];
    const buffer = this.term.buffer.active;
    for (let i = 0; i < this.term.rows; i++)
      lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    return { lines, text: lines.join('\n') };
  }

  /**
   * Waits until `ready(screen)` holds and that output burst has ended; returns the time of the
   * burst's last chunk, in ms since `from` (default: since spawn).
   */
  waitFor(
    ready: (screen: Screen) => boolean,
    from = this.t0,
    what = 'the screen',
    checkNow = true,
    timeoutMs = TIMEOUT_MS,
  ): Promise<number> {
    return new Promise((resolve, reject) => {
      let quiet: NodeJS.Timeout | undefined;
      const done = (result: number | Error): void => {
        clearTimeout(timeout);
        clearTimeout(quiet);
        this.listeners.delete(check);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const settle = (): void => {
        clearTimeout(quiet);
        const last = this.lastData;
        quiet = setTimeout(() => (this.lastData === last ? done(last - from) : settle()), QUIET_MS);
      };
      const check = (): void => {
        if (quiet || ready(this.screen())) settle();
        else if (this.exited)
          done(new Error(`the program exited while waiting for ${what}; last screen:\n${this.screen().text}`));
      };
      const timeout = setTimeout(
        () => done(new Error(`timed out waiting for ${what}; last screen:\n${this.screen().text}`)),
        timeoutMs,
      );
      this.listeners.add(check);
      if (checkNow) check();
    });
  }

  /** Waits until nothing was written for `ms` (background redraws of a load, a status timer). */
  async quiet(ms: number): Promise<void> {
    for (;;) {
      const last = this.lastData;
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (this.lastData === last) return;
    }
  }

  /** Writes `key` and returns ms until the end of the frame in which `ready` first holds. */
  press(
    key: string,
    ready: (screen: Screen) => boolean,
    what = `the frame after ${JSON.stringify(key)}`,
  ): Promise<number> {
    const from = performance.now();
    // Only output after the key counts: the screen before it may satisfy `ready` already.
    const frame = this.waitFor(ready, from, what, false);
    this.child.write(key);
    return frame;
  }

  /**
   * Writes `key`; `firstMs`: until the output chunk after which `ready` first holds (what the eye
   * sees first: an echo drawn before the results counts when it lands), `settledMs`: until the
   * last output before `quietMs` of silence (the key's whole work on the screen).
   */
  pressTimes(
    key: string,
    ready: (screen: Screen) => boolean,
    what = `the frame after ${JSON.stringify(key)}`,
    quietMs = 150,
    timeoutMs = TIMEOUT_MS,
    settledWhen: (screen: Screen) => boolean = () => true,
  ): Promise<{ firstMs: number; settledMs: number }> {
    const from = performance.now();
    return new Promise((resolve, reject) => {
      let firstMs: number | undefined;
      let quiet: NodeJS.Timeout | undefined;
      const done = (result: { firstMs: number; settledMs: number } | Error): void => {
        clearTimeout(timeout);
        clearTimeout(quiet);
        this.listeners.delete(check);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const settle = (): void => {
        clearTimeout(quiet);
        const last = this.lastData;
        quiet = setTimeout(
          () => (this.lastData === last ? done({ firstMs: firstMs!, settledMs: last - from }) : settle()),
          quietMs,
        );
      };
      const check = (): void => {
        if (firstMs === undefined && ready(this.screen())) firstMs = this.lastData - from;
        // Settled: quiet once what `settledWhen` waits for is drawn (a search slower than the
        // quiet wait would otherwise count as settled at its echo).
        if (firstMs !== undefined && (quiet !== undefined || settledWhen(this.screen()))) settle();
        else if (this.exited)
          done(new Error(`the program exited while waiting for ${what}; last screen:\n${this.screen().text}`));
      };
      const timeout = setTimeout(
        () => done(new Error(`timed out waiting for ${what}; last screen:\n${this.screen().text}`)),
        timeoutMs,
      );
      this.listeners.add(check);
      this.child.write(key);
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill();
    this.term.dispose();
  }
}
