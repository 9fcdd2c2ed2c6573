/**
 * `npm start`: opens the picker on your pi sessions, or, when there are none, on a demo store
 * generated into a temporary directory, which also holds the demo's catalogue and journal: the
 * screen says it is a demo, and the directory is removed when the app exits, whichever way it
 * does (a key, Ctrl+C, SIGTERM/SIGHUP/SIGINT/SIGQUIT sent to this process, the app crashing or
 * being killed). Only SIGKILL of this process itself leaves it behind: nothing can run then.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_STORE_ENV } from './demo-store-env.js';
import { resolveLocations } from './store/index.js';
import { LEAVE_WITH_MOUSE } from './terminal/screen.js';
import { sanitizeInline } from './text/terminal-text.js';
import { writeDemoStore } from './tools/demo.js';

function hasSessions(dir: string, depth: number): boolean {
  if (!existsSync(dir)) return false;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.jsonl')) return true;
      if (depth > 0 && (entry.isDirectory() || entry.isSymbolicLink()) && hasSessions(join(dir, entry.name), depth - 1))
        return true;
    }
  } catch {
    // Unreadable: the app itself will say why.
  }
  return false;
}

// The bundle the package ships (scripts/bundle.mjs), not the unbundled dist/src/cli.js.
const cli = fileURLToPath(new URL('../../bin/pi-sessions.js', import.meta.url));
const locations = resolveLocations();
const userHasSessions = locations.customDir
  ? hasSessions(locations.sessionDir, 0)
  : hasSessions(locations.sessionsRoot, 1);
let env = process.env;
let args = process.argv.slice(2);
let demoDir: string | undefined;
if (!userHasSessions) {
  demoDir = mkdtempSync(join(tmpdir(), 'pi-sessions-demo-'));
  const removeDemo = (): void => rmSync(demoDir!, { recursive: true, force: true });
  // 'exit' runs on a normal end and after an uncaught exception here; signals are forwarded below.
  process.on('exit', removeDemo);
  writeDemoStore(join(demoDir, 'sessions'));
  process.stderr.write(
    // The folder may come from a repository's .pi/settings.json: shown through the sanitiser.
    `No pi sessions in ${sanitizeInline(locations.customDir ? locations.sessionDir : locations.sessionsRoot)}: opening a demo store in ${sanitizeInline(demoDir)} (removed when the app exits).\n`,
  );
  // The demo's catalogue and journal live in its folder too, so nothing of it is left in
  // ~/.cache or ~/.local/state (a rename or delete tried in the demo is journalled there).
  env = {
    ...process.env,
    PI_CODING_AGENT_DIR: demoDir,
    [DEMO_STORE_ENV]: demoDir,
    XDG_CACHE_HOME: join(demoDir, 'cache'),
    XDG_STATE_HOME: join(demoDir, 'state'),
  };
  delete env['PI_CODING_AGENT_SESSION_DIR'];
  args = ['--all', ...args];
}

// Asynchronous, so this process can take signals while the app runs: it passes them on and
// cleans up once the app is gone (a Ctrl+C typed before the app takes the terminal reaches both).
const child = spawn(process.execPath, [cli, ...args], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}
child.on('error', (error) => {
  process.stderr.write(`pi-sessions: could not start ${sanitizeInline(cli)}: ${sanitizeInline(error.message)}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  // Killed (SIGKILL, a crash of node itself), the app could not put the terminal back: do it here,
  // so the shell is not left raw on the alternate screen.
  if (signal !== null) restoreTerminal();
  // 128 + the signal's number, as a shell reports a process ended by one.
  const signalCodes: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGQUIT: 131, SIGKILL: 137 };
  process.exit(code ?? (signal ? (signalCodes[signal] ?? 1) : 1));
});

function restoreTerminal(): void {
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  // Whether the app had the mouse on or not: turning off a mode that is off does nothing.
  if (process.stdout.isTTY) process.stdout.write(LEAVE_WITH_MOUSE);
}
