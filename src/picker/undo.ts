/**
 * Ctrl+Z (undo) and Ctrl+Y (redo) in the picker: the journal's latest change (rename, label,
 * branch, fork, delete, slim; any session, made in this run or days ago) through the screen's
 * `undo` / `redo` effects. The store is asked first what it would do; the picker then asks the
 * user (mode `undoConfirm`: the change, the session, its project and when; y/Enter do it, n/Esc
 * keep it, `s` skips a change that cannot be undone), unless this screen made that change a
 * moment ago. Once done, the scope is listed again: an undo may bring a session back or take one
 * away.
 */
import {
  questionChoices,
  REDO_KEPT,
  REDOING,
  redoReply,
  UNDO_KEPT,
  UNDOING,
  type UndoReply,
  undoReply,
  withOwnChanges,
} from '../state/journal-undo.js';
import type { RedoStep, UndoStep } from '../store/index.js';
import type { PickerCommand } from './keymap.js';
import type { PickerMode } from './mode.js';
import { type PickerState, relayout, withEffect, withStatus } from './state.js';

const BUSY = 'Please wait: the last change is still being saved';

/** Ctrl+Z / Ctrl+Y: the store is asked what it would do; the question shows "Looking…" meanwhile. */
function startLook(state: PickerState, action: 'undo' | 'redo'): PickerState {
  if (state.busy) return withStatus(state, BUSY, 'error');
  const looking = relayout({ ...state, busy: true, mode: { kind: 'undoConfirm', action, question: null } });
  const request = { look: true as const, own: state.ownChanges };
  // The dialog says it is looking; "Undoing…" waits until something is undone.
  const quiet = { ...looking, status: undefined };
  return action === 'undo'
    ? withEffect(quiet, { kind: 'undo', request })
    : withEffect(quiet, { kind: 'redo', request });
}

export function startUndo(state: PickerState): PickerState {
  return startLook(state, 'undo');
}

export function startRedo(state: PickerState): PickerState {
  return startLook(state, 'redo');
}

/** The picker's keys for a question's choices (for its prompt line); while looking, only Esc. */
export function pickerQuestionChoices(mode: Extract<PickerMode, { kind: 'undoConfirm' }>): [PickerCommand, string][] {
  if (mode.question === null) return [['cancel', 'cancel']];
  return questionChoices<PickerCommand>(mode.question, {
    yes: 'confirmYes',
    enter: 'confirm',
    skip: 'skip',
    no: 'cancel',
  });
}

/** The question's keys; every other key is swallowed (a stray keystroke must not undo anything). */
export function undoQuestionCommand(
  state: PickerState,
  mode: Extract<PickerMode, { kind: 'undoConfirm' }>,
  command: PickerCommand | undefined,
): PickerState {
  const { question } = mode;
  const browse = (s: PickerState): PickerState => relayout({ ...s, mode: { kind: 'browse' } });
  if (command === 'cancel') return browse(withStatus(state, mode.action === 'undo' ? UNDO_KEPT : REDO_KEPT, 'neutral'));
  // Still looking: what was pressed before the question was shown answers nothing.
  if (question === null) return state;
  if (command === 'skip' && question.kind === 'blocked' && question.action === 'undo')
    return withStatus(
      withEffect(browse({ ...state, busy: true }), { kind: 'undo', request: { skip: question.id } }),
      UNDOING,
    );
  if ((command !== 'confirm' && command !== 'confirmYes') || question.kind === 'blocked') return state;
  const force = question.kind === 'changed';
  const next = browse({ ...state, busy: true });
  return question.action === 'undo'
    ? withStatus(withEffect(next, { kind: 'undo', request: { id: question.id, force } }), UNDOING)
    : withStatus(withEffect(next, { kind: 'redo', request: { id: question.id, force } }), REDOING);
}

function replied(state: PickerState, reply: UndoReply): PickerState {
  const looking = state.mode.kind === 'undoConfirm' && state.mode.question === null;
  const idle = looking ? relayout({ ...state, busy: false, mode: { kind: 'browse' } }) : { ...state, busy: false };
  if (reply.kind === 'ask') {
    // Esc while looking: the user does not want the question any more.
    if (!looking) return idle;
    const asking = relayout({
      ...idle,
      mode: { kind: 'undoConfirm', action: reply.question.action, question: reply.question },
    });
    return reply.warning ? withStatus(asking, reply.warning, 'error') : { ...asking, status: undefined };
  }
  const shown = withStatus(
    { ...idle, ownChanges: withOwnChanges(state.ownChanges, reply.own) },
    reply.text,
    reply.tone === 'error' ? 'error' : 'info',
  );
  if (!reply.changed) return shown;
  // Other scopes are listed again when next shown; this one now (its rows stay until the new list arrives).
  const current = state.lists[state.scope];
  return withEffect(
    { ...shown, lists: current ? { [state.scope]: current } : {} },
    { kind: 'load', scope: state.scope },
  );
}

export function undoStepped(state: PickerState, step: UndoStep, nowMs: number): PickerState {
  return replied(state, undoReply(step, nowMs));
}

export function redoStepped(state: PickerState, step: RedoStep, nowMs: number): PickerState {
  return replied(state, redoReply(step, nowMs));
}
