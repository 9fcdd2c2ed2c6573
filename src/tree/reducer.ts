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
import { isListMouseCommand } from '../state/list-mouse.js';
import { chosenValue, moveMenu } from '../state/menu.js';
import { cleanInputText, textInputReducer } from '../state/text-input.js';
import { textEditOf } from '../state/text-input-keys.js';
import { clampOffset, isListMove, type ListMove, listMoveTarget } from '../state/viewport.js';
import {
  branched,
  chooseForkAction,
  chooseMenuAction,
  forked,
  openMenu,
  scrollDetail,
  startLabel,
  submitLabel,
  submitSummary,
} from './actions.js';
import { wrapDetail } from './detail-view.js';
import { exportKey, exportOutcome, startExport } from './export.js';
import { foldsHiding } from './flatten.js';
import { scrollTreeHelp } from './help.js';
import type { TreeCommand } from './keymap.js';
import { openForkRow, openParent } from './lineage-actions.js';
import { treeMouse } from './mouse.js';
import {
  centerOn,
  cycleFilter,
  foldOrUp,
  jumpMatch,
  moveTo,
  recompute,
  setFilter,
  setQuery,
  toggleFilter,
  unfoldOrDown,
} from './navigation.js';
import { answerMissingCwd, openChecked } from './open-in-pi.js';
import { BROWSE, detailOf, keyMode, queue, selectedId, type TreeAction, type TreeState, withStatus } from './state.js';
import { onUndoQuestionKey, ownChange, redoStepped, startRedo, startUndo, undoStepped } from './undo.js';

export { RETAINED_ROW_NOTE } from './actions.js';
export { TREE_FILTER_HELP, treeHelpHeight } from './help.js';
export { type InitOptions, initTreeState } from './init.js';
export type {
  DetailView,
  ForkAction,
  MenuAction,
  StatusMessage,
  TreeAction,
  TreeEffect,
  TreeMode,
  TreeState,
} from './state.js';
export { keyMode, matchPosition, selectedId, selectedRow, takesKeys, treeKey } from './state.js';

function deleteWord(query: string): string {
  return query.replace(/\s*\S*$/, '');
}

/** pi's tree wraps Up and Down around at both ends (its picker clamps); paging clamps in both. */
function treeMoveTarget(command: ListMove, state: TreeState): number {
  const count = state.layout.count;
  if (count > 0 && command === 'up' && state.cursor === 0) return count - 1;
  if (count > 0 && command === 'down' && state.cursor === count - 1) return 0;
  return listMoveTarget(command, state.cursor, state.listHeight, count);
}

function runCommand(state: TreeState, command: TreeCommand): TreeState {
  if (isListMove(command)) return moveTo(state, treeMoveTarget(command, state));
  switch (command) {
    case 'jumpToLeaf': {
      const host = state.forest.leafHost;
      if (host === -1) return withStatus(state, { text: 'The leaf is hidden by the filter', tone: 'info' });
      const hidden = foldsHiding(state.layout, host);
      const next =
        hidden.length > 0
          ? recompute(state, { folds: new Set([...state.folds].filter((id) => !hidden.includes(id))) })
          : state;
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
      return openForkRow(state) ?? openMenu(state);
    case 'openParent':
      return openParent(state);
    case 'editLabel':
      return startLabel(state, selectedId(state));
    case 'toggleLabelTimes':
      return { ...state, labelTimes: !state.labelTimes };
    case 'copy': {
      const id = selectedId(state);
      return id === null ? state : queue(state, { kind: 'copy', entryId: id });
    }
    case 'export':
      return startExport(state, selectedId(state));
    case 'help':
      return { ...state, mode: { kind: 'help', offset: 0 } };
    case 'undo':
      return startUndo(state);
    case 'redo':
      return startRedo(state);
    case 'escape':
      // Opened on a picker hit: Esc goes straight back while the search is the hit's.
      if (state.query !== '' && state.query !== state.openedQuery) return setQuery(state, '');
      return queue(state, { kind: 'back' });
    case 'quit':
      return queue(state, { kind: 'quit' });
    case 'detailUp':
      if (state.mode.kind === 'help') return scrollTreeHelp(state, command) ?? state;
      return scrollDetail(state, (s) => s - 1);
    case 'detailDown':
      if (state.mode.kind === 'help') return scrollTreeHelp(state, command) ?? state;
      return scrollDetail(state, (s) => s + 1);
    case 'detailPageUp':
      if (state.mode.kind === 'help') return scrollTreeHelp(state, command) ?? state;
      return scrollDetail(state, (s, page) => s - page);
    case 'detailPageDown':
      if (state.mode.kind === 'help') return scrollTreeHelp(state, command) ?? state;
      return scrollDetail(state, (s, page) => s + page);
    case 'detailHome':
      if (state.mode.kind === 'help') return scrollTreeHelp(state, command) ?? state;
      return scrollDetail(state, () => 0);
    case 'detailEnd':
      if (state.mode.kind === 'help') return scrollTreeHelp(state, command) ?? state;
      return scrollDetail(state, (_s, _p, max) => max);
    case 'closeOverlay':
      return { ...state, mode: BROWSE };
    // The mouse (treeMouse, from onSingleKey, which has the event).
    case 'wheelUp':
    case 'wheelDown':
    case 'click':
      return state;
    // Menu and prompt commands (onMenuKey, onPromptKey): bound in those modes only.
    case 'menuUp':
    case 'menuDown':
    case 'menuChoose':
    case 'cancel':
    case 'submit':
    case 'answerYes':
    case 'skip':
    case 'keep':
    case 'left':
    case 'right':
    case 'wordLeft':
    case 'wordRight':
    case 'backspace':
    case 'deleteForward':
    case 'deleteWordForward':
    case 'clearToStart':
    case 'clearToEnd':
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

function onKey(state: TreeState, keypress: Keypress, nowMs: number | undefined): TreeState {
  // A paste only ever types: never a command, never a submit.
  if (keypress.paste) return insertText(state, keypress.text);
  return reduceText(state, keypress, typesText, insertText, (s, single) => onSingleKey(s, single, nowMs));
}

function onPromptKey(state: TreeState, command: TreeCommand | undefined, text: string): TreeState {
  if (state.mode.kind === 'export') return exportKey(state, command, text);
  if (command === 'cancel') return treeReducer(state, { type: 'cancel' });
  if (command === 'submit') return treeReducer(state, { type: 'submit' });
  const edit =
    textEditOf(command) ?? (command === undefined && text !== '' ? ({ type: 'insert', text } as const) : undefined);
  return edit ? treeReducer(state, { type: 'input', action: edit }) : state;
}

function onMenuKey(state: TreeState, command: TreeCommand | undefined): TreeState {
  const mode = state.mode;
  if (mode.kind === 'export') return exportKey(state, command, '');
  if (mode.kind !== 'menu' && mode.kind !== 'forkDone' && mode.kind !== 'missingCwd') return state;
  const forkDone = mode.kind === 'forkDone';
  if (mode.kind === 'missingCwd' && (command === 'cancel' || command === 'menuChoose')) {
    return answerMissingCwd(state, command === 'cancel' ? 'cancel' : chosenValue(mode.menu));
  }
  switch (command) {
    case 'menuUp':
    case 'menuDown':
      return { ...state, mode: movedMenu(mode, command === 'menuUp' ? -1 : 1) };
    case 'cancel':
      return forkDone
        ? treeReducer(state, { type: 'forkMenu', action: 'stay' })
        : treeReducer(state, { type: 'menu', action: 'cancel' });
    case 'menuChoose': {
      if (mode.kind === 'forkDone') {
        const value = chosenValue(mode.menu);
        return value === undefined ? state : treeReducer(state, { type: 'forkMenu', action: value });
      }
      const value = mode.kind === 'menu' ? chosenValue(mode.menu) : undefined;
      return value === undefined ? state : treeReducer(state, { type: 'menu', action: value });
    }
    default:
      return state;
  }
}

type MenuMode = Extract<TreeState['mode'], { kind: 'menu' | 'forkDone' | 'missingCwd' }>;

function movedMenu(mode: MenuMode, by: 1 | -1): MenuMode {
  switch (mode.kind) {
    case 'menu':
      return { ...mode, menu: moveMenu(mode.menu, by) };
    case 'forkDone':
      return { ...mode, menu: moveMenu(mode.menu, by) };
    case 'missingCwd':
      return { ...mode, menu: moveMenu(mode.menu, by) };
  }
}

function onSingleKey(state: TreeState, keypress: Keypress, nowMs: number | undefined): TreeState {
  const mode = keyMode(state);
  // In the prompts every printable key types, a key bound by pi's keybindings.json too: a burst
  // of text and the same keys typed one by one must mean the same.
  const command =
    keypress.text !== '' && typesText(state) ? undefined : resolveCommand(state.bindings, keypress.name, mode);
  if (command === 'quit') return queue(state, { kind: 'quit' });
  if (mode === 'prompt') return onPromptKey(state, command, keypress.text);
  if (mode === 'menu') return onMenuKey(state, command);
  if (mode === 'confirm') return onUndoQuestionKey(state, command);
  // Any key dismisses the previous status message; a command may set a new one.
  const cleared =
    state.status !== null && (mode === 'browse' || mode === 'search') ? { ...state, status: null } : state;
  if (isListMouseCommand(command)) return treeMouse(cleared, command, keypress.mouse, nowMs);
  if (command !== undefined) return runCommand(cleared, command);
  if ((mode === 'browse' || mode === 'search') && keypress.text !== '')
    return setQuery(cleared, cleared.query + keypress.text);
  // Keys that are not the help's own leave it open: its hint line says how to scroll and close it.
  if (mode === 'help') return cleared;
  return cleared;
}

export function treeReducer(state: TreeState, action: TreeAction): TreeState {
  switch (action.type) {
    case 'key':
      return onKey(state, action, action.nowMs);
    case 'resize': {
      const listHeight = Math.max(1, action.listHeight);
      const width = Math.max(10, action.width);
      if (listHeight === state.listHeight && width === state.width) return state;
      const resized = { ...state, listHeight, width };
      const offset = clampOffset(state.offset, state.cursor, listHeight, state.layout.count);
      const detail = detailOf(state);
      if (detail && width !== state.width)
        return {
          ...resized,
          offset,
          mode: { kind: 'detail', detail: { ...detail, lines: wrapDetail(detail.source, width), scroll: 0 } },
        };
      return { ...resized, offset };
    }
    case 'reload': {
      const next = recompute(state, { index: action.index });
      return action.message ? withStatus(next, { text: action.message, tone: 'info' }) : next;
    }
    case 'menu':
      return chooseMenuAction(state, action.action);
    case 'forkMenu':
      return chooseForkAction(state, action.action);
    case 'cancel':
      return { ...state, mode: BROWSE };
    case 'input': {
      const mode = state.mode;
      if (mode.kind === 'export' && action.action.type === 'insert')
        return exportKey(state, undefined, action.action.text);
      if (mode.kind !== 'labelInput' && mode.kind !== 'summaryInput') return state;
      const input = textInputReducer(mode.input, action.action);
      return input === mode.input ? state : { ...state, mode: { ...mode, input } };
    }
    case 'submit':
      if (state.mode.kind === 'labelInput') return submitLabel(state, state.mode.input.value);
      if (state.mode.kind === 'summaryInput') return submitSummary(state, state.mode.input.value);
      return state;
    case 'submitLabel':
      return submitLabel(state, action.value);
    case 'submitSummary':
      return submitSummary(state, action.value);
    case 'effectsTaken': {
      const effects = state.effects.filter((effect) => effect.id > action.upTo);
      return effects.length === state.effects.length ? state : { ...state, effects };
    }
    case 'branched':
      return branched(ownChange(state, action.changeId), action.leafId, action.entryId, action.editorText);
    case 'labeled':
      return {
        ...ownChange(state, action.changeId),
        busy: false,
        status: { text: action.label === '' ? 'Label cleared' : `Labeled [${action.label}]`, tone: 'success' },
      };
    case 'forked':
      return forked(ownChange(state, action.changeId), action.path, action.editorText);
    case 'copied':
      // The effect says how the text left (a clipboard tool, tmux's buffer, or OSC 52) and claims
      // no more than it can know.
      return withStatus(state, { text: action.message, tone: 'success' });
    case 'failed':
      // A failed open-in-pi leaves the screen where it was: it takes keys again.
      return {
        ...state,
        ...(state.mode.kind === 'undoConfirm' ? { mode: BROWSE } : {}),
        busy: false,
        leaving: false,
        status: { text: action.message, tone: 'error' },
      };
    case 'status':
      return withStatus(state, action.status);
    case 'undoStep':
      return undoStepped(state, action.step, action.nowMs);
    case 'redoStep':
      return redoStepped(state, action.step, action.nowMs);
    case 'openChecked':
      return openChecked(state, action);
    case 'parent':
      return { ...state, parent: action.parent };
    case 'exported':
    case 'exportStopped':
    case 'exportFailed':
      return exportOutcome(state, action);
  }
}
