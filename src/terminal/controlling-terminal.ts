/**
 * Which streams the full-screen app draws on and reads keys from.
 *
 * `pi --session "$(pi-sessions --print)"` captures stdout, so stdout cannot be the screen: the
 * picker then opens the controlling terminal (`/dev/tty`) and draws there, while stdout carries
 * only the chosen path. Each side is replaced only when it is not a terminal itself (`pi-sessions
 * < file` reads keys from /dev/tty but still draws on stdout). Only a process without any
 * controlling terminal (cron, `setsid`, CI) is refused.
 */
import { closeSync, openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';

export const CONTROLLING_TERMINAL = '/dev/tty';

export interface Terminal {
  /** Keys come from here (a TTY). */
  stdin: NodeJS.ReadStream;
  /** The screen is drawn here (a TTY). */
  stdout: NodeJS.WriteStream;
  /** The descriptors of `stdin` and `stdout`, for a child that takes over the terminal (pi). */
  fds: [input: number, output: number];
  /** True when stdout is not the screen (it was redirected and the screen is /dev/tty). */
  stdoutRedirected: boolean;
  /** Closes what was opened here (never process.stdin/stdout). Idempotent. */
  close(): void;
}

export type TerminalResult = { ok: true; terminal: Terminal } | { ok: false; reason: string };

/** The parts of the process this module reads (injectable for tests). */
export interface TerminalSources {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** Opens the controlling terminal for reading or writing; throws when there is none. */
  open(flags: 'r' | 'w'): number;
  /** Where SIGWINCH is delivered (the process). */
  signals: {
    on(signal: 'SIGWINCH', listener: () => void): unknown;
    off(signal: 'SIGWINCH', listener: () => void): unknown;
  };
}

const processSources: TerminalSources = {
  stdin: process.stdin,
  stdout: process.stdout,
  open: (flags) => openSync(CONTROLLING_TERMINAL, flags),
  signals: process,
};

/**
 * A SIGWINCH listener that re-reads `stream`'s size and emits 'resize' (which ink re-lays out on).
 * That is `_refreshSize`, what Node itself calls for process.stdout: the public `getWindowSize()`
 * only returns the size cached when the stream was made.
 */
function followWindowSize(stream: NodeJS.WriteStream): (() => void) | undefined {
  const refresh = (stream as { _refreshSize?: () => void })._refreshSize;
  return typeof refresh === 'function' ? () => refresh.call(stream) : undefined;
}

/**
 * The terminal to run the full-screen app on, or why there is none. Two descriptors when both sides
 * need /dev/tty: libuv cannot register one descriptor twice (read and write) with the event loop.
 */
export function acquireTerminal(sources: TerminalSources = processSources): TerminalResult {
  const streams: { destroy(): void }[] = [];
  /** A stream on a new descriptor of /dev/tty; the stream owns (and closes) the descriptor. */
  const fds: [number, number] = [0, 1];
  const openStream = <T extends { destroy(): void }>(flags: 'r' | 'w', make: (fd: number) => T): T => {
    const fd = sources.open(flags);
    try {
      const stream = make(fd);
      streams.push(stream);
      fds[flags === 'r' ? 0 : 1] = fd;
      return stream;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  };
  try {
    const stdin = sources.stdin.isTTY
      ? sources.stdin
      : openStream('r', (fd) => new ReadStream(fd) as NodeJS.ReadStream);
    const stdoutRedirected = !sources.stdout.isTTY;
    const stdout = stdoutRedirected
      ? openStream('w', (fd) => new WriteStream(fd) as NodeJS.WriteStream)
      : sources.stdout;
    // Node refreshes the size of process.stdout on SIGWINCH, not of a stream opened here.
    const onWindowChange = stdoutRedirected ? followWindowSize(stdout) : undefined;
    if (onWindowChange) sources.signals.on('SIGWINCH', onWindowChange);
    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      if (onWindowChange) sources.signals.off('SIGWINCH', onWindowChange);
      // A reader left open would keep the event loop (and the process) alive.
      for (const stream of streams) stream.destroy();
    };
    return { ok: true, terminal: { stdin, stdout, fds, stdoutRedirected, close } };
  } catch (error) {
    for (const stream of streams) stream.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      reason:
        code === 'ENXIO' || code === 'ENOENT'
          ? 'there is no controlling terminal'
          : `${CONTROLLING_TERMINAL} is not usable (${code ?? 'unknown error'})`,
    };
  }
}
