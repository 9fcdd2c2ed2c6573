/**
 * Starting pi on a session: the arguments, the command line to show when pi cannot be started
 * from here, and the checks made before anything is written or the screen is left (pi on the
 * PATH, the folder it must run in). The checks are the only I/O; the screens run them as effects.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { sanitizeInline } from './text/terminal-text.js';

export interface PiLaunch {
  /** The session file. */
  path: string;
  /** The folder pi runs in. */
  cwd: string;
  /** `pi --fork`: copy the session into `cwd` as a new one (pi's "Fork into" choice). */
  fork?: boolean;
}

export function piArgs(launch: PiLaunch): string[] {
  return [launch.fork ? '--fork' : '--session', launch.path];
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The shell command that does the same, one line, safe to print on a terminal and to paste. */
export function launchCommand(launch: PiLaunch): string {
  return sanitizeInline(`cd ${shellQuote(launch.cwd)} && pi ${piArgs(launch).map(shellQuote).join(' ')}`);
}

/** An executable `command` on the PATH, or undefined. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether `cwd` is a folder pi can start in (pi's own test is existsSync on the stored cwd). */
export function folderExists(cwd: string): boolean {
  try {
    return statSync(cwd).isDirectory();
  } catch {
    return false;
  }
}
