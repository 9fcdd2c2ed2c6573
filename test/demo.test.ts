/** The demo store behind `npm start` is a valid pi store: our reader and the real pi agree. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { branchPointCount, buildTree, listSessions, readSessionSync, resolveLocations } from '../src/store/index.js';
import { writeDemoStore } from '../src/tools/demo.js';
import { tempDir } from './helpers/factory.js';
import { openWithPi } from './helpers/pi.js';

describe('demo store', () => {
  it('writes sessions that list without problems and load in pi unchanged', async () => {
    const agent = tempDir();
    const { files, mainCwd } = writeDemoStore(join(agent, 'sessions'), Date.UTC(2026, 10, 29, 12));
    const { sessions, skipped } = await listSessions(
      resolveLocations({ cwd: mainCwd, env: { PI_CODING_AGENT_DIR: agent } }),
      { scope: 'all' },
    );
    expect(skipped).toEqual([]);
    expect(sessions).toHaveLength(files.length);
    for (const s of sessions) expect(s.problems, s.path).toEqual([]);
    // The six hand-written sessions first: two named, one fork of the first; then generated projects.
    const written = files.slice(0, 6).map((file) => sessions.find((s) => s.path === file)!);
    expect(written.filter((s) => s.name)).toHaveLength(2);
    expect(written.filter((s) => s.parentSessionPath).map((s) => s.parentSessionPath)).toEqual([files[0]]);
    expect(new Set(sessions.map((s) => s.cwd)).size).toBeGreaterThanOrEqual(6);
    for (const file of files) {
      const loaded = readSessionSync(file);
      if (!loaded.ok) throw new Error(loaded.message);
      const tree = buildTree(loaded);
      const pi = await openWithPi(file);
      expect(pi.changedOnOpen).toBe(false);
      expect(pi.manager.getLeafId()).toBe(tree.leafId);
      expect(pi.manager.getSessionName()).toBe(tree.sessionName);
    }
    const checkout = readSessionSync(files[0]!);
    if (!checkout.ok) throw new Error(checkout.message);
    expect(branchPointCount(buildTree(checkout))).toBe(1);
  });
});
