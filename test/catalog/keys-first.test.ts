/**
 * Loading never starves keys: a warm start paints a screenful of the newest
 * catalogue rows before the whole list, and revalidation stands aside while `pause` asks it to
 * (the picker passes `keyPauseMs`, non-zero for a moment after each key).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSessionsCached } from '../../src/catalog/index.js';
import { createStoreSource, FIRST_PAINT_ROWS } from '../../src/picker/session-source.js';
import { resolveLocations, type SessionInfo } from '../../src/store/index.js';
import { discoverSessionFiles, discoverSessionFilesSliced } from '../../src/store/summary/list.js';
import { markKeyArrived } from '../../src/terminal/input-activity.js';
import { KEY_QUIET_MS, keyPauseMs } from '../../src/terminal/key-pause.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { age } from './helpers.js';

const SESSIONS = FIRST_PAINT_ROWS + 30;

function manySessions() {
  const agentDir = tempDir('pi-sessions-keys-first-');
  const root = join(agentDir, 'sessions');
  for (let i = 0; i < SESSIONS; i++) {
    const id = `019b0000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    const session = new SessionBuilder({ id, cwd: `/home/test/p${i % 4}` });
    session.user(`question ${i}`);
    session.assistant(`answer ${i}`);
    age(session.writeTo(join(root, `--home-test-p${i % 4}--`, `2026-01-05T09-00-00-000Z_${id}.jsonl`)));
  }
  return { agentDir, locations: resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } }) };
}

describe('keys first', () => {
  it('keyPauseMs asks background work to wait for KEY_QUIET_MS after a key', () => {
    // Whole milliseconds, so the sums below are exact in floating point.
    const now = Math.round(performance.now());
    markKeyArrived(now);
    expect(keyPauseMs(now)).toBe(KEY_QUIET_MS);
    expect(keyPauseMs(now + KEY_QUIET_MS / 2)).toBe(KEY_QUIET_MS / 2);
    expect(keyPauseMs(now + KEY_QUIET_MS)).toBe(0);
    expect(keyPauseMs(now + 10 * KEY_QUIET_MS)).toBe(0);
  });

  it('a warm start publishes the newest screenful first; the whole list comes with the end of the load', async () => {
    const { locations } = manySessions();
    const source = createStoreSource(locations);
    await source.list('all', () => undefined, new AbortController().signal);
    // Let the background save land before the warm start (the source does not wait for it).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const publishes: SessionInfo[][] = [];
    const summary = await source.list('all', (sessions) => void publishes.push(sessions), new AbortController().signal);
    const newest = summary.sessions.map((s) => s.path);
    expect(publishes[0]!.map((s) => s.path)).toEqual(newest.slice(0, FIRST_PAINT_ROWS));
    // A later publish, if any (only when the load outlasts PUBLISH_INTERVAL_MS), is the whole list.
    expect(publishes.slice(1).every((p) => p.length === SESSIONS)).toBe(true);
    expect(summary.sessions).toHaveLength(SESSIONS);
  });

  it('revalidation stands aside while paused, and goes on when the pause ends', async () => {
    const { locations } = manySessions();
    const cacheDir = join(tempDir('pi-sessions-keys-first-cache-'), 'pi-sessions');
    await (await listSessionsCached(locations, { scope: 'all', cacheDir })).saved;
    let paused = true;
    let progress = 0;
    let painted = 0;
    const listing = listSessionsCached(locations, {
      scope: 'all',
      cacheDir,
      pause: () => (paused ? 5 : 0),
      onCached: (rows) => {
        painted = rows.length;
      },
      onProgress: (done) => (progress = done),
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(painted).toBe(SESSIONS);
    expect(progress).toBe(0);
    paused = false;
    const result = await listing;
    expect(progress).toBe(SESSIONS);
    expect(result.sessions).toHaveLength(SESSIONS);
  });

  it('discovery stands aside between folders (the sliced form finds exactly what the plain one does)', async () => {
    const { locations } = manySessions();
    let steps = 0;
    const sliced = await discoverSessionFilesSliced(locations, 'all', () => {
      steps++;
      return undefined;
    });
    expect(sliced.files).toEqual(discoverSessionFiles(locations, 'all').files);
    // One step per project folder at least: keys get in while 10,000 files are stat'ed.
    expect(steps).toBeGreaterThanOrEqual(4);
  });
});
