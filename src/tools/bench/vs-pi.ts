/**
 * Side by side with pi 1.6.0's own picker (`pi --resume`, Tab to All), in the same real pty, on the
 * same files, in the same run, `--only vspi`: for 2,000, 10,000 and 50,000 sessions
 *
 *   first rows      spawn → the first session row: warm (ours: a catalogue exists; pi keeps none,
 *                   so both read files the page cache holds) and cold (the page cache dropped when
 *                   the machine lets us, and ours with no catalogue); pi's is its start to its
 *                   picker plus Tab → its first All row, so the harness's own wait is not counted;
 *   whole list      spawn → the frame that shows every session loaded (ours: no `loading n/N` in
 *                   the header; pi: no `Loading n/N`), warm and cold;
 *   first key       a character typed the moment the first rows show → echoed;
 *   move            Down/Up on the settled list → the cursor row moved (first chunk that shows it);
 *   echo, settled   each character of a word typed on the settled list → the character on screen
 *                   (echo), and → the last output it caused (the search's results drawn);
 *   memory          peak RSS (VmHWM) after listing everything and that search;
 *   listing         `list --all --json --no-cache` against pi's SessionManager.listAll in Node 20
 *                   (fresh processes, wall and CPU time).
 * Next to the floors of the same run: node printing one line, a bundled ink hello.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogueDir, listSessionsCached } from '../../catalog/index.js';
import { resolveLocations } from '../../store/index.js';
import { PI_CLI, piNode } from './pi-tui.js';
import { APP_BUNDLE, appEnv, cursorLine, PtyApp, type Screen } from './pty-app.js';
import { sessionFiles } from './stores.js';

export interface VsPiContext {
  /** Sessions roots by label ("2,000" …), smallest first. */
  stores: { label: string; root: string }[];
  rounds: number;
  log(text: string): void;
  median(values: number[]): number;
  fmt(ms: number): string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const INK_HELLO = resolve(HERE, '..', '..', '..', 'bench', 'ink-hello.js');
const QUERY = 'refactor';
const MOVES = 20;
const REST_MS = 150;
const DOWN = '\u001b[B';
const UP = '\u001b[A';
/** pi loads All in the background for minutes on a big store on a busy machine. */
const LOAD_TIMEOUT_MS = 900_000;

const hasRows = (s: Screen): boolean => cursorLine(s) !== -1;
const queryShows = (text: string) => (s: Screen) => s.lines.some((line) => line.trimEnd() === `> ${text}`);

function peakOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Drops the page cache (root on Linux); false where the machine does not let us. */
function dropPageCache(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** One contender: how it starts, when its list is complete, and where its files are. */
interface Contender {
  name: 'ours' | 'pi';
  /** What a second start finds (ours: a complete catalogue). */
  prepare(): Promise<void>;
  /** Spawns it and returns the process with ms from spawn to its first rows. */
  start(cold: boolean): Promise<{ app: PtyApp; firstRowsMs: number }>;
  /** Resolves with ms from spawn to the frame that showed the whole list loaded, once the screen is still. */
  loaded(app: PtyApp): Promise<number>;
  /** Whether the screen shows the results of the query typed (not only its echo). */
  searchDone(screen: Screen): boolean;
  dispose(): void;
}

function ours(root: string): Contender {
  const agentDir = dirname(root);
  const warm = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-cache-'));
  const colds: string[] = [];
  return {
    name: 'ours',
    prepare: () => warmCatalogue(root, warm),
    async start(cold) {
      let home = warm;
      if (cold) {
        home = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-cold-'));
        colds.push(home);
      }
      const app = await PtyApp.spawn([APP_BUNDLE, '--all'], appEnv(agentDir, home));
      return { app, firstRowsMs: await app.waitFor(hasRows, undefined, 'our first rows', true, LOAD_TIMEOUT_MS) };
    },
    async loaded(app) {
      // The header says `loading n/N` until the last file is checked.
      const done = (s: Screen) => hasRows(s) && !/loading \d+\//.test(s.lines[0] ?? '');
      const at = await app.waitFor(done, undefined, 'our whole list', true, LOAD_TIMEOUT_MS);
      await app.quiet(1500);
      return at;
    },
    // The header counts `…/N` while the rows are still the previous query's.
    searchDone: (s) => !s.lines.slice(0, 2).some((line) => line.includes('…/')),
    dispose() {
      for (const home of [warm, ...colds]) rmSync(home, { recursive: true, force: true });
    },
  };
}

async function warmCatalogue(root: string, cacheHome: string): Promise<void> {
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: dirname(root) } });
  const result = await listSessionsCached(locations, {
    scope: 'all',
    cacheDir: catalogueDir({ XDG_CACHE_HOME: cacheHome }),
  });
  await result.saved;
}

function pi(root: string, node: string): Contender {
  const work = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-pi-'));
  mkdirSync(join(work, 'agent'));
  mkdirSync(join(work, 'home'));
  // Hard links: pi reads the same files, and nothing it might write reaches the cached store.
  execFileSync('cp', ['-al', root, join(work, 'agent', 'sessions')]);
  const env = appEnv(join(work, 'agent'), join(work, 'cache'), join(work, 'home'));
  return {
    name: 'pi',
    prepare: async () => undefined,
    async start() {
      const app = await PtyApp.spawn([PI_CLI, '--resume'], env, node);
      const picker = await app.waitFor((s) => s.text.includes('Resume Session'), undefined, "pi's picker");
      const all = await app.press(
        '\t',
        (s) => s.text.includes('Resume Session (All)') && hasRows(s),
        "pi's first All rows",
      );
      return { app, firstRowsMs: picker + all };
    },
    async loaded(app) {
      // The screen is read between any two chunks pi writes: a frame caught half drawn can lack the
      // "Loading 8056/10000" line while its rows are there. Loaded is what a quiet screen shows.
      const done = (s: Screen) => !/Loading \d+\/\d+/.test(s.text) && hasRows(s);
      for (;;) {
        const at = await app.waitFor(done, undefined, "pi's All scope, loaded", true, LOAD_TIMEOUT_MS);
        await app.quiet(1000);
        if (done(app.screen())) return at;
      }
    },
    // pi filters as it draws the key.
    searchDone: () => true,
    dispose() {
      rmSync(work, { recursive: true, force: true });
    },
  };
}

interface Settled {
  move: number[];
  echo: number[];
  settled: number[];
  peakBytes: number;
}

/** On a loaded list: cursor moves, then QUERY typed a key at a time. */
async function onSettled(app: PtyApp, searchDone: (s: Screen) => boolean): Promise<Omit<Settled, 'peakBytes'>> {
  const move: number[] = [];
  for (let i = 0; i < MOVES; i++) {
    await app.quiet(REST_MS);
    const from = cursorLine(app.screen());
    const key = i % 2 === 0 ? DOWN : UP;
    const to = key === DOWN ? from + 1 : from - 1;
    move.push((await app.pressTimes(key, (s) => cursorLine(s) === to, 'the cursor moved')).firstMs);
  }
  const echo: number[] = [];
  const settled: number[] = [];
  for (let i = 1; i <= QUERY.length; i++) {
    await app.quiet(REST_MS);
    const shown = QUERY.slice(0, i);
    const times = await app.pressTimes(
      QUERY[i - 1]!,
      queryShows(shown),
      `"${shown}" echoed`,
      undefined,
      undefined,
      searchDone,
    );
    echo.push(times.firstMs);
    settled.push(times.settledMs);
  }
  return { move, echo, settled };
}

interface StoreFigures {
  sessions: number;
  firstRowsWarm: number[];
  firstRowsCold: number[];
  /** Spawn → the whole list loaded (warm: one round, the one the keys are typed in). */
  completeWarm: number[];
  completeCold: number[];
  firstKey: number[];
  settled: Settled;
}

async function measureContender(c: Contender, rounds: number, coldRounds: number, canDrop: boolean) {
  const firstRowsWarm: number[] = [];
  const firstKey: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const { app, firstRowsMs } = await c.start(false);
    try {
      firstRowsWarm.push(firstRowsMs);
      // Typed while the list may still load: in one 50,000-session round pi echoed it only after
      // more than 30 s, and its screen is never quiet before its load ends.
      firstKey.push(
        (await app.pressTimes('x', queryShows('x'), 'the first key echoed', undefined, LOAD_TIMEOUT_MS)).firstMs,
      );
    } finally {
      app.kill();
    }
  }
  const firstRowsCold: number[] = [];
  const completeCold: number[] = [];
  for (let round = 0; round < coldRounds; round++) {
    if (canDrop) dropPageCache();
    const { app, firstRowsMs } = await c.start(true);
    try {
      firstRowsCold.push(firstRowsMs);
      // Ours writes its catalogue while it reads: the whole list must not come later for it.
      completeCold.push(await c.loaded(app));
    } finally {
      app.kill();
    }
  }
  const { app } = await c.start(false);
  try {
    const completeWarm = await c.loaded(app);
    const keys = await onSettled(app, c.searchDone);
    await app.quiet(500);
    return {
      firstRowsWarm,
      firstRowsCold,
      completeWarm: [completeWarm],
      completeCold,
      firstKey,
      settled: { ...keys, peakBytes: peakOf(app.pid) },
    };
  } finally {
    app.kill();
  }
}

/** Wall and CPU time and peak RSS of a fresh process (CPU and RSS where /usr/bin/time exists). */
function timed(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { wallMs: number; cpuMs?: number; peakBytes?: number } {
  const gnuTime = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const run = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', command, ...args], {
        env,
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      })
    : spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wallMs = performance.now() - t0;
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr.trim().split('\n').at(-1)}`);
  const m = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr);
  return m ? { wallMs, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, peakBytes: Number(m[3]) * 1024 } : { wallMs };
}

const PI_LIST_ALL = `
  const { SessionManager } = await import(${JSON.stringify(resolve(PI_CLI, '..', '..', 'core', 'session-manager.js'))});
  const listed = await SessionManager.listAll();
  process.stdout.write(String(listed.length));
`;

function listings(root: string, rounds: number) {
  const env = { ...process.env, PI_CODING_AGENT_DIR: dirname(root) };
  const oursRuns: ReturnType<typeof timed>[] = [];
  const piRuns: ReturnType<typeof timed>[] = [];
  for (let i = 0; i < rounds; i++) {
    oursRuns.push(timed(process.execPath, [APP_BUNDLE, 'list', '--all', '--json', '--no-cache'], env));
    piRuns.push(timed(process.execPath, ['--input-type=module', '-e', PI_LIST_ALL], env));
  }
  return { ours: oursRuns, pi: piRuns };
}

export async function vsPiBenches(ctx: VsPiContext): Promise<Record<string, unknown>> {
  const { rounds, log, median, fmt } = ctx;
  const node = piNode(log);
  if ('skip' in node) {
    log(`\nside by side with pi 1.6.0: not measured (${node.skip})`);
    return { vsPi: { skipped: node.skip } };
  }
  const canDrop = dropPageCache();
  const floorEnv = appEnv(tmpdir(), tmpdir());
  const nodeFloor: number[] = [];
  const inkFloor: number[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const [args, text, into] of [
      [['-e', "process.stdout.write('ready\\n'); setTimeout(() => {}, 60000)"], 'ready', nodeFloor],
      [[INK_HELLO], 'hello from ink', inkFloor],
    ] as const) {
      const app = await PtyApp.spawn([...args], floorEnv);
      try {
        into.push(await app.waitFor((s) => s.text.includes(text), undefined, text));
      } finally {
        app.kill();
      }
    }
  }
  const mid = (xs: number[]): string => `${fmt(median(xs))} [${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}]`;
  const ratio = (a: number[], b: number[]): string => `${(median(a) / median(b)).toFixed(2)}×`;
  const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(0)} MiB`;
  log(`\nside by side with pi 1.6.0 (real pty, ${rounds} rounds; medians [range]; ours/pi):`);
  log(`  floors: node printing one line ${mid(nodeFloor)}, bundled ink hello ${mid(inkFloor)}`);
  if (!canDrop) log('  (the page cache cannot be dropped here: "cold" is without our catalogue, files still cached)');
  const out: Record<string, unknown> = {
    floors: { nodeOneLine: nodeFloor, inkHello: inkFloor },
    pageCacheDropped: canDrop,
  };
  for (const { label, root } of ctx.stores) {
    const sessions = sessionFiles(root).length;
    // Fewer rounds where one round of pi's full load takes minutes.
    const storeRounds = sessions > 20_000 ? Math.min(rounds, 3) : rounds;
    const coldRounds = Math.min(storeRounds, 3);
    const a = ours(root);
    const b = pi(root, node.node);
    try {
      const figures: Record<string, StoreFigures> = {};
      for (const c of [a, b]) {
        await c.prepare();
        figures[c.name] = { sessions, ...(await measureContender(c, storeRounds, coldRounds, canDrop)) };
      }
      const o = figures['ours']!;
      const p = figures['pi']!;
      const list = listings(root, Math.min(storeRounds, 3));
      const wall = (runs: ReturnType<typeof timed>[]) => runs.map((r) => r.wallMs);
      const cpu = (runs: ReturnType<typeof timed>[]) => runs.map((r) => r.cpuMs ?? Number.NaN);
      log(`  ${label} sessions (${sessions} files):`);
      const row = (what: string, x: number[], y: number[], target = ''): void =>
        log(
          `    ${what.padEnd(30)} ours ${mid(x)}  pi ${mid(y)}  ${ratio(x, y)}${target ? `  (target ${target})` : ''}`,
        );
      row('first rows, warm', o.firstRowsWarm, p.firstRowsWarm, sessions > 20_000 ? '≤ 1 s' : '');
      row('first rows, cold', o.firstRowsCold, p.firstRowsCold);
      row('whole list loaded, warm', o.completeWarm, p.completeWarm);
      row('whole list loaded, cold', o.completeCold, p.completeCold, '≤ 1.0× pi');
      row('first key after first rows', o.firstKey, p.firstKey);
      row('cursor move', o.settled.move, p.settled.move, '≤ 1.5× pi');
      row('second character echoed', o.settled.echo.slice(1, 2), p.settled.echo.slice(1, 2), '≤ 16 ms');
      row('each character echoed', o.settled.echo, p.settled.echo, '≤ 16 ms');
      row(
        'search keystroke settled',
        o.settled.settled,
        p.settled.settled,
        sessions > 20_000 ? '≤ 100 ms' : '≤ 1.0× pi',
      );
      row('list --all --json --no-cache', wall(list.ours), wall(list.pi));
      if (list.ours.every((r) => r.cpuMs !== undefined))
        row('  the same, CPU', cpu(list.ours), cpu(list.pi), '≤ 0.4× pi');
      log(
        `    ${'peak memory (picker)'.padEnd(30)} ours ${mib(o.settled.peakBytes)}  pi ${mib(p.settled.peakBytes)}  ${(o.settled.peakBytes / p.settled.peakBytes).toFixed(2)}×  (target ≤ 0.8× pi)`,
      );
      out[label] = { ...figures, listing: list };
    } finally {
      a.dispose();
      b.dispose();
    }
  }
  return { vsPi: out };
}
