/**
 * The tree navigator as a pure reducer: keys (as canonical names, resolved through the keymap
 * data) and effect results in, a new state out. Side effects (writes, clipboard, leaving the
 * screen) are queued in `effects` for the screen to run; their outcomes come back as actions.
 *
 * Cursor policy: the cursor is kept by entry id. `anchorId` is the entry the user last chose;
 * when a filter, search or fold hides it, the cursor shows its nearest visible ancestor but the
 * anchor is kept, so switching the filter back returns to it (pi drifts for good, §4 #31).
 * Folds are kept across filter and search changes (pi clears them); live appends keep cursor,
 * folds, filter and search.
 */
import type { KeyName } from '../keymap/keymap.js';
import { resolveCommand } from '../keymap/keymap.js';
import { initialTextInput, textInputReducer, type TextInputAction, type TextInputState } from '../state/text-input.js';
import { sanitizeBlock } from '../text/terminal-text.js';
import type { Tone } from './entry-display.js';
import type { DetailLine } from './entry-detail.js';
import { detailRows, maxDetailScroll, wrapDetail } from './detail-view.js';
import type { FilterMode, FlatRow, Forest, Layout, SearchResult, TreeIndex } from './flatten.js';
import { FILTER_CYCLE, buildForest, foldsHiding, layoutForest, nearestDrawn, retainedNodeById, rowAt, rowId, search, segmentDown, segmentStartAbove, withLeaf } from './flatten.js';
import type { TreeCommand, TreeKeyMode } from './keymap.js';
import { TREE_BINDINGS } from './keymap.js';

export type TreeMode = 'browse' | 'menu' | 'label-input' | 'summary-input' | 'detail' | 'help' | 'fork-done';

export type MenuAction = 'resume' | 'resume-summary' | 'fork' | 'label' | 'view' | 'copy' | 'open' | 'cancel';

export type ForkAction = 'open-fork' | 'stay';

export interface StatusMessage {
  text: string;
  tone: 'info' | 'success' | 'error';
}

export type TreeEffect =
  | { kind: 'label'; id: string; label: string }
  | { kind: 'branch'; id: string }
  | { kind: 'branch-summary'; id: string; summary: string }
  | { kind: 'fork'; id: string }
  | { kind: 'copy'; id: string }
  | { kind: 'open-in-pi'; id: string }
  | { kind: 'open-fork'; path: string }
  | { kind: 'back' }
  | { kind: 'quit' };

export interface DetailView {
  title: string;
  /** As built, before wrapping (kept to re-wrap on resize). */
  source: readonly DetailLine[];
  /** Wrapped to the width. */
  lines: readonly DetailLine[];
  scroll: number;
}

/** Builds the detail lines of an entry (entry-display's detailLines with the screen's formats). */
export type DetailSource = (index: TreeIndex, id: string) => DetailLine[];

export interface TreeState {
  readonly index: TreeIndex;
  readonly filter: FilterMode;
  readonly query: string;
  readonly search: SearchResult | undefined;
  readonly forest: Forest;
  readonly layout: Layout;
  readonly folds: ReadonlySet<string>;
  /** Selected row index in layout.rows (0 when empty). */
  readonly cursor: number;
  readonly anchorId: string | null;
  readonly offset: number;
  readonly listHeight: number;
  readonly width: number;
  readonly mode: TreeMode;
  /** The entry the menu / inputs act on. */
  readonly targetId: string | null;
  readonly labelTimes: boolean;
  readonly status: StatusMessage | null;
  readonly detail: DetailView | null;
  readonly forkPath: string | null;
  /** Forked before a user message (pi's /fork): that message's text, to re-send in the new session. */
  readonly forkEditorText: string | null;
  /** Whether a write is running (further writes are refused until it finishes). */
  readonly busy: boolean;
  readonly effects: readonly TreeEffect[];
  readonly detailSource: DetailSource;
  /** The label / summary prompt's text (pre-filled label, cursor at the end: pi puts it at 0). */
  readonly input: TextInputState;
}

export type TreeAction =
  | { type: 'key'; name: KeyName }
  | { type: 'paste'; text: string }
  | { type: 'resize'; listHeight: number; width: number }
  | { type: 'reload'; index: TreeIndex; message?: string }
  | { type: 'menu'; action: MenuAction }
  | { type: 'fork-menu'; action: ForkAction }
  | { type: 'cancel' }
  | { type: 'input'; action: TextInputAction }
  | { type: 'submit' }
  | { type: 'submit-label'; value: string }
  | { type: 'submit-summary'; value: string }
  | { type: 'effects-taken'; count: number }
  | { type: 'branched'; leafId: string | null; editorText?: string }
  | { type: 'labeled'; label: string }
  | { type: 'forked'; path: string; editorText?: string }
  | { type: 'copied'; chars: number; truncated: boolean }
  | { type: 'failed'; message: string }
  | { type: 'status'; status: StatusMessage | null };

export interface InitOptions {
  index: TreeIndex;
  listHeight: number;
  width: number;
  detailSource: DetailSource;
  filter?: FilterMode;
}

export function initTreeState(options: InitOptions): TreeState {
  const forest = buildForest(options.index, options.filter ?? 'default');
  const layout = layoutForest(forest, new Set());
  const base: TreeState = {
    index: options.index,
    filter: options.filter ?? 'default',
    query: '',
    search: undefined,
    forest,
    layout,
    folds: new Set(),
    cursor: 0,
    anchorId: null,
    offset: 0,
    listHeight: Math.max(1, options.listHeight),
    width: Math.max(10, options.width),
    mode: 'browse',
    targetId: null,
    labelTimes: false,
    status: null,
    detail: null,
    forkPath: null,
    forkEditorText: null,
    busy: false,
    effects: [],
    detailSource: options.detailSource,
    input: initialTextInput(''),
  };
  // Start on the leaf (or its nearest visible ancestor), centred, like pi.
  const host = forest.leafHost;
  const row = host === -1 ? layout.count - 1 : layout.rowOf[host]!;
  return centerOn(base, Math.max(0, row), true);
}

// ---------------------------------------------------------------------------------------------
// Selectors.

export function selectedRow(state: TreeState): FlatRow | undefined {
  return rowAt(state.layout, state.cursor);
}

export function selectedId(state: TreeState): string | null {
  return rowId(state.layout, state.cursor) ?? null;
}

export function keyMode(state: TreeState): TreeKeyMode | undefined {
  switch (state.mode) {
    case 'browse':
      return state.query === '' ? 'browse' : 'search';
    case 'detail':
      return 'detail';
    case 'help':
      return 'help';
    default:
      return undefined;
  }
}

/** Search matches drawn and where the cursor is among them: `{current: 3, total: 12}`. */
export function matchPosition(state: TreeState): { current: number; total: number; hiddenByFolds: number } | undefined {
  const result = state.search;
  if (!result) return undefined;
  const rows = state.layout.matchRows;
  let current = 0;
  for (let i = 0; i < rows.length; i++) if (rows[i]! <= state.cursor) current = i + 1;
  if (current > 0 && rows[current - 1] !== state.cursor) current = 0;
  let visibleMatches = 0;
  for (const m of result.matches) if (state.forest.visible[m] && !(state.forest.context?.[m] === 1)) visibleMatches++;
  return { current, total: rows.length, hiddenByFolds: visibleMatches - rows.length };
}

// ---------------------------------------------------------------------------------------------
// Helpers.

function clampOffset(offset: number, cursor: number, height: number, rowCount: number): number {
  let next = offset;
  if (cursor < next) next = cursor;
  if (cursor >= next + height) next = cursor - height + 1;
  return Math.max(0, Math.min(next, Math.max(0, rowCount - height)));
}

/** Moves the cursor to `row` (clamped), scrolling minimally. Sets the anchor to that entry. */
function moveTo(state: TreeState, row: number): TreeState {
  const count = state.layout.count;
  const cursor = count === 0 ? 0 : Math.max(0, Math.min(count - 1, row));
  const anchorId = rowId(state.layout, cursor) ?? state.anchorId;
  const offset = clampOffset(state.offset, cursor, state.listHeight, count);
  if (cursor === state.cursor && offset === state.offset && anchorId === state.anchorId) return state;
  return { ...state, cursor, offset, anchorId };
}

/** Moves to `row` and centres it (for jumps: leaf, matches, filter changes), as pi's window does. */
function centerOn(state: TreeState, row: number, setAnchor: boolean): TreeState {
  const count = state.layout.count;
  const cursor = count === 0 ? 0 : Math.max(0, Math.min(count - 1, row));
  const wanted = cursor - Math.floor(state.listHeight / 2);
  const offset = Math.max(0, Math.min(wanted, Math.max(0, count - state.listHeight)));
  const anchorId = setAnchor ? (rowId(state.layout, cursor) ?? state.anchorId) : state.anchorId;
  return { ...state, cursor, offset, anchorId };
}

/** Keeps the cursor on the anchor (or its nearest drawn ancestor) after the layout changed. */
function reposition(state: TreeState, previousRowId: string | null): TreeState {
  const { layout, index } = state;
  const count = layout.count;
  if (count === 0) return { ...state, cursor: 0, offset: 0 };
  for (const id of [state.anchorId, previousRowId]) {
    if (id === null) continue;
    const num = index.numOf.get(id);
    if (num === undefined) continue;
    const drawn = nearestDrawn(layout, num);
    if (drawn !== -1) return keepInView(state, layout.rowOf[drawn]!);
  }
  const host = state.forest.leafHost;
  return keepInView(state, host !== -1 && layout.rowOf[host]! !== -1 ? layout.rowOf[host]! : count - 1);
}

/** Places the cursor without touching the anchor; scrolls only if the row left the window. */
function keepInView(state: TreeState, row: number): TreeState {
  const count = state.layout.count;
  const cursor = Math.max(0, Math.min(count - 1, row));
  const inView = cursor >= state.offset && cursor < state.offset + state.listHeight;
  if (inView) return { ...state, cursor, offset: clampOffset(state.offset, cursor, state.listHeight, count) };
  return centerOn(state, cursor, false);
}

interface Recompute {
  index?: TreeIndex;
  filter?: FilterMode;
  query?: string;
  folds?: ReadonlySet<string>;
}

/** Recomputes only the stages that depend on what changed. */
function recompute(state: TreeState, change: Recompute): TreeState {
  const index = change.index ?? state.index;
  const filter = change.filter ?? state.filter;
  const query = change.query ?? state.query;
  const folds = change.folds ?? state.folds;
  const indexChanged = index !== state.index;
  const queryChanged = query !== state.query;
  let result = state.search;
  if (indexChanged || queryChanged) result = search(index, query, indexChanged ? undefined : state.search);
  let forest = state.forest;
  if (indexChanged || queryChanged || filter !== state.filter) forest = buildForest(index, filter, result);
  const layout = forest === state.forest && folds === state.folds ? state.layout : layoutForest(forest, folds);
  const previousRowId = selectedId(state);
  return reposition({ ...state, index, filter, query, search: result, forest, layout, folds }, previousRowId);
}

function setFilter(state: TreeState, filter: FilterMode): TreeState {
  if (filter === state.filter) return state;
  return withStatus(recompute(state, { filter }), null);
}

/** pi's toggles: pressing the key of the active filter returns to default. */
function toggleFilter(state: TreeState, filter: FilterMode): TreeState {
  return setFilter(state, state.filter === filter ? 'default' : filter);
}

function cycleFilter(state: TreeState, step: number): TreeState {
  const at = FILTER_CYCLE.indexOf(state.filter);
  const next = FILTER_CYCLE[(at + step + FILTER_CYCLE.length) % FILTER_CYCLE.length]!;
  return setFilter(state, next);
}

function withStatus(state: TreeState, status: StatusMessage | null): TreeState {
  return state.status === status ? state : { ...state, status };
}

function queue(state: TreeState, effect: TreeEffect): TreeState {
  return { ...state, effects: [...state.effects, effect] };
}

function setQuery(state: TreeState, query: string): TreeState {
  if (query === state.query) return state;
  const next = recompute(state, { query });
  if (query === '' || !next.search) return next;
  // Land on a match: the anchor if it matches, else the first match at or after it, else the last.
  const rows = next.layout.matchRows;
  if (rows.length === 0) return next;
  const at = next.cursor;
  if (rows.includes(at)) return moveTo(next, at);
  const after = rows.find((r) => r >= at);
  return centerOn(next, after ?? rows[rows.length - 1]!, true);
}

function jumpMatch(state: TreeState, direction: 1 | -1): TreeState {
  const result = state.search;
  if (!result) return withStatus(state, { text: 'No search: type to search', tone: 'info' });
  // Open the folds that hide matches first, so "next" really visits every match.
  let next = state;
  const hiding = new Set<string>();
  for (const m of result.matches) {
    if (!state.forest.visible[m] || state.layout.rowOf[m]! !== -1) continue;
    for (const id of foldsHiding(state.layout, m)) hiding.add(id);
  }
  if (hiding.size > 0) {
    const folds = new Set([...state.folds].filter((id) => !hiding.has(id)));
    next = recompute(state, { folds });
  }
  const rows = next.layout.matchRows;
  if (rows.length === 0) return withStatus(next, { text: 'No matches', tone: 'info' });
  const cur = next.cursor;
  let target: number;
  if (direction === 1) target = rows.find((r) => r > cur) ?? rows[0]!;
  else {
    const before = rows.filter((r) => r < cur);
    target = before.length > 0 ? before[before.length - 1]! : rows[rows.length - 1]!;
  }
  return centerOn(next, target, true);
}

function foldOrUp(state: TreeState): TreeState {
  const row = selectedRow(state);
  if (!row) return state;
  if (row.foldable && !row.folded) {
    const folds = new Set(state.folds);
    folds.add(row.id);
    return moveTo(recompute({ ...state, anchorId: row.id }, { folds }), state.cursor);
  }
  const target = segmentStartAbove(state.forest, row.num);
  return moveTo(state, state.layout.rowOf[target]!);
}

function unfoldOrDown(state: TreeState): TreeState {
  const row = selectedRow(state);
  if (!row) return state;
  if (row.folded) {
    const folds = new Set(state.folds);
    folds.delete(row.id);
    return moveTo(recompute({ ...state, anchorId: row.id }, { folds }), state.cursor);
  }
  const target = segmentDown(state.layout, row.num);
  return moveTo(state, state.layout.rowOf[target]!);
}

function openMenu(state: TreeState): TreeState {
  const id = selectedId(state);
  if (id === null) return withStatus(state, { text: 'No entries', tone: 'info' });
  return { ...state, mode: 'menu', targetId: id, status: null };
}

/**
 * A compaction's retained message has a row but is not an entry (no id): only View and Copy
 * apply to it. This is what the menu says and what any other action answers.
 */
export const RETAINED_ROW_NOTE = 'A retained message is a copy its compaction keeps, not an entry: it cannot be branched to, labelled or forked from';

const ENTRY_ONLY_ACTIONS: ReadonlySet<MenuAction> = new Set(['resume', 'resume-summary', 'fork', 'label', 'open']);

function isRetainedRow(state: TreeState, id: string): boolean {
  return retainedNodeById(state.index, id) !== undefined;
}

function startLabel(state: TreeState, id: string | null): TreeState {
  if (id === null) return withStatus(state, { text: 'No entry selected', tone: 'info' });
  if (isRetainedRow(state, id)) return withStatus(state, { text: RETAINED_ROW_NOTE, tone: 'error' });
  return { ...state, mode: 'label-input', targetId: id, status: null, input: initialTextInput(state.index.tree.labels.get(id) ?? '', true) };
}

function openDetail(state: TreeState, title: string, lines: readonly DetailLine[]): TreeState {
  return { ...state, mode: 'detail', detail: { title, source: lines, lines: wrapDetail(lines, state.width), scroll: 0 } };
}

function scrollDetail(state: TreeState, to: (scroll: number, page: number, max: number) => number): TreeState {
  const detail = state.detail;
  if (!detail) return state;
  const max = maxDetailScroll(detail, state.listHeight);
  const scroll = Math.max(0, Math.min(max, to(detail.scroll, Math.max(1, detailRows(state.listHeight) - 1), max)));
  return scroll === detail.scroll ? state : { ...state, detail: { ...detail, scroll } };
}

function deleteWord(query: string): string {
  return query.replace(/\s*\S*$/, '');
}

function leafIdOf(state: TreeState): string | null {
  return state.index.leaf === -1 ? null : state.index.entries[state.index.leaf]!.id;
}

function runCommand(state: TreeState, command: TreeCommand): TreeState {
  const rows = state.layout.count;
  switch (command) {
    case 'up':
      return moveTo(state, state.cursor - 1);
    case 'down':
      return moveTo(state, state.cursor + 1);
    case 'pageUp':
      return moveTo(state, state.cursor - Math.max(1, state.listHeight - 1));
    case 'pageDown':
      return moveTo(state, state.cursor + Math.max(1, state.listHeight - 1));
    case 'home':
      return moveTo(state, 0);
    case 'end':
      return moveTo(state, rows - 1);
    case 'jumpToLeaf': {
      const host = state.forest.leafHost;
      if (host === -1) return withStatus(state, { text: 'The leaf is hidden by the filter', tone: 'info' });
      const hidden = foldsHiding(state.layout, host);
      const next = hidden.length > 0 ? recompute(state, { folds: new Set([...state.folds].filter((id) => !hidden.includes(id))) }) : state;
      return centerOn(next, next.layout.rowOf[host]!, true);
    }
    case 'foldOrUp':
      return foldOrUp(state);
    case 'unfoldOrDown':
      return unfoldOrDown(state);
    case 'filterDefault':
      return setFilter(state, 'default');
    case 'filterNoTools':
      return toggleFilter(state, 'no-tools');
    case 'filterUserOnly':
      return toggleFilter(state, 'user-only');
    case 'filterLabeledOnly':
      return toggleFilter(state, 'labeled-only');
    case 'filterAll':
      return toggleFilter(state, 'all');
    case 'filterNext':
      return cycleFilter(state, 1);
    case 'filterPrev':
      return cycleFilter(state, -1);
    case 'nextMatch':
      return jumpMatch(state, 1);
    case 'prevMatch':
      return jumpMatch(state, -1);
    case 'deleteChar':
      return setQuery(state, [...state.query].slice(0, -1).join(''));
    case 'deleteWord':
      return setQuery(state, deleteWord(state.query));
    case 'openMenu':
      return openMenu(state);
    case 'editLabel':
      return startLabel(state, selectedId(state));
    case 'toggleLabelTimes':
      return { ...state, labelTimes: !state.labelTimes };
    case 'copy': {
      const id = selectedId(state);
      return id === null ? state : queue(state, { kind: 'copy', id });
    }
    case 'help':
      return { ...state, mode: 'help' };
    case 'escape':
      if (state.query !== '') return setQuery(state, '');
      return queue(state, { kind: 'back' });
    case 'quit':
      return queue(state, { kind: 'quit' });
    case 'detailUp':
      return scrollDetail(state, (s) => s - 1);
    case 'detailDown':
      return scrollDetail(state, (s) => s + 1);
    case 'detailPageUp':
      return scrollDetail(state, (s, page) => s - page);
    case 'detailPageDown':
      return scrollDetail(state, (s, page) => s + page);
    case 'detailHome':
      return scrollDetail(state, () => 0);
    case 'detailEnd':
      return scrollDetail(state, (_s, _p, max) => max);
    case 'closeOverlay':
      return { ...state, mode: 'browse', detail: null };
  }
}

/** A single printable character typed in the list: it edits the query (type-to-search). */
function isTypeable(name: KeyName): boolean {
  return name === 'space' || [...name].length === 1;
}

function onKey(state: TreeState, name: KeyName): TreeState {
  const mode = keyMode(state);
  if (mode === undefined) {
    // Menu and text inputs own their keys; only Ctrl+C reaches the reducer there.
    return name === 'ctrl+c' ? queue(state, { kind: 'quit' }) : state;
  }
  const command = resolveCommand(TREE_BINDINGS, name, mode);
  // Any key dismisses the previous status message; a command may set a new one.
  const cleared = state.status !== null && (mode === 'browse' || mode === 'search') ? { ...state, status: null } : state;
  if (command !== undefined) return runCommand(cleared, command);
  if ((mode === 'browse' || mode === 'search') && isTypeable(name)) return setQuery(cleared, cleared.query + (name === 'space' ? ' ' : name));
  if (mode === 'help') return { ...cleared, mode: 'browse' };
  return cleared;
}

const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

export function treeReducer(state: TreeState, action: TreeAction): TreeState {
  switch (action.type) {
    case 'key':
      return onKey(state, action.name);
    case 'paste':
      // pi appends a paste only when it has no control characters; so do we (the list only).
      if (state.mode !== 'browse' || action.text === '' || CONTROL_RE.test(action.text)) return state;
      return setQuery(state, state.query + action.text);
    case 'resize': {
      const listHeight = Math.max(1, action.listHeight);
      const width = Math.max(10, action.width);
      if (listHeight === state.listHeight && width === state.width) return state;
      const resized = { ...state, listHeight, width };
      const offset = clampOffset(state.offset, state.cursor, listHeight, state.layout.count);
      let detail = state.detail;
      if (detail && width !== state.width) detail = { ...detail, lines: wrapDetail(detail.source, width), scroll: 0 };
      return { ...resized, offset, detail };
    }
    case 'reload': {
      const next = recompute(state, { index: action.index });
      return action.message ? withStatus(next, { text: action.message, tone: 'info' }) : next;
    }
    case 'menu': {
      const id = state.targetId;
      const back: TreeState = { ...state, mode: 'browse' };
      if (id === null || action.action === 'cancel') return back;
      if (ENTRY_ONLY_ACTIONS.has(action.action) && isRetainedRow(state, id)) return withStatus(back, { text: RETAINED_ROW_NOTE, tone: 'error' });
      switch (action.action) {
        case 'resume':
          if (id === leafIdOf(state)) return withStatus(back, { text: 'Already at this point: pi resumes here', tone: 'info' });
          if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
          return queue({ ...back, busy: true, status: { text: 'Moving the leaf…', tone: 'info' } }, { kind: 'branch', id });
        case 'resume-summary':
          return { ...state, mode: 'summary-input', input: initialTextInput('') };
        case 'fork':
          if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
          return queue({ ...back, busy: true, status: { text: 'Forking…', tone: 'info' } }, { kind: 'fork', id });
        case 'label':
          return startLabel(back, id);
        case 'view':
          return openDetail(state, 'entry', state.detailSource(state.index, id));
        case 'copy':
          return queue(back, { kind: 'copy', id });
        case 'open':
          if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
          return queue({ ...back, busy: true, status: { text: 'Opening in pi…', tone: 'info' } }, { kind: 'open-in-pi', id });
      }
      return back;
    }
    case 'fork-menu': {
      const path = state.forkPath;
      const back: TreeState = { ...state, mode: 'browse' };
      if (action.action === 'open-fork' && path !== null) return queue(back, { kind: 'open-fork', path });
      return back;
    }
    case 'cancel':
      return { ...state, mode: 'browse', detail: null };
    case 'input':
      if (state.mode !== 'label-input' && state.mode !== 'summary-input') return state;
      {
        const input = textInputReducer(state.input, action.action);
        return input === state.input ? state : { ...state, input };
      }
    case 'submit':
      if (state.mode === 'label-input') return treeReducer(state, { type: 'submit-label', value: state.input.value });
      if (state.mode === 'summary-input') return treeReducer(state, { type: 'submit-summary', value: state.input.value });
      return state;
    case 'submit-label': {
      const id = state.targetId;
      const back: TreeState = { ...state, mode: 'browse' };
      if (id === null) return back;
      if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
      const label = action.value.trim();
      const current = state.index.tree.labels.get(id) ?? '';
      if (label === current) return withStatus(back, { text: label === '' ? 'No label to clear' : 'Label unchanged', tone: 'info' });
      return queue({ ...back, busy: true }, { kind: 'label', id, label });
    }
    case 'submit-summary': {
      const id = state.targetId;
      const back: TreeState = { ...state, mode: 'browse' };
      if (id === null) return back;
      if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
      const summary = action.value.trim();
      if (summary === '') return withStatus(back, { text: 'Empty summary: nothing written', tone: 'info' });
      return queue({ ...back, busy: true, status: { text: 'Moving the leaf…', tone: 'info' } }, { kind: 'branch-summary', id, summary });
    }
    case 'effects-taken':
      return action.count <= 0 ? state : { ...state, effects: state.effects.slice(action.count) };
    case 'branched': {
      const moved = recompute({ ...state, busy: false }, { index: withLeaf(state.index, action.leafId) });
      const status: StatusMessage = { text: 'Leaf moved: pi resumes here next time', tone: 'success' };
      const host = moved.forest.leafHost;
      const centred = host === -1 ? moved : centerOn(moved, moved.layout.rowOf[host]!, true);
      if (action.editorText !== undefined && action.editorText !== '') {
        // pi puts the message back in the editor; we show it so it can be copied and re-sent.
        const lines: DetailLine[] = [
          { text: 'pi resumes before this message. To re-send it (edited or not), copy it from here:', tone: 'muted' as Tone },
          { text: '', tone: 'plain' as Tone },
          ...sanitizeBlock(action.editorText).map((text) => ({ text, tone: 'plain' as Tone })),
        ];
        return { ...openDetail(centred, 'message to re-send', lines), status };
      }
      return withStatus(centred, status);
    }
    case 'labeled':
      return { ...state, busy: false, status: { text: action.label === '' ? 'Label cleared' : `Labeled [${action.label}]`, tone: 'success' } };
    case 'forked':
      return {
        ...state,
        busy: false,
        mode: 'fork-done',
        forkPath: action.path,
        forkEditorText: action.editorText ?? null,
        status: { text: action.editorText === undefined ? `Forked to ${action.path}` : `Forked before the message, to ${action.path}`, tone: 'success' },
      };
    case 'copied':
      return withStatus(state, {
        text: action.truncated
          ? `Copied the first ${action.chars} characters (terminal clipboard limit)`
          : `Copied ${action.chars} characters to the clipboard (OSC 52; needs terminal support)`,
        tone: 'success',
      });
    case 'failed':
      return { ...state, busy: false, status: { text: action.message, tone: 'error' } };
    case 'status':
      return withStatus(state, action.status);
  }
}
