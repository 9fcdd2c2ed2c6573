/**
 * Results of the effects the screen ran (rename, trash) folded back into the state: rows updated
 * or removed, and a status line saying what happened (undo's results: undo.ts).
 */
import { plural } from '../format.js';
import { keyPrompt } from '../keymap/keymap.js';
import { withOwnChanges } from '../state/journal-undo.js';
import { goneMessage } from '../state/session-gone.js';
import type { PickerAction } from './actions.js';
import type { PickerMode } from './mode.js';
import { derive, updateInfos } from './rows.js';
import { type PickerState, relayout, withEffect, withStatus } from './state.js';

export type OutcomeAction = Extract<
  PickerAction,
  { type: 'renamed' | 'renameFailed' | 'trashed' | 'trashFailed' | 'sessionGone' }
>;

/** The rows of `paths` dropped (and their marks), the cursor on the row that took the first one's place. */
function withoutRows(state: PickerState, paths: readonly string[]): PickerState {
  let next = state;
  const marks = new Set(state.marks);
  for (const path of paths) {
    next = updateInfos(next, path, () => undefined);
    marks.delete(path);
  }
  const removed = new Set(paths);
  const survivor =
    state.rows.slice(state.cursor).find((r) => !removed.has(r.info.path)) ??
    [...state.rows].reverse().find((r) => !removed.has(r.info.path));
  return derive({ ...next, marks, cursorPath: survivor?.info.path ?? next.cursorPath, followTop: false });
}

/** Whether a dialog is about one of `paths` (it has nothing left to act on). */
function modeIsAbout(mode: PickerMode, paths: ReadonlySet<string>): boolean {
  switch (mode.kind) {
    case 'rename':
    case 'slimConfirm':
    case 'mergeConfirm':
    case 'missingCwd':
    case 'export':
      return paths.has(mode.path);
    case 'confirm':
      return mode.paths.some((p) => paths.has(p));
    default:
      return false;
  }
}

/**
 * Sessions whose files are gone: said in one line, their rows dropped, any dialog about them
 * closed, and the scope listed again (whatever else changed on disk shows too).
 */
function sessionsGone(state: PickerState, paths: readonly string[]): PickerState {
  const closing = modeIsAbout(state.mode, new Set(paths));
  const next = withoutRows(
    { ...state, busy: false, leaving: false, ...(closing ? { mode: { kind: 'browse' } as const } : {}) },
    paths,
  );
  return withEffect(withStatus(relayout(next), goneMessage(paths, state.size.columns), 'error'), {
    kind: 'load',
    scope: state.scope,
  });
}

const TRASH_FAILURE = 'could not move to the trash';

export function outcomeReducer(state: PickerState, action: OutcomeAction): PickerState {
  switch (action.type) {
    case 'renamed': {
      const next = updateInfos(
        { ...state, busy: false, ownChanges: withOwnChanges(state.ownChanges, [action.changeId]) },
        action.path,
        (info) => ({ ...info, name: action.name }),
      );
      const done = action.name === undefined ? 'Name cleared' : 'Renamed';
      return action.journalWarning
        ? withStatus(derive(next), `${done}; warning: ${action.journalWarning}`, 'error')
        : withStatus(derive(next), done);
    }
    case 'renameFailed': {
      const next = updateInfos({ ...state, busy: false }, action.path, (info) => ({ ...info, name: action.previous }));
      return withStatus(derive(next), `Rename failed: ${action.error}`, 'error');
    }
    case 'sessionGone':
      return sessionsGone(state, action.paths);
    case 'trashed': {
      const { trashed, failed } = action.outcome;
      const gone = action.gone ?? [];
      // The cursor moves to the row that took the deleted one's place; rows already gone go too.
      const next = withoutRows(
        { ...state, busy: false, ownChanges: withOwnChanges(state.ownChanges, action.outcome.changeIds) },
        [...trashed.map((t) => t.path), ...gone],
      );
      if (gone.length > 0 && trashed.length === 0 && failed.length === 0) return sessionsGone(next, gone);
      const goneNote =
        gone.length > 0
          ? `; ${plural(gone.length, 'other')} ${gone.length > 1 ? 'were' : 'was'} deleted or moved since the list was drawn`
          : '';
      const trashFailures = failed.filter((f) => f.trashUnavailable === true);
      if (!action.permanent && trashFailures.length > 0) {
        const problem = trashFailures[0]?.error ?? TRASH_FAILURE;
        const prefix = trashed.length > 0 ? `Moved ${plural(trashed.length, 'session')} to the trash; ` : '';
        return withStatus(
          relayout({
            ...next,
            mode: {
              kind: 'confirm',
              paths: trashFailures.map((f) => f.path),
              permanent: true,
              needsYes: true,
              trashProblem: problem,
            },
          }),
          `${prefix}the trash is unavailable for ${plural(trashFailures.length, 'session')}`,
          'error',
        );
      }
      const other = failed.filter((f) => action.permanent || f.trashUnavailable !== true);
      if (other.length > 0) {
        return withStatus(
          next,
          `Could not delete ${plural(other.length, 'session')}: ${other[0]?.error ?? ''}`,
          'error',
        );
      }
      const warning = action.outcome.journalWarning;
      if (action.permanent)
        return withStatus(
          next,
          `Deleted ${plural(trashed.length, 'session')} permanently (cannot be undone)${goneNote}`,
        );
      if (warning)
        return withStatus(
          next,
          `Moved ${plural(trashed.length, 'session')} to the trash${goneNote}; warning: ${warning}`,
          'error',
        );
      const undoHint = keyPrompt(state.bindings, 'browse', [['undo', 'undoes']]);
      return withStatus(
        next,
        `Moved ${plural(trashed.length, 'session')} to the trash${goneNote}${undoHint ? ` · ${undoHint}` : ''}`,
      );
    }
    case 'trashFailed':
      return withStatus({ ...state, busy: false }, `Delete failed: ${action.error}`, 'error');
  }
}
