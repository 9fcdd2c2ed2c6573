/**
 * The picker's state machine (pure): keys → commands (keymap data) → state changes, plus results
 * of effects coming back. Anything with a side effect (loading, rename, trash, restore, open,
 * exit) is appended to `effects` for the screen to run; the reducer never performs it.
 *
 * Derived data (rows, the search index, the viewport) is recomputed inside the same transition
 * that changes its inputs, so there is never a render with a stale list, and actions that change
 * nothing return the same state object.
 */
import { plural } from '../format.js';
import { resolveCommand } from '../keymap/keymap.js';
import { reduceText } from '../keymap/text-runs.js';
import type { Keypress } from '../keymap/tokenize.js';
import { initialTextInput, textInputReducer, type TextInputAction, type TextInputState } from '../state/text-input.js';
import { textEditOf } from '../state/text-input-keys.js';
import { clampOffset, pageStep } from '../state/viewport.js';
import type { RestoreOutcome, TrashedSession, TrashOutcome } from '../store/trash.js';
import type { SessionInfo } from '../store/types.js';
import { PICKER_BINDINGS, type PickerCommand, type PickerKeyMode } from './keymap.js';
import { computeLayout, isLive } from './layout.js';
import { createSearchIndex, hasRankingTerms, parseQuery, searchSessions, type ParsedQuery, type SearchIndex } from './query.js';
import { nextSortMode, sortRows, type Row, type SortMode } from './sort.js';
import { sanitizeInline } from '../text/terminal-text.js';

export type Scope = 'cwd' | 'cwd-tree' | 'all';
export const SCOPES: readonly Scope[] = ['cwd', 'cwd-tree', 'all'];
export const SCOPE_TITLES: Readonly<Record<Scope, string>> = {
  cwd: 'this folder',
  'cwd-tree': 'this folder and sub-folders',
  all: 'all projects',
};

export type PickerExit = { kind: 'quit'; code: number } | { kind: 'print'; path: string } | { kind: 'resume'; path: string; cwd: string };

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

export type PickerMode =
  | { kind: 'browse' }
  | { kind: 'help' }
  | { kind: 'rename'; path: string; input: TextInputState }
  /**
   * A delete prompt. `needsYes`: Enter is not enough (a live-looking session, or permanent
   * deletion). `trashProblem`: why the trash failed, when this is the permanent-deletion step.
   */
  | { kind: 'confirm'; paths: string[]; permanent: boolean; needsYes: boolean; trashProblem?: string };

export type PickerEffect =
  | { id: number; kind: 'load'; scope: Scope }
  /** `previous`: the name to put back if saving fails. */
  | { id: number; kind: 'rename'; path: string; name: string; previous: string | undefined }
  | { id: number; kind: 'trash'; paths: string[]; permanent: boolean }
  | { id: number; kind: 'restore'; batch: TrashedSession[] }
  | { id: number; kind: 'open'; path: string }
  | { id: number; kind: 'exit'; exit: PickerExit };

type EffectBody = PickerEffect extends infer E ? (E extends PickerEffect ? Omit<E, 'id'> : never) : never;

export interface StatusMessage {
  text: string;
  tone: 'info' | 'error';
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
  parsed: ParsedQuery;
  /** Built once per session list (identity of the list array). */
  index: SearchIndex | undefined;
  rows: Row[];
  /** Sessions whose text the current search skipped (not prepared yet). */
  unindexed: number;
  cursor: number;
  /** The session the user chose; the cursor follows it by path as rows arrive and re-sort. */
  cursorPath: string | undefined;
  /** True until the user moves: the cursor then stays on the first row (the best match). */
  followTop: boolean;
  offset: number;
  listLines: number;
  marks: ReadonlySet<string>;
  mode: PickerMode;
  status: StatusMessage | undefined;
  /** The last batch moved to the trash, with the infos to put back on undo. */
  undo: { batch: TrashedSession[]; infos: { info: SessionInfo; scopes: Scope[] }[] } | undefined;
  /** A rename, delete or restore is running. */
  busy: boolean;
  effects: PickerEffect[];
  nextId: number;
  /** An open or exit was asked for: this screen takes no more keys (see `takesKeys`). */
  leaving: boolean;
}

export type PickerAction =
  /** A key from the tokenizer (a named key, a run of typed text, or a paste). */
  | ({ type: 'key'; nowMs: number } & Keypress)
  | { type: 'resize'; columns: number; rows: number }
  | { type: 'sessions'; scope: Scope; sessions: SessionInfo[]; loaded: number; total: number }
  | { type: 'loadDone'; scope: Scope; searched: string; dirMissing?: boolean; problem?: string; skipped: number; sessions: SessionInfo[] }
  | { type: 'loadFailed'; scope: Scope; error: string }
  | { type: 'renamed'; path: string; name: string | undefined }
  | { type: 'renameFailed'; path: string; previous: string | undefined; error: string }
  | { type: 'trashed'; outcome: TrashOutcome; permanent: boolean }
  | { type: 'trashFailed'; error: string }
  | { type: 'restored'; outcome: RestoreOutcome }
  | { type: 'effectsTaken'; upTo: number }
  | { type: 'clearStatus'; id: number }
  /** More message text was prepared: re-run the search if it skipped some. */
  | { type: 'textPrepared' };

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
}

export function initialPickerState(opts: InitOptions): PickerState {
  const scope = opts.scope ?? 'cwd';
  const query = initialTextInput(opts.query ?? '');
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
    parsed: query.value === '' ? { ok: true, terms: [] } : parseQuery(query.value, opts.nowMs ?? Date.now()),
    index: undefined,
    rows: [],
    unindexed: 0,
    cursor: 0,
    cursorPath: undefined,
    followTop: true,
    offset: 0,
    listLines: 0,
    marks: new Set(),
    mode: { kind: 'browse' },
    status: undefined,
    undo: undefined,
    busy: false,
    effects: [],
    nextId: 1,
    leaving: false,
  };
  return withEffect(relayout(base), { kind: 'load', scope });
}

/**
 * A state handed back after the tree view: same scope, sort, query, marks and cursor; lists are
 * kept (the screen reloads the current scope so renames made in the tree show up).
 */
export function resumePickerState(state: PickerState, size: { columns: number; rows: number }): PickerState {
  const fresh: PickerState = { ...state, effects: [], busy: false, leaving: false, mode: { kind: 'browse' }, status: undefined, size };
  return withEffect(relayout(fresh), { kind: 'load', scope: state.scope });
}

// ---------------------------------------------------------------------------------------------
// Helpers

function withEffect(state: PickerState, effect: EffectBody): PickerState {
  const leaving = state.leaving || effect.kind === 'open' || effect.kind === 'exit';
  return { ...state, effects: [...state.effects, { ...effect, id: state.nextId } as PickerEffect], nextId: state.nextId + 1, leaving };
}

/** Status texts quote file names and library errors: they are made safe to print here, once. */
function withStatus(state: PickerState, text: string, tone: 'info' | 'error' = 'info'): PickerState {
  return { ...state, status: { text: sanitizeInline(text), tone, id: state.nextId }, nextId: state.nextId + 1 };
}

export function keyModeOf(mode: PickerMode): PickerKeyMode {
  return mode.kind;
}

/** Lines the dialog of `mode` takes below the list (the screen renders exactly this many). */
export function dialogLinesFor(mode: PickerMode): number {
  switch (mode.kind) {
    case 'rename':
      return 2;
    case 'confirm':
      return 5;
    default:
      return 0;
  }
}

function relayout(state: PickerState): PickerState {
  const layout = computeLayout(state.size, state.preview, dialogLinesFor(state.mode));
  const listLines = layout.listLines;
  const offset = clampOffset(state.offset, state.cursor, listLines, state.rows.length);
  return listLines === state.listLines && offset === state.offset ? state : { ...state, listLines, offset };
}

function moveTo(state: PickerState, cursor: number): PickerState {
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
function findInfo(state: PickerState, path: string): SessionInfo | undefined {
  for (const scope of SCOPES) {
    const found = state.lists[scope]?.sessions.find((s) => s.path === path);
    if (found) return found;
  }
  return undefined;
}

/**
 * Recomputes rows from the current list, query, filters and sort; keeps the cursor on the chosen
 * session (by path), or on the first row while the user has not moved.
 */
function derive(state: PickerState, resetCursor = false): PickerState {
  const sessions = currentList(state)?.sessions ?? [];
  const index = state.index && state.index.sessions === sessions ? state.index : createSearchIndex(sessions);
  let rows: Row[] = [];
  let unindexed = 0;
  if (state.parsed.ok) {
    const outcome = searchSessions(index, state.parsed, { preparedOnly: state.preparedOnly });
    const matches = state.namedOnly ? outcome.matches.filter((m) => m.info.name !== undefined && m.info.name.trim() !== '') : outcome.matches;
    rows = sortRows(matches, state.sort, hasRankingTerms(state.parsed));
    unindexed = outcome.unindexed;
  }
  const followTop = resetCursor || state.followTop;
  let cursor = 0;
  if (!followTop && state.cursorPath !== undefined) {
    const at = rows.findIndex((r) => r.info.path === state.cursorPath);
    cursor = at >= 0 ? at : Math.min(state.cursor, Math.max(0, rows.length - 1));
  }
  // While following the top, the target is whatever is first; otherwise keep the target even if
  // it is not (yet) in the rows, so it is found again when it arrives.
  const cursorPath = followTop ? rows[0]?.info.path : state.cursorPath;
  return relayout({
    ...state,
    index,
    rows,
    unindexed,
    cursor,
    cursorPath,
    followTop,
    offset: clampOffset(resetCursor ? 0 : state.offset, cursor, state.listLines, rows.length),
  });
}

function setQuery(state: PickerState, action: TextInputAction, nowMs: number): PickerState {
  const query = textInputReducer(state.query, action);
  if (query === state.query) return state;
  if (query.value === state.query.value) return { ...state, query };
  return derive({ ...state, query, parsed: parseQuery(query.value, nowMs) }, true);
}

function updateInfos(state: PickerState, path: string, update: (info: SessionInfo) => SessionInfo | undefined): PickerState {
  const lists: Partial<Record<Scope, ScopeList>> = {};
  let changed = false;
  for (const scope of SCOPES) {
    const list = state.lists[scope];
    if (!list) continue;
    const i = list.sessions.findIndex((s) => s.path === path);
    if (i < 0) {
      lists[scope] = list;
      continue;
    }
    const old = list.sessions[i] as SessionInfo;
    const next = update(old);
    const sessions = [...list.sessions];
    if (next) sessions[i] = next;
    else sessions.splice(i, 1);
    lists[scope] = { ...list, sessions };
    changed = true;
  }
  return changed ? { ...state, lists } : state;
}



const CURRENT_KEPT = 'the session pi is in cannot be deleted from here';

/** The delete prompt for `paths`; the session pi is in (`--current`) is left out, with a status line saying so. */
function startDelete(state: PickerState, paths: string[], nowMs: number): PickerState {
  const withoutCurrent = paths.filter((p) => p !== state.current);
  const skipped = withoutCurrent.length < paths.length;
  if (skipped && withoutCurrent.length === 0) return withStatus(state, `Not deleted: ${CURRENT_KEPT}`, 'error');
  const infos = withoutCurrent.map((p) => findInfo(state, p)).filter((i): i is SessionInfo => i !== undefined);
  if (infos.length === 0) return state;
  const needsYes = infos.some((i) => isLive(i, nowMs));
  const next = relayout({ ...state, mode: { kind: 'confirm', paths: infos.map((i) => i.path), permanent: false, needsYes } });
  return skipped ? withStatus(next, `Skipped the current session (${CURRENT_KEPT})`) : next;
}

function exitWith(state: PickerState, exit: PickerExit): PickerState {
  return withEffect(state, { kind: 'exit', exit });
}

// ---------------------------------------------------------------------------------------------
// Commands

function browseCommand(state: PickerState, command: PickerCommand, nowMs: number): PickerState {
  const row = selectedRow(state);
  const page = pageStep(state.listLines);
  switch (command) {
    case 'up':
      return moveTo(state, state.cursor - 1);
    case 'down':
      return moveTo(state, state.cursor + 1);
    case 'pageUp':
      return moveTo(state, state.cursor - page);
    case 'pageDown':
      return moveTo(state, state.cursor + page);
    case 'first':
      return moveTo(state, 0);
    case 'last':
      return moveTo(state, state.rows.length - 1);
    case 'open':
      if (!row) return state;
      return state.printMode ? exitWith(state, { kind: 'print', path: row.info.path }) : withEffect(state, { kind: 'open', path: row.info.path });
    case 'resume':
      if (!row) return state;
      return exitWith(state, { kind: 'resume', path: row.info.path, cwd: row.info.cwd });
    case 'scope':
    case 'scopeBack': {
      const step = command === 'scope' ? 1 : SCOPES.length - 1;
      const scope = SCOPES[(SCOPES.indexOf(state.scope) + step) % SCOPES.length] ?? 'cwd';
      const next = derive({ ...state, scope });
      return state.lists[scope] ? next : withEffect(next, { kind: 'load', scope });
    }
    case 'sort':
      return derive({ ...state, sort: nextSortMode(state.sort) });
    case 'named':
      return derive({ ...state, namedOnly: !state.namedOnly });
    case 'paths':
      return { ...state, showPaths: !state.showPaths };
    case 'preview':
      return relayout({ ...state, preview: !state.preview });
    case 'rename':
      if (!row) return state;
      if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
      return relayout({ ...state, mode: { kind: 'rename', path: row.info.path, input: initialTextInput(row.info.name ?? '', true) } });
    case 'delete':
      if (!row) return state;
      if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
      return startDelete(state, [row.info.path], nowMs);
    case 'mark': {
      if (!row) return state;
      const marks = new Set(state.marks);
      if (marks.has(row.info.path)) marks.delete(row.info.path);
      else marks.add(row.info.path);
      return moveTo({ ...state, marks }, state.cursor + 1);
    }
    case 'markAll': {
      if (state.rows.length === 0) return state;
      const shown = state.rows.map((r) => r.info.path);
      const marks = new Set(state.marks);
      const allMarked = shown.every((p) => marks.has(p));
      for (const p of shown) {
        if (allMarked) marks.delete(p);
        else marks.add(p);
      }
      const text = allMarked
        ? `Unmarked ${plural(shown.length, 'session')}`
        : `Marked ${plural(shown.length, 'shown session')} (${marks.size} marked in all) · Ctrl+X deletes them`;
      return withStatus({ ...state, marks }, text);
    }
    case 'deleteMarked':
      if (state.marks.size === 0) return withStatus(state, 'Nothing is marked: Ctrl+T marks a session, Ctrl+A marks all shown', 'error');
      if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
      return startDelete(state, [...state.marks], nowMs);
    case 'undo':
      if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
      if (!state.undo) return withStatus(state, 'Nothing to undo', 'error');
      return withStatus(withEffect({ ...state, busy: true }, { kind: 'restore', batch: state.undo.batch }), `Restoring ${plural(state.undo.batch.length, 'session')}…`);
    case 'escape':
      if (state.query.value !== '') return setQuery(state, { type: 'clear' }, nowMs);
      return exitWith(state, { kind: 'quit', code: state.printMode ? 1 : 0 });
    default: {
      const edit = textEditOf(command);
      return edit ? setQuery(state, edit, nowMs) : state;
    }
  }
}

function renameCommand(state: PickerState, mode: Extract<PickerMode, { kind: 'rename' }>, command: PickerCommand | undefined, text: string | undefined): PickerState {
  if (command === 'cancel') return relayout({ ...state, mode: { kind: 'browse' } });
  if (command === 'save') {
    const name = mode.input.value.trim();
    const previous = findInfo(state, mode.path)?.name;
    // The row shows the new name at once; a failure puts the old one back.
    const updated = updateInfos(state, mode.path, (info) => ({ ...info, name: name === '' ? undefined : name }));
    const next = derive(relayout({ ...updated, mode: { kind: 'browse' }, busy: true }));
    return withStatus(withEffect(next, { kind: 'rename', path: mode.path, name, previous }), name === '' ? 'Clearing the name…' : 'Saving the name…');
  }
  const edit = command ? textEditOf(command) : text !== undefined ? ({ type: 'insert', text } as const) : undefined;
  if (!edit) return state;
  const input = textInputReducer(mode.input, edit);
  return input === mode.input ? state : { ...state, mode: { ...mode, input } };
}

function confirmCommand(state: PickerState, mode: Extract<PickerMode, { kind: 'confirm' }>, command: PickerCommand | undefined): PickerState {
  if (command === 'cancel') return relayout({ ...withStatus(state, 'Nothing was deleted'), mode: { kind: 'browse' } });
  const accepted = command === 'confirmYes' || (command === 'confirm' && !mode.needsYes);
  if (!accepted) return state;
  const next = relayout({ ...state, mode: { kind: 'browse' }, busy: true });
  const verb = mode.permanent ? 'Deleting' : 'Moving';
  return withStatus(
    withEffect(next, { kind: 'trash', paths: mode.paths, permanent: mode.permanent }),
    `${verb} ${plural(mode.paths.length, 'session')}${mode.permanent ? ' permanently' : ' to the trash'}…`,
  );
}

/** Whether every printable key types (so a run of text can be inserted whole). */
function typesText(state: PickerState): boolean {
  // In the list, `?` is a command only while the search is empty.
  return state.mode.kind === 'rename' || (state.mode.kind === 'browse' && state.query.value !== '');
}

function insertText(state: PickerState, text: string, nowMs: number): PickerState {
  const mode = state.mode;
  if (mode.kind === 'rename') return renameCommand(state, mode, undefined, text);
  if (mode.kind === 'browse') return setQuery(state, { type: 'insert', text }, nowMs);
  return state;
}

function onKey(state: PickerState, keypress: Keypress, nowMs: number): PickerState {
  // A paste only ever types (pi's rule too): never a command, never a submit.
  if (keypress.paste) return insertText(state, keypress.text, nowMs);
  return reduceText(
    state,
    keypress,
    typesText,
    (s, text) => insertText(s, text, nowMs),
    (s, single) => onSingleKey(s, single, nowMs),
  );
}

function onSingleKey(state: PickerState, keypress: Keypress, nowMs: number): PickerState {
  const mode = state.mode;
  const name = keypress.name;
  const command = resolveCommand(PICKER_BINDINGS, name, keyModeOf(mode));
  if (command === 'quit') return exitWith(state, { kind: 'quit', code: 130 });
  const text = keypress.text === '' ? undefined : keypress.text;
  switch (mode.kind) {
    case 'help':
      return command === 'closeHelp' ? { ...state, mode: { kind: 'browse' } } : state;
    case 'confirm':
      // Every other key is swallowed (as in pi): a stray keystroke must not delete anything.
      return confirmCommand(state, mode, command);
    case 'rename':
      return renameCommand(state, mode, command, command ? undefined : text);
    case 'browse': {
      if (command === 'help') {
        if (state.query.value === '') return { ...state, mode: { kind: 'help' } };
        return setQuery(state, { type: 'insert', text: '?' }, nowMs);
      }
      if (command) return browseCommand(state, command, nowMs);
      return text === undefined ? state : setQuery(state, { type: 'insert', text }, nowMs);
    }
  }
}

function mergeList(state: PickerState, scope: Scope, patch: Partial<ScopeList>): PickerState {
  const old = state.lists[scope] ?? { sessions: [], loaded: 0, total: 0, done: false, skipped: 0 };
  return { ...state, lists: { ...state.lists, [scope]: { ...old, ...patch } } };
}

const TRASH_FAILURE = 'could not move to the trash';

export function pickerReducer(state: PickerState, action: PickerAction): PickerState {
  switch (action.type) {
    case 'key':
      return onKey(state, action, action.nowMs);
    case 'resize':
      if (action.columns === state.size.columns && action.rows === state.size.rows) return state;
      return relayout({ ...state, size: { columns: action.columns, rows: action.rows } });
    case 'sessions': {
      const next = mergeList(state, action.scope, { sessions: action.sessions, loaded: action.loaded, total: action.total });
      return action.scope === state.scope ? derive(next) : next;
    }
    case 'loadDone': {
      const patch: Partial<ScopeList> = { sessions: action.sessions, done: true, searched: action.searched, skipped: action.skipped, loaded: action.sessions.length, total: action.sessions.length };
      if (action.dirMissing) patch.dirMissing = true;
      if (action.problem) patch.problem = action.problem;
      const next = mergeList(state, action.scope, patch);
      return action.scope === state.scope ? derive(next) : next;
    }
    case 'loadFailed': {
      const next = mergeList(state, action.scope, { done: true, problem: action.error });
      return withStatus(action.scope === state.scope ? derive(next) : next, `Failed to load sessions: ${action.error}`, 'error');
    }
    case 'renamed': {
      const next = updateInfos({ ...state, busy: false }, action.path, (info) => ({ ...info, name: action.name }));
      return withStatus(derive(next), action.name === undefined ? 'Name cleared' : 'Renamed');
    }
    case 'renameFailed': {
      const next = updateInfos({ ...state, busy: false }, action.path, (info) => ({ ...info, name: action.previous }));
      return withStatus(derive(next), `Rename failed: ${action.error}`, 'error');
    }
    case 'trashed': {
      const { trashed, failed } = action.outcome;
      let next: PickerState = { ...state, busy: false };
      const infos: { info: SessionInfo; scopes: Scope[] }[] = [];
      const marks = new Set(state.marks);
      for (const item of trashed) {
        const info = findInfo(next, item.path);
        const scopes = SCOPES.filter((scope) => next.lists[scope]?.sessions.some((s) => s.path === item.path));
        if (info) infos.push({ info, scopes });
        next = updateInfos(next, item.path, () => undefined);
        marks.delete(item.path);
      }
      // The cursor moves to the row that took the deleted one's place.
      const removed = new Set(trashed.map((t) => t.path));
      const survivor = state.rows.slice(state.cursor).find((r) => !removed.has(r.info.path)) ?? [...state.rows].reverse().find((r) => !removed.has(r.info.path));
      next = derive({ ...next, marks, cursorPath: survivor?.info.path ?? next.cursorPath, followTop: false });
      const restorable = trashed.filter((t) => t.how === 'trash');
      if (trashed.length > 0) next = { ...next, undo: { batch: restorable, infos } };
      const trashFailures = failed.filter((f) => f.trashUnavailable === true);
      if (!action.permanent && trashFailures.length > 0) {
        const problem = trashFailures[0]?.error ?? TRASH_FAILURE;
        const prefix = trashed.length > 0 ? `Moved ${plural(trashed.length, 'session')} to the trash; ` : '';
        return withStatus(
          relayout({ ...next, mode: { kind: 'confirm', paths: trashFailures.map((f) => f.path), permanent: true, needsYes: true, trashProblem: problem } }),
          `${prefix}the trash is unavailable for ${plural(trashFailures.length, 'session')}`,
          'error',
        );
      }
      const other = failed.filter((f) => action.permanent || f.trashUnavailable !== true);
      if (other.length > 0) {
        return withStatus(next, `Could not delete ${plural(other.length, 'session')}: ${other[0]?.error ?? ''}`, 'error');
      }
      if (action.permanent) return withStatus(next, `Deleted ${plural(trashed.length, 'session')} permanently (cannot be undone)`);
      return withStatus(next, `Moved ${plural(trashed.length, 'session')} to the trash · Ctrl+Z undoes`);
    }
    case 'trashFailed':
      return withStatus({ ...state, busy: false }, `Delete failed: ${action.error}`, 'error');
    case 'restored': {
      const undo = state.undo;
      let next: PickerState = { ...state, busy: false, undo: undefined };
      if (undo) {
        const restored = new Set(action.outcome.restored);
        const back = undo.infos.filter((i) => restored.has(i.info.path));
        const lists: Partial<Record<Scope, ScopeList>> = {};
        for (const scope of SCOPES) {
          const list = next.lists[scope];
          if (!list) continue;
          // Back into the scope lists it was removed from (a scope loaded since then has it already).
          const add = back
            .filter((b) => b.scopes.includes(scope) && !list.sessions.some((s) => s.path === b.info.path))
            .map((b) => b.info);
          const sessions = [...list.sessions, ...add].sort((a, b) => b.modified.getTime() - a.modified.getTime());
          lists[scope] = add.length > 0 ? { ...list, sessions } : list;
        }
        next = derive({ ...next, lists });
      }
      const { restored, failed } = action.outcome;
      if (failed.length > 0) {
        const head = restored.length > 0 ? `Restored ${plural(restored.length, 'session')}; ` : '';
        return withStatus(next, `${head}could not restore ${plural(failed.length, 'session')}: ${failed[0]?.error ?? ''}`, 'error');
      }
      return withStatus(next, `Restored ${plural(restored.length, 'session')}`);
    }
    case 'effectsTaken': {
      const effects = state.effects.filter((e) => e.id > action.upTo);
      return effects.length === state.effects.length ? state : { ...state, effects };
    }
    case 'clearStatus':
      return state.status?.id === action.id ? { ...state, status: undefined } : state;
    case 'textPrepared':
      return state.unindexed > 0 ? derive(state) : state;
  }
}

/** The reducer's action for a key from the tokenizer. */
export function keyAction(keypress: Keypress, nowMs: number): PickerAction {
  return { type: 'key', name: keypress.name, text: keypress.text, paste: keypress.paste, nowMs };
}

/**
 * False once the screen is being left (Enter opened a session, the picker quits): the keys that
 * follow in the same read belong to the next screen.
 */
export function takesKeys(state: PickerState): boolean {
  return !state.leaving;
}
