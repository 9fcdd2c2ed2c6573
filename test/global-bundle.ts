/**
 * Every test run bundles the current sources first (scripts/bundle.mjs, ~2 s), so the tests that
 * run the CLI as a user would (`node bin/pi-sessions.js`, in a pty or not) never run a bundle
 * older than the sources: `npm run test:unit`, a bare `npx vitest run` and `vitest --watch` as
 * much as `npm test`. In watch mode it bundles again before each rerun.
 */
import type { TestProject } from 'vitest/node';
import { bundle } from '../scripts/bundle.mjs';

export default async function setup(project: TestProject): Promise<void> {
  await bundle();
  project.onTestsRerun(async () => {
    await bundle();
  });
}
