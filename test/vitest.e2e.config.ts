import { defineConfig } from 'vitest/config';

// The suites that drive real processes in real pseudo-terminals or chew through hundreds of MB
// (end-to-end, hostile input, concurrent writers). They run one file at a time, after the unit
// suites, so a screen never competes with a 200 MB parse for the two cores: their timeouts then
// measure the app, not the machine.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/e2e/**/*.test.ts', 'test/hostile/**/*.test.ts', 'test/concurrency/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // A fresh TMPDIR per run (the run fails if a test leaves anything in it); the bundle of the
    // current sources.
    globalSetup: ['test/global-setup.ts', 'test/global-bundle.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // No retries: a scenario waits for the screen state it needs (never a sleep), so a failure
    // is a race to find and fix, not to retry.
  },
});
