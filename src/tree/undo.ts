/**
 * Ctrl+Z (undo) and Ctrl+Y (redo) in the tree: the journal's latest change, whatever session it
 * was made to, through the screen's `undo` / `redo` effects. The store is asked first what it
 * would do, and the tree asks the user (mode `undo-confirm`: y/Enter do it, n/Esc keep it, `s`
 * skips a change that cannot be undone) unless this screen made the change a moment ago. The
 * texts are shared with the picker (journal-undo.ts).
 */
import {
  questionChoices,
  REDO_KEPT,
  REDOING,
  redoReply,
  UNDO_KEPT,
  UNDOING,
  type UndoQuestion,
  type UndoReply,
  undoReply,
  withOwnChanges,
} from '../state/journal-undo.js';
import type { RedoStep, UndoStep } from '../store/index.js';
import type { TreeCommand } from './keymap.js';
import { BROWSE, queue, type TreeState } from './state.js';

const BUSY = 'Please wait: the last change is still being saved';

/** Ctrl+Z / Ctrl+Y: the store is asked what it would do; the question box says "Looking…" meanwhile. */
function startLook(state: TreeState, action: 'undo' | 'redo'): TreeState {
  if (state.busy) return { ...state, status: { text: BUSY, tone: 'error' } };
  const looking: TreeState = {
    ...state,
    busy: true,
    mode: { kind: 'undoConfirm', action, question: null },
    status: null,
  };
  const request = { look: true as const, own: state.ownChanges };
  return action === 'undo' ? queue(looking, { kind: 'undo', request }) : queue(looking, { kind: 'redo', request });
}

export function startUndo(state: TreeState): TreeState {
  return startLook(state, 'undo');
}

export function startRedo(state: TreeState): TreeState {
  return startLook(state, 'redo');
}

/** A change this screen made: remembered by its journal id, so undoing it a moment later needs no question. */
export function ownChange(state: TreeState, changeId: string | undefined): TreeState {
  return changeId === undefined ? state : { ...state, ownChanges: withOwnChanges(state.ownChanges, [changeId]) };
}

/** The tree's keys for a question's choices (for the question box). */
export function treeQuestionChoices(question: UndoQuestion): [TreeCommand, string][] {
  return questionChoices<TreeCommand>(question, {
    yes: 'answerYes',
    enter: 'answerYes',
    skip: 'skip',
    no: 'keep',
  }).filter((choice, i, all) => all.findIndex((c) => c[0] === choice[0]) === i);
}

/** The question's keys; every other key is swallowed (a stray keystroke must not undo anything). */
export function onUndoQuestionKey(state: TreeState, command: TreeCommand | undefined): TreeState {
  if (state.mode.kind !== 'undoConfirm') return state;
  const { question, action } = state.mode;
  const closed: TreeState = { ...state, mode: BROWSE };
  if (command === 'keep')
    return { ...closed, status: { text: action === 'redo' ? REDO_KEPT : UNDO_KEPT, tone: 'info' } };
  // Still looking: what was pressed before the question was shown answers nothing.
  if (!question) return state;
  if (command === 'skip' && question.kind === 'blocked' && question.action === 'undo')
    return queue(
      { ...closed, busy: true, status: { text: UNDOING, tone: 'info' } },
      { kind: 'undo', request: { skip: question.id } },
    );
  if (command !== 'answerYes' || question.kind === 'blocked') return state;
  const force = question.kind === 'changed';
  return question.action === 'undo'
    ? queue(
        { ...closed, busy: true, status: { text: UNDOING, tone: 'info' } },
        { kind: 'undo', request: { id: question.id, force } },
      )
    : queue(
        { ...closed, busy: true, status: { text: REDOING, tone: 'info' } },
        { kind: 'redo', request: { id: question.id, force } },
      );
}

function replied(state: TreeState, reply: UndoReply): TreeState {
  const mode = state.mode;
  const looking = mode.kind === 'undoConfirm' && mode.question === null;
  const idle: TreeState = looking ? { ...state, busy: false, mode: BROWSE } : { ...state, busy: false };
  if (reply.kind === 'ask') {
    // Esc while looking: the user does not want the question any more.
    if (!looking) return idle;
    return {
      ...idle,
      mode: { kind: 'undoConfirm', action: mode.action, question: reply.question },
      status: reply.warning ? { text: reply.warning, tone: 'error' } : null,
    };
  }
  return {
    ...idle,
    ownChanges: withOwnChanges(state.ownChanges, reply.own),
    status: { text: reply.text, tone: reply.tone },
  };
}

export function undoStepped(state: TreeState, step: UndoStep, nowMs: number): TreeState {
  return replied(state, undoReply(step, nowMs));
}

export function redoStepped(state: TreeState, step: RedoStep, nowMs: number): TreeState {
  return replied(state, redoReply(step, nowMs));
}
