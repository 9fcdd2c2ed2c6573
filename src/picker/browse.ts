/**
 * The list's commands (browse mode): moving, scope/sort/filter toggles, and the keys that start a
 * rename, a delete prompt, an open or an exit.
 */
import { plural } from '../format.js';
import { keyPrompt } from '../keymap/keymap.js';
import { initialTextInput } from '../state/text-input.js';
import { textEditOf } from '../state/text-input-keys.js';
import { isListMove, listMoveTarget } from '../state/viewport.js';
import type { SessionInfo } from '../store/index.js';
import { startMerge } from './conflict-merge.js';
import { startExport } from './export.js';
import type { PickerCommand } from './keymap.js';
import { isLive } from './layout.js';
import type { ParsedQuery } from './query.js';
import { startResume } from './resume.js';
import { derive, setQuery, settled } from './rows.js';
import { startSlim } from './slim.js';
import { nextSortMode, type Row } from './sort.js';
import {
  currentList,
  type EffectBody,
  findInfo,
  moveTo,
  type PickerExit,
  type PickerState,
  relayout,
  SCOPES,
  selectedRow,
  withEffect,
  withStatus,
} from './state.js';
import { hitFocus } from './text-hit-places.js';
import { startRedo, startUndo } from './undo.js';

const CURRENT_KEPT = 'the session pi is in cannot be deleted from here';

/** The delete prompt for `paths`; the session pi is in (`--current`) is left out, with a status line saying so. */
function startDelete(state: PickerState, paths: string[], nowMs: number): PickerState {
  const withoutCurrent = paths.filter((p) => p !== state.current);
  const skipped = withoutCurrent.length < paths.length;
  if (skipped && withoutCurrent.length === 0) return withStatus(state, `Not deleted: ${CURRENT_KEPT}`, 'error');
  const infos = withoutCurrent.map((p) => findInfo(state, p)).filter((i): i is SessionInfo => i !== undefined);
  if (infos.length === 0) return state;
  const needsYes = infos.some((i) => isLive(i, nowMs));
  const next = relayout({
    ...state,
    mode: { kind: 'confirm', paths: infos.map((i) => i.path), permanent: false, needsYes },
  });
  return skipped ? withStatus(next, `Skipped the current session (${CURRENT_KEPT})`) : next;
}

export function exitWith(state: PickerState, exit: PickerExit): PickerState {
  return withEffect(state, { kind: 'exit', exit });
}

// ---------------------------------------------------------------------------------------------
// Commands

export function browseCommand(given: PickerState, command: PickerCommand, nowMs: number): PickerState {
  // A key that acts on the rows (a move, Enter, a mark, a delete) acts on the typed query's rows,
  // never on the rows of the query before that are still on the screen: its search runs first.
  const state = textEditOf(command) !== undefined || command === 'escape' ? given : settled(given);
  if (isListMove(command))
    return moveTo(state, listMoveTarget(command, state.cursor, state.listLines, state.rows.length));
  const row = selectedRow(state);
  switch (command) {
    case 'open':
      // Inside pi (`--current`) one session is switched to, so the marks are for deleting there.
      if (state.printMode && state.marks.size > 0 && state.current === undefined)
        return exitWith(state, { kind: 'printMarked', paths: [...state.marks] });
      return row ? startResume(state, row) : state;
    case 'tree':
      // → opens the tree only from the end of the search text; before it, it moves the text cursor.
      if (state.query.cursor < state.query.value.length) return setQuery(state, { type: 'right' }, nowMs);
      return row ? withEffect(state, openEffect(row, state.parsed)) : state;
    case 'labels':
      return withEffect(state, { kind: 'labels', sessions: currentList(state)?.sessions ?? [] });
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
      return relayout({
        ...state,
        mode: { kind: 'rename', path: row.info.path, input: initialTextInput(row.info.name ?? '', true) },
      });
    case 'delete':
      // Marks first (fzf's and lazygit's rule: a selection is what a command acts on).
      if (!row && state.marks.size === 0) return state;
      if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
      return startDelete(state, state.marks.size > 0 ? [...state.marks] : [row!.info.path], nowMs);
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
      const deleteHint = keyPrompt(state.bindings, 'browse', [['delete', 'deletes them']]);
      const text = allMarked
        ? `Unmarked ${plural(shown.length, 'session')}`
        : `Marked ${plural(shown.length, 'shown session')} (${marks.size} marked in all)${deleteHint ? ` · ${deleteHint}` : ''}`;
      return withStatus({ ...state, marks }, text);
    }
    case 'undo':
      return startUndo(state);
    case 'redo':
      return startRedo(state);
    case 'check':
      return withEffect(state, { kind: 'openCheck' });
    case 'slim':
      return row ? startSlim(state, row.info.path) : state;
    case 'merge':
      return row ? startMerge(state, row.info.path) : state;
    case 'export':
      return row ? startExport(state, row.info.path) : state;
    case 'escape':
      if (state.query.value !== '' && state.query.value !== state.openedQuery)
        return setQuery(state, { type: 'clear' }, nowMs);
      return exitWith(state, { kind: 'quit', code: state.printMode ? 1 : 0 });
    default: {
      const edit = textEditOf(command);
      return edit ? setQuery(state, edit, nowMs) : state;
    }
  }
}

/** Opening the tree: on a full-text hit, focused on it. */
function openEffect(row: Row, query: ParsedQuery): EffectBody {
  const focus = hitFocus(row.info, row.textHit, query);
  return focus ? { kind: 'open', path: row.info.path, focus } : { kind: 'open', path: row.info.path };
}
