/**
 * What a user sees, in a real pty: key → frame for a cursor move, a search keystroke and
 * a filter change in the picker and a cursor move in the tree (100k entries); first rows warm (a
 * catalogue exists) and cold (a fresh cache folder every round, so no round is warm); the first
 * keystroke right after the first rows. Next to two floors measured in the same run: node printing
 * one line, and a bundled ink "hello" (dist/bench/ink-hello.js, bundled like the app).
 *
 * Every program runs the shipped bundle (bin/pi-sessions.js) in a fresh process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogueDir, listSessionsCached } from '../../catalog/index.js';
import { resolveLocations } from '../../store/index.js';
import { APP_BUNDLE, appEnv, cursorLine, PtyApp, type Screen } from './pty-app.js';
import type { BenchStores } from './stores.js';

export interface FrameContext {
  stores: BenchStores;
  rounds: number;
  log(text: string): void;
  median(values: number[]): number;
  fmt(ms: number): string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const INK_HELLO = resolve(HERE, '..', '..', '..', 'bench', 'ink-hello.js');
/** Keys per key → frame figure (moves alternate down/up so the cursor stays in view). */
const KEYS_PER_FIGURE = 20;
const QUERY = 'refactor';
const DOWN = '\u001b[B';
const UP = '\u001b[A';
const CTRL_N = '\u000e';
/** A frame that followed a key within this much of an earlier one is not "after a rest". */
const REST_MS = 150;

/** The picker's first rows: a row with the cursor glyph. */
const hasRows = (s: Screen): boolean => cursorLine(s) !== -1;

/** A cache home whose catalogue for `sessionsRoot` is complete (what a second start finds). */
async function warmCacheHome(sessionsRoot: string): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-cache-'));
  const agentDir = dirname(sessionsRoot);
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } });
  const result = await listSessionsCached(locations, {
    scope: 'all',
    cacheDir: catalogueDir({ XDG_CACHE_HOME: home }),
  });
  await result.saved;
  return home;
}

async function spawnTime(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: (s: Screen) => boolean,
  what: string,
): Promise<number> {
  const app = await PtyApp.spawn(args, env);
  try {
    return await app.waitFor(ready, undefined, what);
  } finally {
    app.kill();
  }
}

/** Key → frame of each key; `expect(i, before)` tells what the i-th key's frame shows. */
async function keyFrames(
  app: PtyApp,
  keys: (i: number) => string,
  expect: (i: number, before: Screen) => (s: Screen) => boolean,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < KEYS_PER_FIGURE; i++) {
    await app.quiet(REST_MS);
    samples.push(await app.press(keys(i), expect(i, app.screen())));
  }
  return samples;
}

const moveKeys = (i: number): string => (i % 2 === 0 ? DOWN : UP);
/** The tree opens on the leaf, which is often its last row: Up first, so every key moves. */
const treeMoveKeys = (i: number): string => (i % 2 === 0 ? UP : DOWN);
/** The frame where the cursor row moved the way `keys(i)` says. */
const movedBy = (keys: (i: number) => string) => (i: number, before: Screen) => {
  const from = cursorLine(before);
  const to = keys(i) === DOWN ? from + 1 : from - 1;
  return (s: Screen) => cursorLine(s) === to;
};
const moved = movedBy(moveKeys);

export async function frameBenches(ctx: FrameContext): Promise<Record<string, unknown>> {
  const { stores, rounds, log, median, fmt } = ctx;
  const agentA = dirname(stores.storeA);
  const agent10k = dirname(stores.store10k);
  const warmA = await warmCacheHome(stores.storeA);
  const warm10k = await warmCacheHome(stores.store10k);
  const envA = appEnv(agentA, warmA);
  try {
    const nodeFloor: number[] = [];
    const inkFloor: number[] = [];
    const warm2k: number[] = [];
    const warm10kRows: number[] = [];
    const cold2k: number[] = [];
    const firstKey: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Interleaved, so a burst of load on the shared machine hits every figure alike.
      nodeFloor.push(
        await spawnTime(
          ['-e', "process.stdout.write('ready\\n'); setTimeout(() => {}, 60000)"],
          envA,
          (s) => s.text.includes('ready'),
          'node',
        ),
      );
      inkFloor.push(await spawnTime([INK_HELLO], envA, (s) => s.text.includes('hello from ink'), 'ink hello'));
      warm2k.push(await spawnTime([APP_BUNDLE, '--all'], envA, hasRows, 'first rows (warm, 2,000)'));
      warm10kRows.push(
        await spawnTime([APP_BUNDLE, '--all'], appEnv(agent10k, warm10k), hasRows, 'first rows (warm, 10,000)'),
      );
      const coldHome = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-cold-'));
      try {
        cold2k.push(
          await spawnTime([APP_BUNDLE, '--all'], appEnv(agentA, coldHome), hasRows, 'first rows (cold, 2,000)'),
        );
      } finally {
        rmSync(coldHome, { recursive: true, force: true });
      }
      // The first keystroke right after the first rows, while the rest of the start-up still runs.
      const app = await PtyApp.spawn([APP_BUNDLE, '--all'], envA);
      try {
        await app.waitFor(hasRows, undefined, 'first rows');
        firstKey.push(await app.press('x', (s) => s.lines[1]?.startsWith('> x') === true, 'the first keystroke'));
      } finally {
        app.kill();
      }
    }

    // Key → frame on a picker that has finished starting (list complete, text prepared).
    const picker = await PtyApp.spawn([APP_BUNDLE, '--all'], envA);
    let move: number[];
    let search: number[];
    let filter: number[];
    try {
      await picker.waitFor(hasRows, undefined, 'first rows');
      await picker.quiet(1000);
      move = await keyFrames(picker, moveKeys, moved);
      filter = await keyFrames(
        picker,
        () => CTRL_N,
        (i) => (s) => (s.lines[0]?.includes('named only') ?? false) === (i % 2 === 0),
      );
      search = [];
      for (let i = 1; i <= QUERY.length; i++) {
        await picker.quiet(REST_MS);
        search.push(
          await picker.press(
            QUERY[i - 1]!,
            (s) => s.lines[1]?.startsWith(`> ${QUERY.slice(0, i)}`) === true,
            `search "${QUERY.slice(0, i)}"`,
          ),
        );
      }
    } finally {
      picker.kill();
    }

    const tree = await PtyApp.spawn([APP_BUNDLE, 'tree', stores.tree100kFile], envA);
    let treeMove: number[];
    try {
      await tree.waitFor(hasRows, undefined, 'the tree');
      await tree.quiet(1000);
      treeMove = await keyFrames(tree, treeMoveKeys, movedBy(treeMoveKeys));
    } finally {
      tree.kill();
    }

    const ink = median(inkFloor);
    const figure = (samples: number[]) => ({ medianMs: median(samples), samples });
    log(`\nscreens in a real pty (${rounds} fresh processes each; the bundle bin/pi-sessions.js):`);
    log(`  floors: node printing one line ${fmt(median(nodeFloor))}, bundled ink hello ${fmt(ink)}`);
    log(
      `  first rows, warm, 2,000 sessions:   ${fmt(median(warm2k))} = ${(median(warm2k) / ink).toFixed(2)}× ink hello (target ≤ 1.3×)`,
    );
    log(
      `  first rows, warm, 10,000 sessions:  ${fmt(median(warm10kRows))} = ${(median(warm10kRows) / ink).toFixed(2)}× ink hello (target ≤ 1.5×)`,
    );
    log(`  first rows, cold, 2,000 sessions:   ${fmt(median(cold2k))} (target ≤ 700 ms)`);
    log(`  first keystroke after first rows:   ${fmt(median(firstKey))} (target ≤ 50 ms)`);
    log(
      `  key → frame, medians of ${KEYS_PER_FIGURE} (search: ${QUERY.length}): picker move ${fmt(median(move))} (≤ 16 ms), search ${fmt(median(search))} (≤ 40 ms), filter ${fmt(median(filter))} (≤ 30 ms), tree move ${fmt(median(treeMove))} (≤ 16 ms)`,
    );
    return {
      frames: {
        floors: { nodeOneLine: figure(nodeFloor), inkHello: figure(inkFloor) },
        firstRows: {
          warm2k: { ...figure(warm2k), ratioToInkHello: median(warm2k) / ink, target: '≤ 1.3× ink hello' },
          warm10k: { ...figure(warm10kRows), ratioToInkHello: median(warm10kRows) / ink, target: '≤ 1.5× ink hello' },
          cold2k: { ...figure(cold2k), target: '≤ 700 ms' },
        },
        firstKeystrokeAfterRows: { ...figure(firstKey), target: '≤ 50 ms' },
        keyToFrame: {
          pickerMove: { ...figure(move), target: '≤ 16 ms' },
          pickerSearch: { ...figure(search), query: QUERY, target: '≤ 40 ms' },
          pickerFilter: { ...figure(filter), key: 'Ctrl+N (named only)', target: '≤ 30 ms' },
          treeMove: { ...figure(treeMove), target: '≤ 16 ms' },
        },
      },
    };
  } finally {
    rmSync(warmA, { recursive: true, force: true });
    rmSync(warm10k, { recursive: true, force: true });
  }
}
