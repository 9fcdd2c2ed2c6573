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
import { resolveCommand } from '../keymap/keymap.js';
import { reduceText } from '../keymap/text-runs.js';
import type { Keypress } from '../keymap/tokenize.js';
import { chosenValue, moveMenu, openMenu as menuOf, type MenuState } from '../state/menu.js';
import { cleanInputText, initialTextInput, textInputReducer, type TextInputAction, type TextInputState } from '../state/text-input.js';
import { textEditOf } from '../state/text-input-keys.js';
import { centredOffset, clampOffset, pageStep } from '../state/viewport.js';
import { sanitizeBlock } from '../text/terminal-text.js';
import type { Tone } from './entry-display.js';
import type { DetailLine } from './entry-detail.js';
import { detailRows, maxDetailScroll, wrapDetail } from './detail-view.js';
import type { FilterMode, FlatRow, Forest, Layout, SearchResult, TreeIndex } from './flatten.js';
import { FILTER_CYCLE, buildForest, foldsHiding, layoutForest, nearestDrawn, retainedNodeById, rowAt, rowId, search, segmentDown, segmentStartAbove, withLeaf } from './flatten.js';
import type { TreeCommand, TreeKeyMode } from './keymap.js';
import { TREE_BINDINGS } from './keymap.js';
import { FORK_ITEMS, MENU_ITEMS, type ForkAction, type MenuAction } from './menu-items.js';

export type { ForkAction, MenuAction };

export type TreeMode = 'browse' | 'menu' | 'label-input' | 'summary-input' | 'detail' | 'help' | 'fork-done';


export interface StatusMessage {
  text: string;
  tone: 'info' | 'success' | 'error';
}

/** What the screen is asked to do; `effectId` orders them (the effect protocol of both screens). */
export type TreeEffect = { effectId: number } & TreeEffectBody;

type TreeEffectBody =
  | { kind: 'label'; id: string; label: string }
  | { kind: 'branch'; id: string }
  | { kind: 'branch-summary'; id: string; summary: string }
  | { kind: 'fork'; id: string }
  | { kind: 'copy'; id: string }
  | { kind: 'open-in-pi'; id: string }
  | { kind: 'open-fork'; path: string }
  | { kind: 'back' }
  | { kind: 'quit' };

/** Effects after which this screen is being left: the keys that follow belong to the next one. */
const LEAVING_EFFECTS: ReadonlySet<TreeEffectBody['kind']> = new Set(['open-in-pi', 'open-fork', 'back', 'quit']);

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
  readonly nextEffectId: number;
  /** Leaving the screen (back, quit, open in pi): no more keys are taken. A failure clears it. */
  readonly leaving: boolean;
  /** The open menu (mode `menu` or `fork-done`) with its highlight. */
  readonly menu: MenuState<MenuAction | ForkAction> | null;
  readonly detailSource: DetailSource;
  /** The label / summary prompt's text (pre-filled label, cursor at the end: pi puts it at 0). */
  readonly input: TextInputState;
}

export type TreeAction =
  /** A key from the tokenizer (a named key, a run of typed text, or a paste). */
  | ({ type: 'key' } & Keypress)
  | { type: 'resize'; listHeight: number; width: number }
  | { type: 'reload'; index: TreeIndex; message?: string }
  | { type: 'menu'; action: MenuAction }
  | { type: 'forkMenu'; action: ForkAction }
  | { type: 'cancel' }
  | { type: 'input'; action: TextInputAction }
  | { type: 'submit' }
  | { type: 'submitLabel'; value: string }
  | { type: 'submitSummary'; value: string }
  | { type: 'effectsTaken'; upTo: number }
  | { type: 'branched'; leafId: string | null; editorText?: string }
  | { type: 'labeled'; label: string }
  | { type: 'forked'; path: string; editorText?: string }
  | { type: 'copied'; message: string }
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
    nextEffectId: 1,
    leaving: false,
    menu: null,
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

export function keyMode(state: TreeState): TreeKeyMode {
  switch (state.mode) {
    case 'browse':
      return state.query === '' ? 'browse' : 'search';
    case 'detail':
      return 'detail';
    case 'help':
      return 'help';
    case 'menu':
    case 'fork-done':
      return 'menu';
    case 'label-input':
    case 'summary-input':
      return 'prompt';
  }
}

/** The reducer's action for a key from the tokenizer. */
export function treeKey(keypress: Keypress): TreeAction {
  return { type: 'key', name: keypress.name, text: keypress.text, paste: keypress.paste };
}

/** False once the screen is being left: the rest of a read goes to the next screen. */
export function takesKeys(state: TreeState): boolean {
  return !state.leaving;
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
  const offset = centredOffset(cursor, state.listHeight, count);
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

function queue(state: TreeState, effect: TreeEffectBody): TreeState {
  const effects = [...state.effects, { ...effect, effectId: state.nextEffectId }];
  return { ...state, effects, nextEffectId: state.nextEffectId + 1, leaving: state.leaving || LEAVING_EFFECTS.has(effect.kind) };
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
  return { ...state, mode: 'menu', targetId: id, status: null, menu: menuOf(MENU_ITEMS) };
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
      return moveTo(state, state.cursor - pageStep(state.listHeight));
    case 'pageDown':
      return moveTo(state, state.cursor + pageStep(state.listHeight));
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
    // Menu and prompt commands (onMenuKey, onPromptKey): bound in those modes only.
    case 'menuUp':
    case 'menuDown':
    case 'menuChoose':
    case 'cancel':
    case 'submit':
    case 'left':
    case 'right':
    case 'wordLeft':
    case 'wordRight':
    case 'backspace':
    case 'clearToStart':
    case 'textStart':
    case 'textEnd':
      return state;
  }
}

/**
 * Whether a run of text can be inserted whole here: in the prompts only. In the list each
 * character is its own search step, because where a search lands depends on where the previous
 * one left the cursor (keys typed one by one must mean the same as a burst).
 */
function typesText(state: TreeState): boolean {
  return keyMode(state) === 'prompt';
}

/** Typed or pasted text: the prompt's input, or the search query in the list. */
function insertText(state: TreeState, text: string): TreeState {
  const mode = keyMode(state);
  if (mode === 'prompt') return treeReducer(state, { type: 'input', action: { type: 'insert', text } });
  if (mode !== 'browse' && mode !== 'search') return state;
  const cleaned = cleanInputText(text);
  if (cleaned === '') return state;
  return setQuery(state.status === null ? state : { ...state, status: null }, state.query + cleaned);
}

function onKey(state: TreeState, keypress: Keypress): TreeState {
  // A paste only ever types: never a command, never a submit.
  if (keypress.paste) return insertText(state, keypress.text);
  return reduceText(state, keypress, typesText, insertText, onSingleKey);
}

function onPromptKey(state: TreeState, command: TreeCommand | undefined, text: string): TreeState {
  if (command === 'cancel') return treeReducer(state, { type: 'cancel' });
  if (command === 'submit') return treeReducer(state, { type: 'submit' });
  const edit = textEditOf(command) ?? (command === undefined && text !== '' ? ({ type: 'insert', text } as const) : undefined);
  return edit ? treeReducer(state, { type: 'input', action: edit }) : state;
}

function onMenuKey(state: TreeState, command: TreeCommand | undefined): TreeState {
  const menu = state.menu;
  if (!menu) return state;
  const forkDone = state.mode === 'fork-done';
  switch (command) {
    case 'menuUp':
      return { ...state, menu: moveMenu(menu, -1) };
    case 'menuDown':
      return { ...state, menu: moveMenu(menu, 1) };
    case 'cancel':
      return forkDone ? treeReducer(state, { type: 'forkMenu', action: 'stay' }) : treeReducer(state, { type: 'menu', action: 'cancel' });
    case 'menuChoose': {
      const value = chosenValue(menu);
      if (value === undefined) return state;
      return forkDone ? treeReducer(state, { type: 'forkMenu', action: value as ForkAction }) : treeReducer(state, { type: 'menu', action: value as MenuAction });
    }
    default:
      return state;
  }
}

function onSingleKey(state: TreeState, keypress: Keypress): TreeState {
  const mode = keyMode(state);
  const command = resolveCommand(TREE_BINDINGS, keypress.name, mode);
  if (command === 'quit') return queue(state, { kind: 'quit' });
  if (mode === 'prompt') return onPromptKey(state, command, keypress.text);
  if (mode === 'menu') return onMenuKey(state, command);
  // Any key dismisses the previous status message; a command may set a new one.
  const cleared = state.status !== null && (mode === 'browse' || mode === 'search') ? { ...state, status: null } : state;
  if (command !== undefined) return runCommand(cleared, command);
  if ((mode === 'browse' || mode === 'search') && keypress.text !== '') return setQuery(cleared, cleared.query + keypress.text);
  if (mode === 'help') return { ...cleared, mode: 'browse' };
  return cleared;
}

export function treeReducer(state: TreeState, action: TreeAction): TreeState {
  switch (action.type) {
    case 'key':
      return onKey(state, action);
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
      const back: TreeState = { ...state, mode: 'browse', menu: null };
      if (id === null || action.action === 'cancel') return back;
      if (ENTRY_ONLY_ACTIONS.has(action.action) && isRetainedRow(state, id)) return withStatus(back, { text: RETAINED_ROW_NOTE, tone: 'error' });
      switch (action.action) {
        case 'resume':
          if (id === leafIdOf(state)) return withStatus(back, { text: 'Already at this point: pi resumes here', tone: 'info' });
          if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
          return queue({ ...back, busy: true, status: { text: 'Moving the leaf…', tone: 'info' } }, { kind: 'branch', id });
        case 'resume-summary':
          return { ...state, mode: 'summary-input', menu: null, input: initialTextInput('') };
        case 'fork':
          if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
          return queue({ ...back, busy: true, status: { text: 'Forking…', tone: 'info' } }, { kind: 'fork', id });
        case 'label':
          return startLabel(back, id);
        case 'view':
          return openDetail({ ...state, menu: null }, 'entry', state.detailSource(state.index, id));
        case 'copy':
          return queue(back, { kind: 'copy', id });
        case 'open':
          if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
          return queue({ ...back, busy: true, status: { text: 'Opening in pi…', tone: 'info' } }, { kind: 'open-in-pi', id });
      }
      return back;
    }
    case 'forkMenu': {
      const path = state.forkPath;
      const back: TreeState = { ...state, mode: 'browse', menu: null };
      if (action.action === 'open-fork' && path !== null) return queue(back, { kind: 'open-fork', path });
      return back;
    }
    case 'cancel':
      return { ...state, mode: 'browse', detail: null, menu: null };
    case 'input':
      if (state.mode !== 'label-input' && state.mode !== 'summary-input') return state;
      {
        const input = textInputReducer(state.input, action.action);
        return input === state.input ? state : { ...state, input };
      }
    case 'submit':
      if (state.mode === 'label-input') return treeReducer(state, { type: 'submitLabel', value: state.input.value });
      if (state.mode === 'summary-input') return treeReducer(state, { type: 'submitSummary', value: state.input.value });
      return state;
    case 'submitLabel': {
      const id = state.targetId;
      const back: TreeState = { ...state, mode: 'browse' };
      if (id === null) return back;
      if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
      const label = action.value.trim();
      const current = state.index.tree.labels.get(id) ?? '';
      if (label === current) return withStatus(back, { text: label === '' ? 'No label to clear' : 'Label unchanged', tone: 'info' });
      return queue({ ...back, busy: true }, { kind: 'label', id, label });
    }
    case 'submitSummary': {
      const id = state.targetId;
      const back: TreeState = { ...state, mode: 'browse' };
      if (id === null) return back;
      if (state.busy) return withStatus(back, { text: 'A write is still running', tone: 'error' });
      const summary = action.value.trim();
      if (summary === '') return withStatus(back, { text: 'Empty summary: nothing written', tone: 'info' });
      return queue({ ...back, busy: true, status: { text: 'Moving the leaf…', tone: 'info' } }, { kind: 'branch-summary', id, summary });
    }
    case 'effectsTaken': {
      const effects = state.effects.filter((effect) => effect.effectId > action.upTo);
      return effects.length === state.effects.length ? state : { ...state, effects };
    }
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
        menu: menuOf(FORK_ITEMS),
        forkPath: action.path,
        forkEditorText: action.editorText ?? null,
        status: { text: action.editorText === undefined ? `Forked to ${action.path}` : `Forked before the message, to ${action.path}`, tone: 'success' },
      };
    case 'copied':
      // The effect says how the text left (a clipboard tool, tmux's buffer, or OSC 52) and claims
      // no more than it can know.
      return withStatus(state, { text: action.message, tone: 'success' });
    case 'failed':
      // A failed open-in-pi leaves the screen where it was: it takes keys again.
      return { ...state, busy: false, leaving: false, status: { text: action.message, tone: 'error' } };
    case 'status':
      return withStatus(state, action.status);
  }
}
