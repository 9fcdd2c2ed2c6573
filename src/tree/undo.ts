/**
 * Ctrl+Z in the tree: the journal's latest change, whatever session it was made to,
 * through the screen's `undo` effect; a change pi has written after is asked about first
 * (mode `undo-confirm`, y/Enter or n/Esc). The texts are shared with the picker (journal-undo.ts).
 */
import { UNDO_KEPT, UNDOING, undoReply } from '../state/journal-undo.js';
import type { UndoStep } from '../store/undo.js';
import type { TreeCommand } from './keymap.js';
import { queue, type TreeState } from './state.js';

const BUSY = 'Please wait: the last change is still being saved';

export function startUndo(state: TreeState): TreeState {
  if (state.busy) return { ...state, status: { text: BUSY, tone: 'error' } };
  return queue({ ...state, busy: true, status: { text: UNDOING, tone: 'info' } }, { kind: 'undo' });
}

/** The question's keys; every other key is swallowed (a stray keystroke must not undo anything). */
export function onUndoQuestionKey(state: TreeState, command: TreeCommand | undefined): TreeState {
  const question = state.undoQuestion;
  if (command === 'keep' || !question)
    return { ...state, mode: 'browse', undoQuestion: null, status: { text: UNDO_KEPT, tone: 'info' } };
  if (command !== 'undoAnyway') return state;
  return queue(
    { ...state, mode: 'browse', undoQuestion: null, busy: true, status: { text: UNDOING, tone: 'info' } },
    { kind: 'undo', confirmed: question.id },
  );
}

export function undoStepped(state: TreeState, step: UndoStep): TreeState {
  const reply = undoReply(step);
  const idle = { ...state, busy: false };
  if (reply.kind === 'ask')
    return {
      ...idle,
      mode: 'undo-confirm',
      undoQuestion: reply.question,
      status: reply.warning ? { text: reply.warning, tone: 'error' } : null,
    };
  return { ...idle, status: { text: reply.text, tone: reply.tone } };
}
