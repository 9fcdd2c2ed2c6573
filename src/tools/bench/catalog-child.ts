/**
 * One warm start in a fresh process (run by tools/bench/catalog.ts): a fresh process is what a user
 * starts, so the figures include cold JIT and an empty in-memory state, not a hot loop.
 *
 * argv[2]: JSON {agentDir, cacheDir, query}. Prints JSON figures on stdout.
 */
import { listSessionsCached } from '../../catalog/index.js';
import { createSearchIndex, parseQuery, prepareTexts, searchSessions } from '../../picker/query.js';
import { resolveLocations, type SessionInfo } from '../../store/index.js';
import { statFloor } from './stat-floor.js';

async function main(): Promise<void> {
  const { agentDir, cacheDir, query } = JSON.parse(process.argv[2] ?? '{}') as {
    agentDir: string;
    cacheDir: string;
    query: string;
  };
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } });
  const t0 = performance.now();
  let paintMs = -1;
  let painted: SessionInfo[] = [];
  const result = await listSessionsCached(locations, {
    scope: 'all',
    cacheDir,
    onCached: (rows) => {
      paintMs = performance.now() - t0;
      painted = rows;
    },
  });
  const completeMs = performance.now() - t0;
  await result.saved;
  const t1 = performance.now();
  statFloor(locations.sessionsRoot);
  const floorMs = performance.now() - t1;

  // What the picker does on the first keystroke right after the paint: answer from the text
  // prepared so far (none yet) and say how much is indexed.
  const sessions = result.sessions;
  const nowMs = Date.now();
  const t2 = performance.now();
  const early = searchSessions(
    createSearchIndex(painted.length > 0 ? painted : sessions),
    parseQuery(query.slice(0, 1), nowMs),
    { preparedOnly: true },
  );
  const earlyKeystrokeMs = performance.now() - t2;

  // Background indexing, as the picker's idle slices do it (reads each text from the catalogue).
  const t3 = performance.now();
  while (prepareTexts(sessions, 12) > 0) await new Promise<void>((resolve) => setImmediate(resolve));
  const indexMs = performance.now() - t3;

  // Typing the query once the text is indexed: the first keystroke builds the index.
  const keystrokes: number[] = [];
  let index = createSearchIndex(sessions);
  let matches = 0;
  for (let i = 1; i <= query.length; i++) {
    const t = performance.now();
    if (i === 1) index = createSearchIndex(sessions);
    matches = searchSessions(index, parseQuery(query.slice(0, i), nowMs), { preparedOnly: true }).matches.length;
    keystrokes.push(performance.now() - t);
  }
  process.stdout.write(
    JSON.stringify({
      sessions: sessions.length,
      paintMs,
      completeMs,
      floorMs,
      stats: result.stats,
      earlyKeystrokeMs,
      earlyUnindexed: early.unindexed,
      indexMs,
      keystrokes,
      matches,
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
