/**
 * Terminal lifecycle for the full-screen Ink app on Node 20.
 *
 * ink 6 has no alternate-screen option (that is ink 7 / Node 22), so we do it by hand:
 * `enterFullScreen` switches to the alternate screen, hides the cursor, pushes the kitty keyboard
 * protocol's disambiguate mode and turns bracketed paste on (mode 2004: a paste arrives wrapped in ESC[200~ … ESC[201~, so the tokenizer can keep it one
 * text insert that never runs a command) and, unless asked not to, SGR mouse reporting (modes 1000 + 1006:
 * a button press, a release or a wheel notch arrives as `ESC[<b;x;yM`, see src/keymap/mouse-sequence.ts;
 * no motion tracking); `leaveFullScreen` undoes all of them, so a shell never receives wrapped pastes or
 * mouse reports after we are gone. Because a user's shell must never be left on the alternate screen with a hidden
 * cursor and raw input, entering also installs process hooks that restore the terminal on every
 * way out:
 *   - 'exit'                          → restore (covers process.exit and normal exit);
 *   - SIGTERM / SIGHUP / SIGINT / SIGQUIT
 *                                     → restore, exit with 128 + signal number (Node's own
 *                                        default for these signals skips 'exit' handlers; for
 *                                        SIGQUIT, `kill -QUIT` or Ctrl+\ where the terminal is
 *                                        not raw, it would dump core with the screen still on);
 *   - uncaughtException / unhandledRejection
 *                                     → restore, print ONE line "<app>: <message>" to stderr
 *                                        (the stack only with PI_SESSIONS_DEBUG, see
 *                                        error-report.ts), exit code 1.
 * `leaveFullScreen` removes the hooks again. Both functions are idempotent.
 */
import { constants } from 'node:os';
import { errorReport } from './error-report.js';

export const ENTER_ALT_SCREEN = '\u001b[?1049h';
export const LEAVE_ALT_SCREEN = '\u001b[?1049l';
export const HIDE_CURSOR = '\u001b[?25l';
export const SHOW_CURSOR = '\u001b[?25h';
export const ENABLE_BRACKETED_PASTE = '\u001b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\u001b[?2004l';
export const END_SYNCHRONIZED_UPDATE = '\u001b[?2026l';
/**
 * The kitty keyboard protocol, as pi turns it on: pushed onto the terminal's stack of keyboard
 * modes, popped on the way out, so inside pi the terminal goes back to pi's own mode. Flag 1
 * (disambiguate) is what makes chords such as Shift+Ctrl+O reach the app (as `ESC[111;6u`) and
 * sends Esc as `ESC[27u`, never confused with the start of a sequence; pi also asks for key
 * releases and alternate keys (7), which a list never needs. A terminal without the protocol
 * ignores both sequences.
 */
export const PUSH_KITTY_KEYBOARD = '\u001b[>1u';
export const POP_KITTY_KEYBOARD = '\u001b[<u';

/**
 * SGR mouse reporting: button presses, releases and the wheel (1000) in the SGR encoding (1006),
 * which has no column limit and says press from release. No motion modes (1002, 1003): a list
 * needs no drag, and a multiplexer forwarding every pointer move would only lag. While it is on, the terminal's own text selection takes Shift+drag in most
 * terminals, which is why it can be turned off (`--no-mouse`, or pi-sessions' settings key).
 */
export const ENABLE_MOUSE = '\u001b[?1000h\u001b[?1006h';
export const DISABLE_MOUSE = '\u001b[?1000l\u001b[?1006l';

/** What entering writes, and what leaving writes (on every exit path); the keyboard mode goes first, so a late key is plain. */
export const ENTER_SEQUENCE = ENTER_ALT_SCREEN + HIDE_CURSOR + ENABLE_BRACKETED_PASTE + PUSH_KITTY_KEYBOARD;
export const LEAVE_SEQUENCE =
  POP_KITTY_KEYBOARD + END_SYNCHRONIZED_UPDATE + DISABLE_BRACKETED_PASTE + SHOW_CURSOR + LEAVE_ALT_SCREEN;

/** Entering with the mouse on: the mouse last, once the screen it reports on is there. */
export const ENTER_WITH_MOUSE = ENTER_SEQUENCE + ENABLE_MOUSE;
/** Leaving what ENTER_WITH_MOUSE turned on: the mouse first, like the keyboard mode, so a late click is never a report. */
export const LEAVE_WITH_MOUSE = DISABLE_MOUSE + LEAVE_SEQUENCE;

export interface TerminalOutput {
  write(data: string): unknown;
  isTTY?: boolean;
}

export interface TerminalInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

type Listener = (...args: unknown[]) => void;

/** The parts of `process` this module touches (injectable for tests). */
export interface ProcessLike {
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
  exit(code?: number): void;
  env: Record<string, string | undefined>;
}

export interface FullScreenOptions {
  /** Raw mode is switched off here on a crash or signal (default process.stdin). */
  stdin?: TerminalInput;
  /** Where the one-line crash message goes (default process.stderr). */
  stderr?: TerminalOutput;
  /** Prefix of the crash message (default "pi-sessions"). */
  appName?: string;
  /** Default: the real process. */
  process?: ProcessLike;
  /** Turn SGR mouse reporting on (and off again on every way out); default false. */
  mouse?: boolean;
}

const HANDLED_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'] as const;

interface ActiveScreen {
  stdout: TerminalOutput;
  stdin: TerminalInput;
  stderr: TerminalOutput;
  appName: string;
  proc: ProcessLike;
  hooks: [event: string, listener: Listener][];
  /** What leaving writes: it undoes what entering turned on, and only that. */
  leave: string;
}

let active: ActiveScreen | undefined;

/** True between enterFullScreen and leaveFullScreen. */
export function isFullScreenActive(): boolean {
  return active !== undefined;
}

function safeWrite(stream: TerminalOutput, data: string): void {
  try {
    stream.write(data);
  } catch {
    // The terminal may already be gone (SIGHUP); nothing better to do.
  }
}

function disableRawMode(stdin: TerminalInput): void {
  if (!stdin.isTTY || typeof stdin.setRawMode !== 'function') return;
  try {
    stdin.setRawMode(false);
  } catch {
    // Stream already destroyed.
  }
}

/** Writes mouse-off (when it was on) + keyboard-mode-pop + paste-mode-off + show-cursor + leave-alt-screen; removes the process hooks. */
export function leaveFullScreen(stdout?: TerminalOutput): void {
  const screen = active;
  if (!screen || (stdout !== undefined && stdout !== screen.stdout)) return;
  active = undefined;
  for (const [event, listener] of screen.hooks) screen.proc.off(event, listener);
  safeWrite(screen.stdout, screen.leave);
}

/** Switches `stdout` to the alternate screen (hidden cursor, bracketed paste, the mouse if asked) and installs the restore hooks. */
export function enterFullScreen(stdout: TerminalOutput = process.stdout, options: FullScreenOptions = {}): void {
  if (active) return;
  const proc: ProcessLike = options.process ?? (process as unknown as ProcessLike);
  const screen: ActiveScreen = {
    stdout,
    stdin: options.stdin ?? process.stdin,
    stderr: options.stderr ?? process.stderr,
    appName: options.appName ?? 'pi-sessions',
    proc,
    hooks: [],
    leave: options.mouse ? LEAVE_WITH_MOUSE : LEAVE_SEQUENCE,
  };

  const restore = (): void => {
    disableRawMode(screen.stdin);
    leaveFullScreen(screen.stdout);
  };
  const onExit: Listener = () => restore();
  const onCrash: Listener = (error) => {
    restore();
    safeWrite(screen.stderr, errorReport(error, { env: proc.env, appName: screen.appName }));
    proc.exit(1);
  };
  screen.hooks.push(['exit', onExit], ['uncaughtException', onCrash], ['unhandledRejection', onCrash]);
  for (const signal of HANDLED_SIGNALS) {
    const onSignal: Listener = () => {
      restore();
      proc.exit(128 + constants.signals[signal]);
    };
    screen.hooks.push([signal, onSignal]);
  }

  active = screen;
  for (const [event, listener] of screen.hooks) proc.on(event, listener);
  safeWrite(stdout, options.mouse ? ENTER_WITH_MOUSE : ENTER_SEQUENCE);
}
