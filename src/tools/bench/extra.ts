/**
 * Reducer figures for `npm run bench`: the picker (search keystroke) and the tree view (100k-entry
 * session: open to first paint, cursor move, search keystroke). Keystrokes are measured through
 * the same reducers the screens run, so the figures include query parsing, matching, sorting,
 * forest building and layout, not just one helper. What a user sees (key → frame in a real
 * terminal, first rows) is in frames.ts.
 */
import { dirname } from 'node:path';
import { key as namedKey, textKey } from '../../keymap/tokenize.js';
import { prepareTexts } from '../../picker/query.js';
import { initialPickerState, keyAction, type PickerState, pickerReducer } from '../../picker/reducer.js';
import { buildTree, listSessions, readSessionSync, resolveLocations } from '../../store/index.js';
import { buildIndex } from '../../tree/flatten.js';
import { initTreeState, type TreeState, treeKey, treeReducer } from '../../tree/reducer.js';
import type { Figure } from './figure.js';

export interface ExtraContext {
  storeA: string;
  tree100kFile: string;
  rounds: number;
  log(text: string): void;
  measure(name: string, fn: () => unknown, n?: number): Promise<Figure>;
  median(values: number[]): number;
  fmt(ms: number): string;
}

function typeInto<S, A>(
  state: S,
  text: string,
  reducer: (s: S, a: A) => S,
  action: (ch: string) => A,
  samples: number[],
): S {
  for (const ch of text) {
    const t0 = performance.now();
    state = reducer(state, action(ch));
    samples.push(performance.now() - t0);
  }
  return state;
}

async function pickerFigures(ctx: ExtraContext): Promise<Record<string, unknown>> {
  const agentDir = dirname(ctx.storeA);
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } });
  const { sessions } = await listSessions(locations, { scope: 'all' });
  prepareTexts(sessions, Number.POSITIVE_INFINITY);
  const nowMs = Date.now();
  let state: PickerState = initialPickerState({ printMode: false, scope: 'all', columns: 120, rows: 40 });
  state = pickerReducer(state, { type: 'loadDone', scope: 'all', searched: agentDir, skipped: 0, sessions });
  const keystrokes: number[] = [];
  const key = (ch: string) => keyAction(textKey(ch), nowMs);
  state = typeInto(state, 'refactor parser', pickerReducer, key, keystrokes);
  const shown = state.rows.length;
  const clear = pickerReducer(state, keyAction(namedKey('escape'), nowMs));
  const firstKeystroke: number[] = [];
  typeInto(clear, 'x', pickerReducer, key, firstKeystroke);
  ctx.log(
    `picker: search keystroke (full text loaded, ${keystrokes.length} keys, ${shown} rows left): median ${ctx.fmt(ctx.median(keystrokes))}, max ${ctx.fmt(Math.max(...keystrokes))}   (target ≤ 50 ms median)`,
  );
  const regex = regexFigures(clear, nowMs);
  ctx.log(
    `picker: ${REGEX_QUERY} (RE2, in slices): keystroke median ${ctx.fmt(ctx.median(regex.keystrokes))}, max ${ctx.fmt(Math.max(...regex.keystrokes))}; then ${regex.slices.length} more slices, the longest ${ctx.fmt(Math.max(0, ...regex.slices))}; whole search ${ctx.fmt(regex.totalMs)}, ${regex.rows} rows   (target: no step over 50 ms)`,
  );
  return {
    picker: {
      keystrokeMedianMs: ctx.median(keystrokes),
      keystrokeMaxMs: Math.max(...keystrokes),
      firstKeystrokeMs: firstKeystroke[0],
      regex: {
        query: REGEX_QUERY,
        keystrokeMedianMs: ctx.median(regex.keystrokes),
        keystrokeMaxMs: Math.max(...regex.keystrokes),
        slices: regex.slices.length,
        longestSliceMs: Math.max(0, ...regex.slices),
        wholeSearchMs: regex.totalMs,
        rows: regex.rows,
      },
    },
  };
}

const REGEX_QUERY = 're:refactor.*parser';

/**
 * A `re:` query typed a key at a time, then the slices the picker runs after it (`searchMore`)
 * until the search is done: what each step costs, and the whole search once typed.
 */
function regexFigures(
  cleared: PickerState,
  nowMs: number,
): { keystrokes: number[]; slices: number[]; totalMs: number; rows: number } {
  const keystrokes: number[] = [];
  let state = cleared;
  for (const ch of REGEX_QUERY) {
    const t0 = performance.now();
    state = pickerReducer(state, keyAction(textKey(ch), nowMs));
    keystrokes.push(performance.now() - t0);
  }
  const slices: number[] = [];
  const started = performance.now();
  while (state.searchPending > 0) {
    const t0 = performance.now();
    state = pickerReducer(state, { type: 'searchMore' });
    slices.push(performance.now() - t0);
  }
  return { keystrokes, slices, totalMs: keystrokes.at(-1)! + (performance.now() - started), rows: state.rows.length };
}

async function treeFigures(ctx: ExtraContext): Promise<Record<string, unknown>> {
  const file = ctx.tree100kFile;
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
    state = initTreeState({ index, listHeight: 34, width: 120 });
    const t2 = performance.now();
    open.push(t1 - t0);
    firstPaint.push(t2 - t0);
    entries = tree.order.length;
  }
  let s = state!;
  const moves: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    s = treeReducer(s, treeKey(namedKey(i < 100 ? 'up' : 'down')));
    moves.push(performance.now() - t0);
  }
  const searchKeys: number[] = [];
  s = typeInto(s, 'parser cache', treeReducer, (ch) => treeKey(textKey(ch)), searchKeys);
  const filters: number[] = [];
  for (const name of ['ctrl+a', 'ctrl+u', 'ctrl+d'] as const) {
    const t0 = performance.now();
    s = treeReducer(s, treeKey(namedKey(name)));
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
