/**
 * Every test run gets a fresh temp dir (TMPDIR, inherited by the workers and every process they
 * spawn), and fails if anything is left in it at the end: a test that forgets to clean up is
 * named here instead of filling the machine's /tmp.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const outer = tmpdir();
  const runDir = mkdtempSync(join(outer, 'pi-sessions-run-'));
  // Like /tmp itself: tests that run the CLI as another uid (setpriv) must reach their folders.
  chmodSync(runDir, 0o1777);
  process.env['TMPDIR'] = runDir;
  return () => {
    process.env['TMPDIR'] = outer;
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
