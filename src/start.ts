/**
 * `npm start`: opens the picker on your pi sessions, or, when there are none, on a demo store
 * generated into a temporary directory (and says so).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDemoStore } from './demo.js';
import { resolveLocations } from './store/locations.js';
import { sanitizeInline } from './text/terminal-text.js';

function hasSessions(dir: string, depth: number): boolean {
  if (!existsSync(dir)) return false;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.jsonl')) return true;
      if (depth > 0 && (entry.isDirectory() || entry.isSymbolicLink()) && hasSessions(join(dir, entry.name), depth - 1)) return true;
    }
  } catch {
    // Unreadable: the app itself will say why.
  }
  return false;
}

// The bundle the package ships (scripts/bundle.mjs), not the unbundled dist/src/cli.js.
const cli = fileURLToPath(new URL('../../bin/pi-sessions.js', import.meta.url));
const locations = resolveLocations();
const userHasSessions = locations.customDir ? hasSessions(locations.sessionDir, 0) : hasSessions(locations.sessionsRoot, 1);
let env = process.env;
let args = process.argv.slice(2);
if (!userHasSessions) {
  const agentDir = mkdtempSync(join(tmpdir(), 'pi-sessions-demo-'));
  writeDemoStore(join(agentDir, 'sessions'));
  process.stderr.write(
    // The folder may come from a repository's .pi/settings.json: shown through the sanitiser.
    `No pi sessions in ${sanitizeInline(locations.customDir ? locations.sessionDir : locations.sessionsRoot)}: opening a demo store in ${sanitizeInline(agentDir)} (changes there are harmless).\n`,
  );
  env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
  delete env['PI_CODING_AGENT_SESSION_DIR'];
  args = ['--all', ...args];
}
const run = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit', env });
process.exitCode = run.status ?? 1;
