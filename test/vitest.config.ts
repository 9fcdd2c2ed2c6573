import { defineConfig } from 'vitest/config';

// Kept under test/ so the top level stays package.json, tsconfig.json, src/, components/, test/.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Real-terminal, hostile-input and concurrency suites: test/vitest.e2e.config.ts.
    exclude: ['test/e2e/**', 'test/hostile/**', 'test/concurrency/**', '**/node_modules/**'],
    setupFiles: ['test/setup.ts'],
    // A fresh TMPDIR per run (the run fails if a test leaves anything in it); the bundle of the
    // current sources.
    globalSetup: ['test/global-setup.ts', 'test/global-bundle.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: run files in parallel, but not more than the machine has.
    maxWorkers: 2,
  },
});
