/**
 * Enter in the list, as pi's /resume: pi runs on the session in the session's own folder. The
 * folder is checked first (an effect, `checkResume`); when it is gone the picker asks pi's
 * question (src/state/missing-cwd.ts) instead of starting pi in a folder that does not exist.
 * In `--print` mode (and inside pi, whose extension runs the picker that way) Enter prints the
 * path: the caller switches to it, and pi asks its own question there if it must.
 */
import { chosenValue, moveMenu } from '../state/menu.js';
import { missingCwdQuestion } from '../state/missing-cwd.js';
import { mapPath } from '../store/index.js';
import type { PickerAction } from './actions.js';
import type { PickerCommand } from './keymap.js';
import type { PickerMode } from './mode.js';
import type { Row } from './sort.js';
import { type PickerState, relayout, withEffect, withStatus } from './state.js';

/**
 * Enter: the file and its folder are checked first (`checkResume`; a file gone since the list was
 * drawn comes back as `sessionGone`), so pi never starts a new, empty session on a missing path
 * and `--print` never prints one.
 */
export function startResume(state: PickerState, row: Row): PickerState {
  // A folder recorded on another machine is checked, and pi started, where the path map puts it.
  return withEffect(state, { kind: 'checkResume', path: row.info.path, cwd: mapPath(state.pathMap, row.info.cwd) });
}

export function onResumeChecked(
  state: PickerState,
  action: Extract<PickerAction, { type: 'resumeChecked' }>,
): PickerState {
  // The caller of --print opens the session, and asks about a missing folder there itself.
  if (state.printMode) return withEffect(state, { kind: 'exit', exit: { kind: 'print', path: action.path } });
  if (action.cwdExists)
    return withEffect(state, { kind: 'exit', exit: { kind: 'resume', path: action.path, cwd: action.cwd } });
  // The check held the keys back (`leaving`); the question takes them again.
  return relayout({
    ...state,
    leaving: false,
    mode: { kind: 'missingCwd', path: action.path, question: missingCwdQuestion(action.cwd, action.here) },
  });
}

export function missingCwdCommand(
  state: PickerState,
  mode: Extract<PickerMode, { kind: 'missingCwd' }>,
  command: PickerCommand | undefined,
): PickerState {
  const { question } = mode;
  switch (command) {
    case 'up':
    case 'down': {
      const menu = moveMenu(question.menu, command === 'up' ? -1 : 1);
      return menu === question.menu ? state : { ...state, mode: { ...mode, question: { ...question, menu } } };
    }
    case 'cancel':
      return withStatus(relayout({ ...state, mode: { kind: 'browse' } }), 'Resume cancelled', 'neutral');
    case 'choose': {
      const choice = chosenValue(question.menu);
      if (choice === 'cancel' || choice === undefined) return missingCwdCommand(state, mode, 'cancel');
      const browse = relayout({ ...state, mode: { kind: 'browse' } });
      return withEffect(browse, {
        kind: 'exit',
        exit: { kind: 'resume', path: mode.path, cwd: question.here, ...(choice === 'fork' ? { fork: true } : {}) },
      });
    }
    default:
      // Every other key is swallowed, as in the delete prompts.
      return state;
  }
}
