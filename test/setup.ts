import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// ink renders no intermediate frames under CI=true (is-in-ci); our CI sets it. Tests need frames.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
// Plain-text assertions: no colour codes in frames unless a test asks for them.
process.env.FORCE_COLOR = '0';
// The session catalogue must never touch the real ~/.cache: every test file (and every CLI or
// picker process it spawns, which inherit the environment) gets a throwaway cache folder.
process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), 'pi-sessions-test-cache-'));
