/**
 * The picker's state, its types and the small pure steps every part of the reducer shares:
 * effects and status lines, the layout and the cursor (rows.ts recomputes the rows). The
 * transitions themselves live in browse.ts (list keys), dialogs.ts (rename and delete prompts)
 * and outcomes.ts (effect results); reducer.ts dispatches to them.
 */

import type { KeyBinding } from '../keymap/keymap.js';
import type { PiLaunch } from '../pi-launch.js';
import type { ExportRequestBody } from '../state/export-dialog.js';
import type { RedoRequest, UndoRequest } from '../state/journal-undo.js';
import type { LastClick } from '../state/list-mouse.js';
import { initialTextInput, type TextInputState } from '../state/text-input.js';
import { clampOffset } from '../state/viewport.js';
import type { ConflictGroup, PathMap, SessionInfo } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { PICKER_BINDINGS, type PickerCommand } from './keymap.js';
import { computeLayout } from './layout.js';
import { dialogLinesFor, type PickerMode } from './mode.js';
import { type ParsedQuery, parseQuery, type SearchIndex } from './query.js';
import type { Row, SortMode } from './sort.js';
import type { HitFocus } from './text-hit-places.js';

export type Scope = 'cwd' | 'cwd-tree' | 'all';
export const SCOPES: readonly Scope[] = ['cwd', 'cwd-tree', 'all'];
export const SCOPE_TITLES: Readonly<Record<Scope, string>> = {
  cwd: 'this folder',
  'cwd-tree': 'this folder and sub-folders',
  all: 'all projects',
};

/** `resume`: run pi on the session (pi-launch.ts), handing it the terminal. */
export type PickerExit =
  | { kind: 'quit'; code: number }
  | { kind: 'print'; path: string }
  /** `--print` with sessions marked (fzf -m): every marked path, one a line, in the order marked. */
  | { kind: 'printMarked'; paths: string[] }
  | ({ kind: 'resume' } & PiLaunch);

export interface ScopeList {
  /** Newest first (the store's order). */
  sessions: SessionInfo[];
  loaded: number;
  total: number;
  done: boolean;
  /** The folder that was searched (for the "no sessions" message). */
  searched?: string;
  dirMissing?: boolean;
  /** A folder-level problem or a load failure, one line. */
  problem?: string;
  /** Files that are not sessions. */
  skipped: number;
}

/**
 * What the secret scan found in a scope (`has:secret`): findings by path, for the files scanned.
 * It runs when a query first asks, and again when the list was reloaded since (files may have
 * changed); the catalogue answers for the unchanged ones, so that is cheap.
 */
export interface SecretsScan {
  scope: Scope;
  counts: ReadonlyMap<string, number>;
  running: boolean;
  /** The list was reloaded after this scan: scan again when a query asks. */
  stale: boolean;
  scanned: number;
  total: number;
  /** Why the last scan failed, one line. */
  problem?: string;
}

export type PickerEffect =
  | { id: number; kind: 'load'; scope: Scope }
  /**
   * The search for the typed query, run once the frame that echoes it is drawn; it comes back as
   * `runSearch` with this id, which only the latest queued search still matches.
   */
  | { id: number; kind: 'search' }
  /** `previous`: the name to put back if saving fails. */
  | { id: number; kind: 'rename'; path: string; name: string; previous: string | undefined }
  | { id: number; kind: 'trash'; paths: string[]; permanent: boolean }
  /** Ctrl+Z: a look at the journal's latest change, then (once the user said yes) its undo, or its skip. */
  | { id: number; kind: 'undo'; request: UndoRequest }
  /** Ctrl+Y: a look at the latest undo, then its redo. */
  | { id: number; kind: 'redo'; request: RedoRequest }
  | { id: number; kind: 'planSlim'; path: string }
  /** The check view of the current scope (the screen hands its state to App, to come back to). */
  | { id: number; kind: 'openCheck' }
  | { id: number; kind: 'slim'; path: string }
  /** A row's conflict copies: measured (refused when they disagree), then merged into `path`, the original. */
  | { id: number; kind: 'planMerge'; path: string; group: ConflictGroup }
  | { id: number; kind: 'merge'; path: string; group: ConflictGroup }
  /** `focus`: on a full-text hit, the tree opens on it (text-hit-places.ts hitFocus). */
  | { id: number; kind: 'open'; path: string; focus?: HitFocus }
  /** The stats screen for the current scope (src/stats/picker-scope.ts says which sessions). */
  | { id: number; kind: 'stats' }
  /** Enter: is the session's folder there? The answer comes back as `resumeChecked`. */
  | { id: number; kind: 'checkResume'; path: string; cwd: string }
  /** The labels view over the sessions of the current scope. */
  | { id: number; kind: 'labels'; sessions: SessionInfo[] }
  /** `has:secret`: the secret scan of a scope (answered from the catalogue where it can be). */
  | { id: number; kind: 'scanSecrets'; scope: Scope }
  /** The export: scanned, then written unless a secret stops it (`secrets: 'stop'`) or was chosen for. */
  | ({ id: number; kind: 'export' } & ExportRequestBody)
  | { id: number; kind: 'exit'; exit: PickerExit };

export type EffectBody = PickerEffect extends infer E ? (E extends PickerEffect ? Omit<E, 'id'> : never) : never;

export interface StatusMessage {
  text: string;
  /** `neutral`: nothing happened and nothing failed (a cancel): no ✓, no ✗. */
  tone: 'info' | 'neutral' | 'error';
  id: number;
}

export interface PickerState {
  printMode: boolean;
  /** `--current`: the session pi is in (from the pi extension): marked, and never deleted from here. */
  current: string | undefined;
  /** Search only already-prepared message text (the screen prepares it in idle time). */
  preparedOnly: boolean;
  lists: Partial<Record<Scope, ScopeList>>;
  scope: Scope;
  sort: SortMode;
  namedOnly: boolean;
  showPaths: boolean;
  preview: boolean;
  size: { columns: number; rows: number };
  query: TextInputState;
  /**
   * The search the picker was opened with (`--query`, `/sessions QUERY` in pi): while it stands
   * unedited, Esc leaves at once, as pi's /resume does; an edited search is cleared first.
   */
  openedQuery: string | null;
  parsed: ParsedQuery;
  /**
   * The query `rows` were found for: `parsed` while no search is queued, the query before while
   * one is (the rows' snippets and hit tags are those of the search that found them).
   */
  rowsQuery: ParsedQuery;
  /**
   * The id of the `search` effect queued for the typed query, while the rows are still those of
   * the query before; undefined once they are the typed query's. Any key that acts on the rows
   * (a move, Enter, a mark) runs the search first.
   */
  queuedSearch: number | undefined;
  /**
   * A list at least this big (sessions or file bytes) searches after the echo of a typed key;
   * a smaller one searches with the key, in the same frame (its search costs less than a frame).
   */
  echoFirst: { sessions: number; bytes: number };
  /**
   * What the latest searches for a new query cost, in ms per session of the list, as the screen
   * timed them (`searchTimed`); undefined until one is timed, when the list's size decides. It
   * decays by half per search rather than following the last one down, so one cheap search after
   * dear ones does not make the next key wait for its search.
   */
  searchCost: number | undefined;
  /** Built once per session list (identity of the list array). */
  index: SearchIndex | undefined;
  rows: Row[];
  /** Sessions whose text the current search skipped (not prepared yet). */
  unindexed: number;
  /** Sessions a `re:` search has not reached yet (its time budget ran out): `searchMore` goes on. */
  searchPending: number;
  /** The latest secret scan (`has:secret`); undefined until a query asks for one. */
  secrets: SecretsScan | undefined;
  cursor: number;
  /** The session the user chose; the cursor follows it by path as rows arrive and re-sort. */
  cursorPath: string | undefined;
  /** True until the user moves: the cursor then stays on the first row (the best match). */
  followTop: boolean;
  offset: number;
  listLines: number;
  /** The latest click on a row (src/picker/mouse.ts): a second one on the same session soon after is a double click. */
  lastClick: LastClick | undefined;
  marks: ReadonlySet<string>;
  mode: PickerMode;
  status: StatusMessage | undefined;
  /** A rename, delete or restore is running. */
  busy: boolean;
  /** Journal ids of the changes this screen made (and undid): Ctrl+Z / Ctrl+Y need not ask about those a moment old. */
  ownChanges: readonly string[];
  effects: PickerEffect[];
  nextId: number;
  /** An open or exit was asked for: this screen takes no more keys (see `takesKeys`). */
  leaving: boolean;
  /** The keymap keys resolve through: PICKER_BINDINGS with pi's keybindings.json applied. */
  bindings: readonly KeyBinding<PickerCommand>[];
  /** The folder pi-sessions runs in: an export goes there unless another path is typed. */
  here: string;
  /** Other machines' path prefixes mapped to this one: resume, nesting and hosts follow it. */
  pathMap: PathMap;
}

export interface InitOptions {
  printMode: boolean;
  scope?: Scope;
  columns: number;
  rows: number;
  preparedOnly?: boolean;
  /** `--current FILE`. */
  current?: string;
  /** `--query TEXT`: the search the picker opens with. */
  query?: string;
  /** For the relative dates of the initial query (after:2w); default Date.now(). */
  nowMs?: number;
  /** The keymap (default PICKER_BINDINGS; pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
  bindings?: readonly KeyBinding<PickerCommand>[];
  /** A line to show in the status (pi's configuration problems). */
  warning?: string;
  /** The folder pi-sessions runs in (where an export goes by default); default process.cwd(). */
  here?: string;
  /** Other machines' path prefixes mapped to this one (pi-sessions.json's pathMap). */
  pathMap?: PathMap;
  /** From which list size a typed key is echoed before its search runs (default ECHO_FIRST). */
  echoFirst?: { sessions: number; bytes: number };
}

/**
 * A search over fewer sessions than this, holding fewer bytes, takes well under a millisecond:
 * it runs with its key, so the screen never shows a frame whose rows belong to the query before.
 * From either size on, the search can cost a frame or more (tens of milliseconds at 2,000
 * sessions), and the typed character is drawn first (fzf's way).
 */
export const ECHO_FIRST = { sessions: 64, bytes: 1 << 20 } as const;

/**
 * Once searches are timed: a search expected to take longer than this is run after the frame
 * that echoes its key, a cheaper one with the key, in that frame. Echo and results then land
 * together, one frame instead of two, and the echo still comes within 16 ms (a frame of new rows
 * costs ~5 ms).
 */
export const SEARCH_WITH_KEY_MS = 6;

export function initialPickerState(opts: InitOptions): PickerState {
  const scope = opts.scope ?? 'cwd';
  const query = initialTextInput(opts.query ?? '');
  const parsed: ParsedQuery =
    query.value === '' ? { ok: true, terms: [] } : parseQuery(query.value, opts.nowMs ?? Date.now());
  const base: PickerState = {
    printMode: opts.printMode,
    current: opts.current,
    preparedOnly: opts.preparedOnly ?? false,
    lists: {},
    scope,
    sort: 'threaded',
    namedOnly: false,
    showPaths: false,
    preview: false,
    size: { columns: opts.columns, rows: opts.rows },
    query,
    openedQuery: query.value === '' ? null : query.value,
    parsed,
    rowsQuery: parsed,
    queuedSearch: undefined,
    echoFirst: opts.echoFirst ?? ECHO_FIRST,
    searchCost: undefined,
    index: undefined,
    rows: [],
    unindexed: 0,
    searchPending: 0,
    secrets: undefined,
    cursor: 0,
    cursorPath: undefined,
    followTop: true,
    offset: 0,
    listLines: 0,
    lastClick: undefined,
    marks: new Set(),
    mode: { kind: 'browse' },
    status: undefined,
    busy: false,
    ownChanges: [],
    effects: [],
    nextId: 1,
    leaving: false,
    bindings: opts.bindings ?? PICKER_BINDINGS,
    here: opts.here ?? process.cwd(),
    pathMap: opts.pathMap ?? [],
  };
  const warned = opts.warning === undefined ? base : withStatus(base, opts.warning, 'error');
  return withEffect(relayout(warned), { kind: 'load', scope });
}

/**
 * A state handed back after the tree view: same scope, sort, query, marks and cursor; lists are
 * kept (the screen reloads the current scope so renames made in the tree show up).
 */
export function resumePickerState(state: PickerState, size: { columns: number; rows: number }): PickerState {
  const fresh: PickerState = {
    ...state,
    effects: [],
    busy: false,
    leaving: false,
    mode: { kind: 'browse' },
    status: undefined,
    size,
  };
  return withEffect(relayout(fresh), { kind: 'load', scope: state.scope });
}

// ---------------------------------------------------------------------------------------------
// Helpers

export function withEffect(state: PickerState, effect: EffectBody): PickerState {
  // A resume being checked takes no keys either: a second Enter must not start pi twice.
  const leaving =
    state.leaving ||
    effect.kind === 'open' ||
    effect.kind === 'stats' ||
    effect.kind === 'openCheck' ||
    effect.kind === 'labels' ||
    effect.kind === 'exit' ||
    effect.kind === 'checkResume';
  return {
    ...state,
    effects: [...state.effects, { ...effect, id: state.nextId } as PickerEffect],
    nextId: state.nextId + 1,
    leaving,
  };
}

/** Status texts quote file names and library errors: they are made safe to print here, once. */
export function withStatus(state: PickerState, text: string, tone: StatusMessage['tone'] = 'info'): PickerState {
  return { ...state, status: { text: sanitizeInline(text), tone, id: state.nextId }, nextId: state.nextId + 1 };
}

export function relayout(state: PickerState): PickerState {
  const layout = computeLayout(state.size, state.preview, dialogLinesFor(state.mode));
  const listLines = layout.listLines;
  const offset = clampOffset(state.offset, state.cursor, listLines, state.rows.length);
  return listLines === state.listLines && offset === state.offset ? state : { ...state, listLines, offset };
}

export function moveTo(state: PickerState, cursor: number): PickerState {
  if (state.rows.length === 0) return state;
  const next = Math.max(0, Math.min(state.rows.length - 1, cursor));
  const path = state.rows[next]?.info.path;
  if (next === state.cursor && path === state.cursorPath && !state.followTop) return state;
  return {
    ...state,
    cursor: next,
    cursorPath: path,
    followTop: false,
    offset: clampOffset(state.offset, next, state.listLines, state.rows.length),
  };
}

/** The list of the current scope (empty while it has not arrived). */
export function currentList(state: PickerState): ScopeList | undefined {
  return state.lists[state.scope];
}

export function selectedRow(state: PickerState): Row | undefined {
  return state.rows[state.cursor];
}

/** Finds a session by path in any loaded scope. */
export function findInfo(state: PickerState, path: string): SessionInfo | undefined {
  for (const scope of SCOPES) {
    const found = state.lists[scope]?.sessions.find((s) => s.path === path);
    if (found) return found;
  }
  return undefined;
}
