/**
 * pi-sessions as a pi package: `/sessions [query]` opens the picker and switches the running pi
 * to the chosen session; `/sessions-tree` opens the tree of pi's current session: "Resume from
 * here" there is pi's own tree move (`navigateTree`), and when the tree view labelled, summarised
 * or forked, pi reloads (or switches to the fork) so its in-memory state matches the files.
 *
 * The terminal is handed over the way pi's own interactive-shell example does it: stop pi's TUI,
 * run pi-sessions as a child on the same terminal, start the TUI again and force a full redraw.
 * The child restores the terminal on every exit path (Ctrl+C included) before it ends, to the
 * modes `tui.stop()` left (main screen, cursor shown, bracketed paste, kitty keyboard flags,
 * modifyOtherKeys and mouse reporting off), and pi's `tui.start()` puts its own back; the terminal stays raw all
 * along (keepRawWhileHandedOver). If the child cannot start, pi shows one line and goes on.
 *
 * Built twice: unbundled (`dist/src/pi-extension/extension.js`, next to `dist/src/cli.js`) and as
 * the package's bundle (`bin/pi-extension.js`, next to `bin/pi-sessions.js`); `cliCandidates`
 * knows both. Only type imports from pi: the bundle needs nothing at run time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtensionAPI, ExtensionCommandContext } from '@earendil-works/pi-coding-agent';
// locations.ts alone, not the door: this file is bundled on its own and loaded into pi's process.
import { resolveLocations } from '../store/locations.js';
import { DISABLE_MOUSE } from '../terminal/screen.js';
import { sanitizeInline } from '../text/terminal-text.js';
import {
  afterPicker,
  afterTree,
  type ChildOutcome,
  cliCandidates,
  type FileState,
  missingCliMessage,
  type NextStep,
  type PiSessionFacts,
  pickerArgs,
  treeArgs,
} from './plan.js';

/** The pi-sessions program of this package, looked up at each command (an update may move it). */
function locateCli(): { path: string } | { missing: string } {
  const candidates = cliCandidates(dirname(fileURLToPath(import.meta.url)));
  const path = candidates.find((candidate) => existsSync(candidate));
  return path === undefined ? { missing: missingCliMessage(candidates) } : { path };
}

function factsOf(ctx: ExtensionCommandContext): PiSessionFacts {
  return {
    cwd: ctx.cwd,
    sessionFile: ctx.sessionManager.getSessionFile(),
    sessionDir: ctx.sessionManager.getSessionDir(),
    defaultSessionDir: resolveLocations({ cwd: ctx.cwd }).sessionDir,
  };
}

function fileState(path: string): FileState | undefined {
  try {
    const stats = statSync(path);
    return { size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * A SIGINT to the terminal's process group while the child runs (`kill -INT -<pgid>`; Ctrl+C is
 * a key, the terminal being raw) reaches pi too, and pi must not die of it: pi has a SIGINT
 * listener of its own (signal-exit's) that re-raises the signal when it is the only one left.
 */
const ignoreInterrupt = (): void => {};

/**
 * A SIGINT that arrived while spawnSync blocked is only queued: Node emits it when the event
 * loop next polls. From here (a command handler, in the poll phase) the first setImmediate runs
 * in this turn's check phase, before that poll; the one it queues runs in the next turn's check
 * phase, after it. Only then may the no-op go.
 */
function releaseInterrupt(): void {
  setImmediate(() => setImmediate(() => process.off('SIGINT', ignoreInterrupt)));
}

/**
 * The terminal stays raw while pi-sessions has it, from `tui.stop()` to `tui.start()`.
 *
 * `tui.stop()` puts the terminal back in cooked mode (echo, line editing, Ctrl+C a SIGINT), as for
 * a shell. pi-sessions takes raw mode a moment after it starts, and gives back on exit the mode it
 * found; then pi takes raw mode again only once the child is gone. Keys typed in those gaps (while
 * Node starts, and once the picker's screen is gone but before pi has redrawn, where a user types
 * what is meant for pi) met a cooked terminal: echoed onto the shell's screen, and a Ctrl+C there
 * was a SIGINT that flushed the keys typed before it (lost) and was swallowed (pi ignores SIGINT
 * meanwhile). In raw mode they wait in the terminal, byte for byte, for the next reader: the child
 * while it reads (it stops reading the moment it is done, see input-router.tsx), then pi.
 *
 * Returns the function that restores the mode `tui.stop()` left, which `tui.start()` then saves
 * as the mode to give back when pi exits (raw there would leave the user's shell raw).
 */
function keepRawWhileHandedOver(): () => void {
  const stdin = process.stdin;
  if (!stdin.isTTY || typeof stdin.setRawMode !== 'function') return () => {};
  const handedOver = stdin.isRaw;
  stdin.setRawMode(true);
  return () => {
    stdin.setRawMode(handedOver);
  };
}

/** Runs the CLI full screen on pi's terminal and gives back what it printed. */
async function runFullScreen(ctx: ExtensionCommandContext, cli: string, args: string[]): Promise<ChildOutcome> {
  return ctx.ui.custom<ChildOutcome>((tui, _theme, _keybindings, done) => {
    let outcome: ChildOutcome = { status: null, stdout: '', stderr: '', error: 'it did not run' };
    process.on('SIGINT', ignoreInterrupt);
    tui.stop();
    const restoreMode = keepRawWhileHandedOver();
    try {
      const run = spawnSync(process.execPath, [cli, ...args], {
        cwd: ctx.cwd,
        // stdin stays the terminal (keys); stdout is a pipe, so pi-sessions draws on /dev/tty
        // and stdout carries only the chosen path; stderr is a pipe for pi's one-line notice.
        stdio: ['inherit', 'pipe', 'pipe'],
        encoding: 'utf8',
        maxBuffer: 1024 * 1024,
      });
      outcome = {
        status: run.status,
        signal: run.signal,
        stdout: run.stdout ?? '',
        stderr: run.stderr ?? '',
        ...(run.error ? { error: run.error.message } : {}),
      };
    } catch (error) {
      outcome = { ...outcome, error: error instanceof Error ? error.message : String(error) };
    } finally {
      // The child turns the mouse off on every way out it lives through; a child killed outright
      // (SIGKILL) cannot, and pi's regular mode never turns it off itself, so clicks would type
      // reports into pi's editor. Only then: a write of pi's own here on every return costs the
      // keys typed while pi takes the terminal back (the pty test of keys typed after Esc loses
      // them). pi's fullscreen mode turns its own mouse on again in tui.start().
      if (outcome.signal && process.stdout.isTTY) process.stdout.write(DISABLE_MOUSE);
      restoreMode();
      tui.start();
      tui.requestRender(true);
      releaseInterrupt();
    }
    done(outcome);
    return { render: () => [], invalidate: () => {} };
  });
}

/** pi's error as one safe line (the path and pi's message may quote bytes from disk). */
function notifyFailure(ctx: ExtensionCommandContext, what: string, error: unknown): void {
  ctx.ui.notify(
    sanitizeInline(`pi-sessions: ${what}: ${error instanceof Error ? error.message : String(error)}`),
    'error',
  );
}

/**
 * pi's own tree move, as its /tree makes it: pi's interactive handler for `navigateTree` moves
 * the leaf (at a user message: to its parent), redraws the conversation and, when its editor is
 * empty, puts the message's text there, all within the call, on the session pi keeps running.
 */
async function navigate(ctx: ExtensionCommandContext, entryId: string): Promise<void> {
  try {
    await ctx.navigateTree(entryId);
  } catch (error) {
    notifyFailure(ctx, `could not move to entry ${entryId}`, error);
  }
}

async function act(ctx: ExtensionCommandContext, step: NextStep): Promise<void> {
  switch (step.kind) {
    case 'nothing':
      return;
    case 'report':
      ctx.ui.notify(step.message, 'error');
      return;
    case 'navigate':
      if (step.reloadFirst === undefined) return navigate(ctx, step.entryId);
      // The tree wrote to the file as well: pi reads it again, then moves, through the context of
      // the session it switched to (the command's own is stale once the session is replaced).
      try {
        await ctx.switchSession(step.reloadFirst, { withSession: (fresh) => navigate(fresh, step.entryId) });
      } catch (error) {
        notifyFailure(ctx, `could not open ${step.reloadFirst}`, error);
      }
      return;
    case 'switch':
    case 'reload':
      try {
        await ctx.switchSession(step.path);
      } catch (error) {
        notifyFailure(ctx, `could not open ${step.path}`, error);
      }
  }
}

export default function piSessions(pi: ExtensionAPI): void {
  pi.registerCommand('sessions', {
    description: 'Browse, search and manage sessions (pi-sessions picker)',
    handler: async (args, ctx) => {
      if (!ctx.hasUI) return;
      const cli = locateCli();
      if ('missing' in cli) return ctx.ui.notify(cli.missing, 'error');
      const facts = factsOf(ctx);
      const before = facts.sessionFile === undefined ? undefined : fileState(facts.sessionFile);
      const outcome = await runFullScreen(ctx, cli.path, pickerArgs(facts, args));
      const after = facts.sessionFile === undefined ? undefined : fileState(facts.sessionFile);
      await act(ctx, afterPicker(outcome, facts.sessionFile, before, after));
    },
  });

  pi.registerCommand('sessions-tree', {
    description: "Navigate this session's tree (pi-sessions tree view)",
    handler: async (_args, ctx) => {
      if (!ctx.hasUI) return;
      const cli = locateCli();
      if ('missing' in cli) return ctx.ui.notify(cli.missing, 'error');
      const facts = factsOf(ctx);
      const file = facts.sessionFile;
      const before = file === undefined ? undefined : fileState(file);
      if (file === undefined || before === undefined) {
        ctx.ui.notify('pi-sessions: this session has not been saved yet; send a message first', 'warning');
        return;
      }
      // The tree writes to this file: let a running turn finish first, as pi's own /tree does.
      await ctx.waitForIdle();
      const outcome = await runFullScreen(ctx, cli.path, treeArgs({ ...facts, sessionFile: file }));
      await act(ctx, afterTree(outcome, file, before, fileState(file)));
    },
  });
}
