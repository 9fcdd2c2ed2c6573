/**
 * Every test run gets a fresh temp dir (TMPDIR, inherited by the workers and every process they
 * spawn), and fails if anything is left in it at the end: a test that forgets to clean up is
 * named here instead of filling the machine's /tmp.
 */
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `pi-sessions-run-<pid>`: digits only, unlike mkdtemp's random letters. Tests search sessions
 * whose cwd lies under this folder, and the picker's abbreviation tier matches any in-order
 * letters of a cwd, so random letters here would make a query like `obs` match at random.
 */
function makeRunDir(outer: string): string {
  for (let attempt = 0; ; attempt++) {
    const dir = join(outer, `pi-sessions-run-${process.pid}${attempt > 0 ? `-${attempt}` : ''}`);
    try {
      mkdirSync(dir, { mode: 0o700 });
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

export default function setup(): () => void {
  const outer = tmpdir();
  const runDir = makeRunDir(outer);
  // Like /tmp itself: tests that run the CLI as another uid (setpriv) must reach their folders.
  chmodSync(runDir, 0o1777);
  process.env['TMPDIR'] = runDir;
  // Caches meant to outlive a run (the Node 22 that pi's TUI needs, see test/e2e/pi-tui.ts)
  // go in the machine's temp dir instead.
  process.env['PI_SESSIONS_TEST_CACHE_TMPDIR'] = outer;
  // Each test file's catalogue and journal folders (test/setup.ts): beside the run's temp dir, not
  // in it, and removed as a whole at the end, whether or not the file's own hooks ran.
  const homesDir = `${runDir}-homes`;
  // A fresh run dir's name was free, so a homes folder of that name is a crashed run's leftover.
  rmSync(homesDir, { recursive: true, force: true });
  mkdirSync(homesDir, { mode: 0o700 });
  chmodSync(homesDir, 0o1777);
  process.env['PI_SESSIONS_TEST_HOMES'] = homesDir;
  return () => {
    process.env['TMPDIR'] = outer;
    rmSync(homesDir, { recursive: true, force: true });
    const left = readdirSync(runDir);
    rmSync(runDir, { recursive: true, force: true });
    if (left.length > 0) {
      const shown = left.slice(0, 20).join(', ') + (left.length > 20 ? `, … (${left.length - 20} more)` : '');
      // vitest only logs an error thrown here and still exits 0, so fail the run by its exit code.
      process.stderr.write(`\nFAIL: the tests left ${left.length} item(s) in their temp dir (${runDir}): ${shown}\n`);
      process.exitCode = 1;
    }
  };
}
