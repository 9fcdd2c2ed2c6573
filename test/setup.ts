import { afterAll } from 'vitest';
import { removeTempDirs, tempDir } from './helpers/factory.js';

// ink renders no intermediate frames under CI=true (is-in-ci); our CI sets it. Tests need frames.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
// Plain-text assertions: no colour codes in frames unless a test asks for them.
process.env.FORCE_COLOR = '0';
// The session catalogue must never touch the real ~/.cache: every test file (and every CLI or
// picker process it spawns, which inherit the environment) gets a throwaway cache folder.
process.env.XDG_CACHE_HOME = tempDir('pi-sessions-test-cache-');
// Registered before the file's own hooks, so it runs after them: the file's last process is gone.
afterAll(removeTempDirs);
// The same for the journal of our changes ($XDG_STATE_HOME/pi-sessions): never the real ~/.local/state.
process.env.XDG_STATE_HOME = tempDir('pi-sessions-test-state-');
