/**
 * The test run's own rules: a test file whose tests are all skipped (an outside tool that cannot
 * be installed, a machine without unshare) must not fail the run. vitest runs no hooks in such a
 * file, so nothing a file needs cleaned up may depend on its afterAll (test/setup.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

it('a run of one file whose every test is skipped exits 0 and leaves nothing in its temp dir', () => {
  // Its own TMPDIR, outside this run's (which test/global-setup.ts checks at the end of this run).
  const outer = mkdtempSync(join(process.env['PI_SESSIONS_TEST_CACHE_TMPDIR'] ?? tmpdir(), 'pi-sessions-nested-run-'));
  try {
    const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const run = spawnSync(
      process.execPath,
      [
        vitest,
        'run',
        '--config',
        'test/vitest.config.ts',
        'test/demo.test.ts',
        '-t',
        'a test name that matches no test',
      ],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, TMPDIR: outer, PI_SESSIONS_TEST_HOMES: undefined, FORCE_COLOR: '0' },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(run.stdout + run.stderr).toMatch(/skipped/);
    expect(run.stderr).not.toMatch(/FAIL/);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(readdirSync(outer)).toEqual([]);
  } finally {
    rmSync(outer, { recursive: true, force: true });
  }
});
