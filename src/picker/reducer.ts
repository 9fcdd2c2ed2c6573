/**
 * The picker's state machine (pure): keys → commands (keymap data) → state changes, plus results
 * of effects coming back. Anything with a side effect (loading, rename, trash, restore, open,
 * exit) is appended to `effects` for the screen to run; the reducer never performs it.
 *
 * Derived data (rows, the search index, the viewport) is recomputed inside the same transition
 * that changes its inputs, and actions that change nothing return the same state object. One
 * exception, on purpose: on a big list a typed query's search is queued (rows.ts setQuery), so
 * its character is drawn first; until `runSearch` the rows are the query before's, the header
 * says so, and every key that acts on the rows runs the search first (browse.ts).
 *
 * This file dispatches; the state and shared steps are in state.ts, the list's commands in
 * browse.ts, the dialogs in dialogs.ts and effect results in outcomes.ts.
 */
import { resolveCommand } from '../keymap/keymap.js';
import { reduceText } from '../keymap/text-runs.js';
import { type Keypress, textKey } from '../keymap/tokenize.js';
import { isListMouseCommand } from '../state/list-mouse.js';
import type { PickerAction } from './actions.js';
import { browseCommand, exitWith } from './browse.js';
import { mergeCommand, merged, mergeFailed, mergePlanned } from './conflict-merge.js';
import { confirmCommand, renameCommand } from './dialogs.js';
import { exportCommand, exported, exportFailed, exportStopped } from './export.js';
import { helpCommand } from './help.js';
import { keyModeOf } from './mode.js';
import { browseMouse, helpMouse } from './mouse.js';
import { outcomeReducer } from './outcomes.js';
import { missingCwdCommand, onResumeChecked } from './resume.js';
import { derive, mergeList, runQueuedSearch, searchTimed, setQuery, settled } from './rows.js';
import { secretsProgress, secretsScanned, secretsStale } from './secret-scan.js';
import { slimCommand, slimmed, slimPlanned } from './slim.js';
import { type PickerState, relayout, type ScopeList, withEffect, withStatus } from './state.js';
import { redoStepped, undoQuestionCommand, undoStepped } from './undo.js';

export type { PickerAction } from './actions.js';
export { dialogLinesFor, dialogShowsKeys, keyModeOf, type PickerMode } from './mode.js';
export {
  currentList,
  type InitOptions,
  initialPickerState,
  type PickerEffect,
  type PickerExit,
  type PickerState,
  resumePickerState,
  SCOPE_TITLES,
  SCOPES,
  type Scope,
  type ScopeList,
  type StatusMessage,
  selectedRow,
} from './state.js';

/**
 * Whether `next` and every printable key after it type (so a run of text can be inserted whole).
 * In the list, `?` and `$` are commands only while the search is empty; any other character
 * starts the search, after which every key types.
 */
function typesText(state: PickerState, next: string): boolean {
  if (state.mode.kind === 'rename') return true;
  if (state.mode.kind === 'export') return state.mode.step.kind === 'path';
  if (state.mode.kind !== 'browse') return false;
  return (
    state.query.value !== '' || resolveCommand(state.bindings, textKey(next).name, keyModeOf(state.mode)) === undefined
  );
}

function insertText(state: PickerState, text: string, nowMs: number): PickerState {
  const mode = state.mode;
  if (mode.kind === 'rename') return renameCommand(state, mode, undefined, text);
  if (mode.kind === 'export') return exportCommand(state, mode, undefined, text);
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
  // Where every printable key types (typesText), so does one that pi's keybindings.json bound:
  // a burst of text and the same keys typed one by one must mean the same.
  const command =
    keypress.text !== '' && typesText(state, keypress.text)
      ? undefined
      : resolveCommand(state.bindings, name, keyModeOf(mode));
  if (command === 'quit') return exitWith(state, { kind: 'quit', code: 130 });
  const text = keypress.text === '' ? undefined : keypress.text;
  switch (mode.kind) {
    case 'help':
      return isListMouseCommand(command) ? helpMouse(state, command) : helpCommand(state, mode, command);
    case 'confirm':
      // Every other key is swallowed (as in pi): a stray keystroke must not delete anything.
      return confirmCommand(state, mode, command);
    case 'undoConfirm':
      return undoQuestionCommand(state, mode, command);
    case 'slimConfirm':
      return slimCommand(state, mode, command);
    case 'mergeConfirm':
      return mergeCommand(state, mode, command);
    case 'rename':
      return renameCommand(state, mode, command, command ? undefined : text);
    case 'missingCwd':
      return missingCwdCommand(state, mode, command);
    case 'export':
      return exportCommand(state, mode, command, command ? undefined : text);
    case 'browse': {
      if (command === 'help') {
        if (state.query.value === '') return { ...state, mode: { kind: 'help', offset: 0 } };
        return setQuery(state, { type: 'insert', text: '?' }, nowMs);
      }
      if (command === 'stats')
        return state.query.value === ''
          ? withEffect(state, { kind: 'stats' })
          : setQuery(state, { type: 'insert', text: '$' }, nowMs);
      // The mouse acts on rows, as the row keys do: a queued search runs first.
      if (isListMouseCommand(command)) return browseMouse(settled(state), command, keypress.mouse, nowMs);
      if (command) return browseCommand(state, command, nowMs);
      return text === undefined ? state : setQuery(state, { type: 'insert', text }, nowMs);
    }
  }
}

export function pickerReducer(state: PickerState, action: PickerAction): PickerState {
  switch (action.type) {
    case 'key':
      return onKey(state, action, action.nowMs);
    case 'resize':
      if (action.columns === state.size.columns && action.rows === state.size.rows) return state;
      return relayout({ ...state, size: { columns: action.columns, rows: action.rows } });
    case 'sessions': {
      const next = mergeList(state, action.scope, {
        sessions: action.sessions,
        loaded: action.loaded,
        total: action.total,
      });
      return action.scope === state.scope ? derive(next) : next;
    }
    case 'loadDone': {
      const patch: Partial<ScopeList> = {
        sessions: action.sessions,
        done: true,
        searched: action.searched,
        skipped: action.skipped,
        loaded: action.sessions.length,
        total: action.sessions.length,
      };
      if (action.dirMissing) patch.dirMissing = true;
      if (action.problem) patch.problem = action.problem;
      const next = mergeList(secretsStale(state, action.scope), action.scope, patch);
      return action.scope === state.scope ? derive(next) : next;
    }
    case 'loadFailed': {
      const next = mergeList(state, action.scope, { done: true, problem: action.error });
      return withStatus(
        action.scope === state.scope ? derive(next) : next,
        `Failed to load sessions: ${action.error}`,
        'error',
      );
    }
    case 'renamed':
    case 'renameFailed':
    case 'trashed':
    case 'trashFailed':
    case 'sessionGone':
      return outcomeReducer(state, action);
    case 'undoStep':
      return undoStepped(state, action.step, action.nowMs);
    case 'redoStep':
      return redoStepped(state, action.step, action.nowMs);
    case 'undoFailed':
      return withStatus(
        relayout({ ...state, busy: false, mode: state.mode.kind === 'undoConfirm' ? { kind: 'browse' } : state.mode }),
        `${action.action === 'undo' ? 'Undo' : 'Redo'} failed: ${action.error}`,
        'error',
      );
    case 'slimPlanned':
      return slimPlanned(state, action.plan, action.path, action.nowMs);
    case 'slimmed':
      return slimmed(state, action.result);
    case 'slimFailed':
      return withStatus({ ...state, busy: false }, `Not slimmed: ${action.error}`, 'error');
    case 'mergePlanned':
      return mergePlanned(state, action.path, action.plan, action.nowMs);
    case 'merged':
      return merged(state, action.result);
    case 'mergeFailed':
      return mergeFailed(state, action.error);
    case 'effectsTaken': {
      const effects = state.effects.filter((e) => e.id > action.upTo);
      return effects.length === state.effects.length ? state : { ...state, effects };
    }
    case 'runSearch':
      return runQueuedSearch(state, action.id);
    case 'clearStatus':
      return state.status?.id === action.id ? { ...state, status: undefined } : state;
    case 'resumeChecked':
      return onResumeChecked(state, action);
    case 'textPrepared':
      return state.unindexed > 0 ? derive(state) : state;
    case 'searchTimed':
      return searchTimed(state, action.ms, action.sessions);
    case 'searchMore':
      return state.searchPending > 0 ? derive(state) : state;
    case 'secretsProgress':
      return secretsProgress(state, action.scope, action.scanned, action.total);
    case 'secretsScanned':
      return secretsScanned(state, action.scope, action.counts, action.problem);
    case 'exported':
      return exported(state, action);
    case 'exportStopped':
      return exportStopped(state, action.request, action.findings);
    case 'exportFailed':
      return exportFailed(state, action.error);
  }
}

/** The reducer's action for a key from the tokenizer. */
export function keyAction(keypress: Keypress, nowMs: number): PickerAction {
  const { name, text, paste, mouse } = keypress;
  return { type: 'key', name, text, paste, ...(mouse ? { mouse } : {}), nowMs };
}

/**
 * False once the screen is being left (Enter opened a session, the picker quits): the keys that
 * follow in the same read belong to the next screen.
 */
export function takesKeys(state: PickerState): boolean {
  return !state.leaving;
}
