/**
 * The one rule for how an unexpected error reaches the user: one line "<app>: <message>" (control
 * characters escaped), plus the stack only when `PI_SESSIONS_DEBUG` is set to anything but "" or
 * "0". Every error path (the CLI, a render crash, an uncaught exception on the full screen) builds
 * its text here, so the variable means the same thing everywhere.
 */
import { sanitizeBlock, sanitizeInline } from '../text/terminal-text.js';

export const DEBUG_VARIABLE = 'PI_SESSIONS_DEBUG';

/** True when the user asked for stacks (`PI_SESSIONS_DEBUG=1`, `=yes`…; unset, empty and "0" are off). */
export function debugEnabled(env: Record<string, string | undefined> = process.env): boolean {
  const value = env[DEBUG_VARIABLE];
  return value !== undefined && value !== '' && value !== '0';
}

/** An error's message on one line, control characters escaped. */
export function errorMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message || error.name : String(error);
  return sanitizeInline(raw, { newline: 'space' }) || 'unknown error';
}

/** One line for an error: "<app>: <message>", no stack. */
export function errorLine(error: unknown, appName = 'pi-sessions'): string {
  return `${appName}: ${errorMessage(error)}`;
}

/**
 * What to write to stderr for an unexpected error (newline-terminated): `line` (default: the
 * error's own line), then the stack when debugging. The stack is the programmer's view and is
 * kept line by line, through the same sanitiser as everything else.
 */
export function errorReport(
  error: unknown,
  options: { env?: Record<string, string | undefined>; line?: string; appName?: string } = {},
): string {
  const line = options.line ?? errorLine(error, options.appName);
  const stack =
    debugEnabled(options.env) && error instanceof Error && error.stack
      ? `${sanitizeBlock(error.stack).join('\n')}\n`
      : '';
  return `${line}\n${stack}`;
}
