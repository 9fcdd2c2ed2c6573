/**
 * The interactive entry: resolves what to open, takes over the terminal (alternate screen, hidden
 * cursor, restored on every exit path), renders <App>, and acts on the result after the terminal
 * is back: print a path, run `pi --session`, or just exit with the right code.
 */
import { spawnSync } from 'node:child_process';
import { render } from 'ink';
import type { InteractiveRequest } from '../src/cli/types.js';
import { findOnPath, folderExists, launchCommand, piArgs } from '../src/pi-launch.js';
import { goneMessage } from '../src/state/session-gone.js';
import { isGoneSync, readPiConfig, resolveSessionArg, StoreError } from '../src/store/index.js';
import type { Terminal } from '../src/terminal/controlling-terminal.js';
import { errorReport } from '../src/terminal/error-report.js';
import { enterFullScreen, leaveFullScreen } from '../src/terminal/screen.js';
import { sanitizeInline } from '../src/text/terminal-text.js';
import { App, type AppResult } from './App.js';
import { CrashBoundary } from './common/CrashBoundary.js';

/**
 * ink's defaults cost a key its frame: `maxFps` 30 holds a frame back up to 33 ms after the
 * previous one, and a full redraw rewrites all 40 lines for a cursor move. 120 fps keeps a frame
 * within 8 ms of its key; incremental rendering writes only the lines that changed. Redraws
 * during a load are rationed where the rows are published (src/picker/session-source.ts).
 */
export const RENDER_OPTIONS = {
  exitOnCtrlC: false,
  patchConsole: false,
  maxFps: 120,
  incrementalRendering: true,
} as const;

/** A captured stdout gets the path byte for byte; a terminal gets it made safe to show. */
function printPath(path: string, terminal: Terminal): number {
  process.stdout.write(`${terminal.stdoutRedirected ? path : sanitizeInline(path)}\n`);
  return 0;
}

/**
 * Runs the app on `terminal` (process.stdin/stdout, or /dev/tty where they are not terminals: the
 * caller opens and closes it). Messages for the user go to the terminal; stdout carries only what
 * was asked for (`--print`'s path).
 */
export async function runApp(request: InteractiveRequest, terminal: Terminal): Promise<number> {
  let treePath: string | undefined;
  if (request.kind === 'tree') {
    try {
      treePath = await resolveSessionArg(request.session!, request.locations);
    } catch (error) {
      if (error instanceof StoreError) {
        process.stderr.write(`pi-sessions: ${sanitizeInline(error.message)}\n`);
        return 1;
      }
      throw error;
    }
  }

  // pi's settings and keybindings, read once at start-up as pi reads them (problems are collected, never thrown).
  const piSettings = readPiConfig(request.locations.agentDir, request.locations.cwd);
  // pi-sessions.json's problems (read by the CLI) show with pi's own, in the first status line.
  const piConfig = { ...piSettings, problems: [...piSettings.problems, ...(request.settingsProblems ?? [])] };
  // A holder, not a `let`: the result is set from a callback, which TypeScript's narrowing cannot see.
  const outcome: { result: AppResult } = { result: { kind: 'quit', code: 0 } };
  // The mouse unless the flag or pi-sessions' settings key leaves it to the terminal.
  enterFullScreen(terminal.stdout, { stdin: terminal.stdin, mouse: piConfig.mouse && request.noMouse !== true });
  try {
    let crashed: unknown;
    const instance = render(
      <CrashBoundary
        onCrash={(error) => {
          crashed = error;
          instance.unmount();
        }}
      >
        <App
          locations={request.locations}
          piConfig={piConfig}
          printMode={request.print}
          initialScope={request.all ? 'all' : 'cwd'}
          noCache={request.noCache}
          {...(request.current !== undefined ? { current: request.current } : {})}
          {...(request.query !== undefined ? { query: request.query } : {})}
          demo={request.demo ?? false}
          {...(treePath ? { treePath } : {})}
          printEntry={request.printEntry === true}
          onResult={(r) => (outcome.result = r)}
        />
      </CrashBoundary>,
      { ...RENDER_OPTIONS, stdin: terminal.stdin, stdout: terminal.stdout },
    );
    await instance.waitUntilExit();
    if (crashed !== undefined) {
      leaveFullScreen(terminal.stdout);
      process.stderr.write(errorReport(crashed));
      return 1;
    }
  } finally {
    leaveFullScreen(terminal.stdout);
  }

  const { result } = outcome;
  // The screens check before they leave; a session can still vanish in between (pi would then
  // begin a new, empty session on its path, and a printed path would lead nowhere).
  const chosen =
    result.kind === 'quit' || result.kind === 'navigate'
      ? []
      : result.kind === 'printMarked'
        ? result.paths
        : [result.path];
  const gone = chosen.filter((path) => isGoneSync(path));
  if (gone.length > 0) {
    process.stderr.write(
      `pi-sessions: ${goneMessage(gone, terminal.stdout.columns ?? 80)}; ${result.kind !== 'resume' || request.print ? 'nothing printed' : 'pi was not started'}\n`,
    );
    return 1;
  }
  switch (result.kind) {
    case 'quit':
      return result.code;
    case 'print':
      return printPath(result.path, terminal);
    case 'printMarked':
      for (const path of result.paths) printPath(path, terminal);
      return 0;
    case 'navigate':
      // For pi's extension (`--print-entry`): the rest of stdout after `entry ` is the id, whole.
      process.stdout.write(`entry ${terminal.stdoutRedirected ? result.entryId : sanitizeInline(result.entryId)}\n`);
      return 0;
    case 'resume': {
      // `--print` promises stdout only the chosen path: a session to open in pi is that path.
      if (request.print) return printPath(result.path, terminal);
      const command = launchCommand(result);
      const pi = findOnPath('pi');
      if (!pi) {
        // A message for the user, not the command's output: stderr, where the others go.
        process.stderr.write(
          `pi is not on your PATH. To ${result.fork ? 'fork' : 'resume'} this session, run:\n  ${command}\n`,
        );
        return 1;
      }
      // The screens ask before leaving when the folder is gone; it can still vanish in between.
      if (!folderExists(result.cwd)) {
        process.stderr.write(
          `pi-sessions: cannot start pi in ${sanitizeInline(result.cwd)}: the folder does not exist\n`,
        );
        return 1;
      }
      const run = spawnSync(pi, piArgs(result), { cwd: result.cwd, stdio: [...terminal.fds, 'inherit'] });
      if (run.error) {
        process.stderr.write(
          `pi-sessions: could not start ${sanitizeInline(pi)} (${sanitizeInline(run.error.message)}); run it yourself:\n  ${command}\n`,
        );
        return 1;
      }
      return run.status ?? 1;
    }
  }
}
