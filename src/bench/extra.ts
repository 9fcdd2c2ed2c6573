/**
 * Screen figures for `npm run bench`: the picker (first rows on a real terminal, search keystroke)
 * and the tree view (100k-entry session: open to first paint, cursor move, search keystroke).
 * Keystrokes are measured through the same reducers the screens run, so the figures include query
 * parsing, matching, sorting, forest building and layout, not just one helper.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from './bench.js';
import { cachedStore, onlySessionFile } from './stores.js';
import { initialPickerState, pickerReducer, type PickerState } from '../picker/reducer.js';
import { prepareTexts } from '../picker/query.js';
import { buildTree, listSessions, readSessionSync, resolveLocations } from '../store/index.js';
import { buildIndex } from '../tree/flatten.js';
import { initTreeState, treeReducer, type TreeState } from '../tree/reducer.js';

export interface ExtraContext {
  storeA: string;
  bigFile: string;
  rounds: number;
  log(text: string): void;
  measure(name: string, fn: () => unknown, n?: number): Promise<Figure>;
  median(values: number[]): number;
  fmt(ms: number): string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(HERE, '..', 'cli.js');

/** Milliseconds from spawning `args` in a pty until `ready(screen)` holds. */
async function timeToScreen(args: string[], env: NodeJS.ProcessEnv, ready: (screen: string) => boolean): Promise<number> {
  const pty = await import('@lydell/node-pty');
  // @xterm/headless is CommonJS whose named export ESM interop cannot see.
  const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless');
  const term = new Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  const screen = (): string => {
    const lines: string[] = [];
    const buffer = term.buffer.active;
    for (let i = 0; i < term.rows; i++) lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const t0 = performance.now();
  const child = pty.spawn(process.execPath, args, { cols: 120, rows: 40, env: env as Record<string, string>, cwd: tmpdir() });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`timed out waiting for the screen; last screen:\n${screen()}`));
    }, 20_000);
    child.onData((data) => {
      term.write(data, () => {
        if (ready(screen())) {
          const ms = performance.now() - t0;
          clearTimeout(timer);
          child.kill();
          resolvePromise(ms);
        }
      });
    });
  });
}

function typeInto<S, A>(state: S, text: string, reducer: (s: S, a: A) => S, action: (ch: string) => A, samples: number[]): S {
  for (const ch of text) {
    const t0 = performance.now();
    state = reducer(state, action(ch));
    samples.push(performance.now() - t0);
  }
  return state;
}

async function pickerFigures(ctx: ExtraContext): Promise<Record<string, unknown>> {
  const agentDir = dirname(ctx.storeA);
  const env: NodeJS.ProcessEnv = { ...process.env, PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'pi-sessions-bench-cache-')) };
  delete env['CI'];
  const nodeFloor: number[] = [];
  const firstRows: number[] = [];
  for (let i = 0; i < ctx.rounds; i++) {
    nodeFloor.push(await timeToScreen(['-e', "process.stdout.write('ready')"], env, (s) => s.includes('ready')));
    firstRows.push(await timeToScreen([CLI, '--all'], env, (s) => s.includes('›')));
  }

  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } });
  const { sessions } = await listSessions(locations, { scope: 'all' });
  prepareTexts(sessions, Number.POSITIVE_INFINITY);
  const nowMs = Date.now();
  let state: PickerState = initialPickerState({ printMode: false, scope: 'all', columns: 120, rows: 40 });
  state = pickerReducer(state, { type: 'loadDone', scope: 'all', searched: agentDir, skipped: 0, sessions });
  const keystrokes: number[] = [];
  const key = (ch: string) => ({ type: 'key' as const, name: ch, input: ch, nowMs });
  state = typeInto(state, 'refactor parser', pickerReducer, key, keystrokes);
  const shown = state.rows.length;
  const clear = pickerReducer(state, { type: 'key', name: 'escape', input: '', nowMs });
  const firstKeystroke: number[] = [];
  typeInto(clear, 'x', pickerReducer, key, firstKeystroke);
  ctx.log(
    `picker: first rows on screen (bench store a, real pty, no catalogue yet): ${ctx.fmt(ctx.median(firstRows))}   [node start-up floor: ${ctx.fmt(ctx.median(nodeFloor))}]   (target ≤ 150 ms)`,
  );
  ctx.log(`picker: search keystroke (full text loaded, ${keystrokes.length} keys, ${shown} rows left): median ${ctx.fmt(ctx.median(keystrokes))}, max ${ctx.fmt(Math.max(...keystrokes))}   (target ≤ 50 ms median)`);
  return {
    picker: {
      firstRowsMs: ctx.median(firstRows),
      nodeStartupFloorMs: ctx.median(nodeFloor),
      keystrokeMedianMs: ctx.median(keystrokes),
      keystrokeMaxMs: Math.max(...keystrokes),
      firstKeystrokeMs: firstKeystroke[0],
    },
  };
}

/** A ~100 MB session of small tool outputs: about 120k entries. */
function hundredThousandEntrySession(ctx: ExtraContext): string {
  return onlySessionFile(cachedStore('big100k', { projects: 1, sessions: 0, oneBigMb: 100, bigToolBytes: 320, seed: 2 }, ctx.log));
}

async function treeFigures(ctx: ExtraContext): Promise<Record<string, unknown>> {
  const file = hundredThousandEntrySession(ctx);
  const open: number[] = [];
  const firstPaint: number[] = [];
  let state: TreeState | undefined;
  let entries = 0;
  for (let i = 0; i < ctx.rounds; i++) {
    const t0 = performance.now();
    const session = readSessionSync(file);
    if (!session.ok) throw new Error(session.message);
    const tree = buildTree(session);
    const t1 = performance.now();
    // What the screen does before its first frame: index, filter, forest, layout, centre on the leaf.
    const index = buildIndex(tree);
    // The detail view is not opened here, so its line source is never called.
    state = initTreeState({ index, listHeight: 34, width: 120, detailSource: () => [] });
    const t2 = performance.now();
    open.push(t1 - t0);
    firstPaint.push(t2 - t0);
    entries = tree.order.length;
  }
  let s = state!;
  const moves: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    s = treeReducer(s, { type: 'key', name: i < 100 ? 'up' : 'down' });
    moves.push(performance.now() - t0);
  }
  const searchKeys: number[] = [];
  s = typeInto(s, 'parser cache', treeReducer, (ch) => ({ type: 'key' as const, name: ch === ' ' ? 'space' : ch }), searchKeys);
  const filters: number[] = [];
  for (const name of ['ctrl+a', 'ctrl+u', 'ctrl+d']) {
    const t0 = performance.now();
    s = treeReducer(s, { type: 'key', name });
    filters.push(performance.now() - t0);
  }
  ctx.log(
    `tree (${entries} entries): store open ${ctx.fmt(ctx.median(open))}, open to first paint ${ctx.fmt(ctx.median(firstPaint))} = ${(ctx.median(firstPaint) / ctx.median(open)).toFixed(2)}× (target ≤ 1.2×)`,
  );
  ctx.log(
    `tree: cursor move median ${ctx.fmt(ctx.median(moves))} (target ≤ 16 ms); search keystroke median ${ctx.fmt(ctx.median(searchKeys))}, max ${ctx.fmt(Math.max(...searchKeys))} (target ≤ 50 ms); filter change median ${ctx.fmt(ctx.median(filters))}`,
  );
  return {
    tree: {
      entries,
      storeOpenMs: ctx.median(open),
      firstPaintMs: ctx.median(firstPaint),
      firstPaintToOpen: ctx.median(firstPaint) / ctx.median(open),
      cursorMoveMedianMs: ctx.median(moves),
      searchKeystrokeMedianMs: ctx.median(searchKeys),
      searchKeystrokeMaxMs: Math.max(...searchKeys),
      filterChangeMedianMs: ctx.median(filters),
    },
  };
}

export async function extraBenches(ctx: ExtraContext): Promise<Record<string, unknown>> {
  return { ...(await pickerFigures(ctx)), ...(await treeFigures(ctx)) };
}
