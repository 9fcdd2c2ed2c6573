/**
 * Ctrl+Z in the picker: the journal's latest change (rename, label, branch, fork,
 * delete, slim; made in this run or an earlier one) through the screen's `undo` effect. A change pi
 * has written after is asked about first (mode `undoConfirm`: y/Enter undo anyway, n/Esc keep).
 * Once undone, the scope is listed again: an undo may bring a session back or take one away.
 */
import { UNDO_KEPT, UNDOING, undoReply } from '../state/journal-undo.js';
import type { UndoStep } from '../store/undo.js';
import type { PickerCommand } from './keymap.js';
import { type PickerMode, type PickerState, relayout, withEffect, withStatus } from './state.js';

export function startUndo(state: PickerState): PickerState {
  if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
  return withStatus(withEffect({ ...state, busy: true }, { kind: 'undo' }), UNDOING);
}

/** The question's keys; every other key is swallowed (a stray keystroke must not undo anything). */
export function undoQuestionCommand(
  state: PickerState,
  mode: Extract<PickerMode, { kind: 'undoConfirm' }>,
  command: PickerCommand | undefined,
): PickerState {
  if (command === 'cancel') return relayout({ ...withStatus(state, UNDO_KEPT), mode: { kind: 'browse' } });
  if (command !== 'confirm' && command !== 'confirmYes') return state;
  const next = relayout({ ...state, mode: { kind: 'browse' }, busy: true });
  return withStatus(withEffect(next, { kind: 'undo', confirmed: mode.question.id }), UNDOING);
}

export function undoStepped(state: PickerState, step: UndoStep): PickerState {
  const reply = undoReply(step);
  const idle = { ...state, busy: false };
  if (reply.kind === 'ask') {
    const asking = relayout({ ...idle, mode: { kind: 'undoConfirm', question: reply.question } });
    return reply.warning ? withStatus(asking, reply.warning, 'error') : { ...asking, status: undefined };
  }
  const shown = withStatus(idle, reply.text, reply.tone === 'error' ? 'error' : 'info');
  if (step.kind !== 'done') return shown;
  // Other scopes are listed again when next shown; this one now (its rows stay until the new list arrives).
  const current = state.lists[state.scope];
  return withEffect(
    { ...shown, lists: current ? { [state.scope]: current } : {} },
    { kind: 'load', scope: state.scope },
  );
}
