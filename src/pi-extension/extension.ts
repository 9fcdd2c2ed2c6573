/**
 * pi-sessions as a pi package: `/sessions [query]` opens the picker and switches the running pi
 * to the chosen session; `/sessions-tree` opens the tree of pi's current session and, when the
 * tree view moved the leaf, labelled or forked, makes pi reload (or switch to the fork) so its
 * in-memory state matches the files.
 *
 * The terminal is handed over the way pi's own interactive-shell example does it: stop pi's TUI,
 * run pi-sessions as a child on the same terminal, start the TUI again and force a full redraw.
 * The child restores the terminal on every exit path (Ctrl+C included) before it ends, and pi's
 * `tui.start()` puts raw mode back; if the child cannot start, pi shows one line and goes on.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ExtensionAPI, ExtensionCommandContext } from '@earendil-works/pi-coding-agent';
import { resolveLocations } from '../store/locations.js';
import { afterPicker, afterTree, pickerArgs, treeArgs, type ChildOutcome, type FileState, type NextStep, type PiSessionFacts } from './plan.js';

/** The CLI beside this file in the package (`dist/…`), run with the Node that runs pi. */
const CLI = fileURLToPath(new URL('../cli.js', import.meta.url));

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

/** Runs the CLI full screen on pi's terminal and gives back what it printed. */
async function runFullScreen(ctx: ExtensionCommandContext, args: string[]): Promise<ChildOutcome> {
  return ctx.ui.custom<ChildOutcome>((tui, _theme, _keybindings, done) => {
    tui.stop();
    const run = spawnSync(process.execPath, [CLI, ...args], {
      cwd: ctx.cwd,
      // stdin and stderr stay the terminal; stdout is a pipe, so the picker draws on /dev/tty
      // and stdout carries only the chosen path.
      stdio: ['inherit', 'pipe', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 1024 * 1024,
    });
    tui.start();
    tui.requestRender(true);
    done({
      status: run.status,
      stdout: run.stdout ?? '',
      stderr: run.stderr ?? '',
      ...(run.error ? { error: run.error.message } : {}),
    });
    return { render: () => [], invalidate: () => {} };
  });
}

async function act(ctx: ExtensionCommandContext, step: NextStep): Promise<void> {
  switch (step.kind) {
    case 'nothing':
      return;
    case 'report':
      ctx.ui.notify(step.message, 'error');
      return;
    case 'switch':
    case 'reload':
      try {
        await ctx.switchSession(step.path);
      } catch (error) {
        ctx.ui.notify(`pi-sessions: could not open ${step.path}: ${error instanceof Error ? error.message : String(error)}`, 'error');
      }
  }
}

export default function piSessions(pi: ExtensionAPI): void {
  pi.registerCommand('sessions', {
    description: 'Browse, search and manage sessions (pi-sessions picker)',
    handler: async (args, ctx) => {
      if (!ctx.hasUI) return;
      const facts = factsOf(ctx);
      const outcome = await runFullScreen(ctx, pickerArgs(facts, args));
      await act(ctx, afterPicker(outcome, facts.sessionFile));
    },
  });

  pi.registerCommand('sessions-tree', {
    description: "Navigate this session's tree (pi-sessions tree view)",
    handler: async (_args, ctx) => {
      if (!ctx.hasUI) return;
      const facts = factsOf(ctx);
      const file = facts.sessionFile;
      const before = file === undefined ? undefined : fileState(file);
      if (file === undefined || before === undefined) {
        ctx.ui.notify('pi-sessions: this session has not been saved yet; send a message first', 'warning');
        return;
      }
      // The tree writes to this file: let a running turn finish first, as pi's own /tree does.
      await ctx.waitForIdle();
      const outcome = await runFullScreen(ctx, treeArgs({ ...facts, sessionFile: file }));
      await act(ctx, afterTree(outcome, file, before, fileState(file)));
    },
  });
}
