import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/factory.js';

// ink renders no intermediate frames under CI=true (is-in-ci); our CI sets it. Tests need frames.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
// Plain-text assertions: no colour codes in frames unless a test asks for them.
process.env.FORCE_COLOR = '0';

// The session catalogue ($XDG_CACHE_HOME) and the journal of our changes ($XDG_STATE_HOME) must
// never touch the real ~/.cache or ~/.local/state: every test file (and every CLI or picker
// process it spawns, which inherit the environment) gets throwaway folders of its own. They live
// in the run's homes folder (test/global-setup.ts), which the run removes as a whole: vitest runs
// no hooks in a file whose tests are all skipped, so they must not depend on this file's afterAll.
const homes = process.env['PI_SESSIONS_TEST_HOMES'];
if (homes === undefined)
  throw new Error('test/setup.ts needs test/global-setup.ts (PI_SESSIONS_TEST_HOMES is not set)');
process.env.XDG_CACHE_HOME = mkdtempSync(join(homes, 'cache-'));
process.env.XDG_STATE_HOME = mkdtempSync(join(homes, 'state-'));
// Registered before the file's own hooks, so it runs after them: the file's last process is gone.
afterAll(removeTempDirs);
