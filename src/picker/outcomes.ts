/**
 * Results of the effects the screen ran (rename, trash) folded back into the state: rows updated
 * or removed, and a status line saying what happened (undo's results: undo.ts).
 */
import { plural } from '../format.js';
import { keyPrompt } from '../keymap/keymap.js';
import { withOwnChanges } from '../state/journal-undo.js';
import { derive, type PickerAction, type PickerState, relayout, updateInfos, withStatus } from './state.js';

export type OutcomeAction = Extract<PickerAction, { type: 'renamed' | 'renameFailed' | 'trashed' | 'trashFailed' }>;

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
    case 'trashed': {
      const { trashed, failed } = action.outcome;
      let next: PickerState = {
        ...state,
        busy: false,
        ownChanges: withOwnChanges(state.ownChanges, action.outcome.changeIds),
      };
      const marks = new Set(state.marks);
      for (const item of trashed) {
        next = updateInfos(next, item.path, () => undefined);
        marks.delete(item.path);
      }
      // The cursor moves to the row that took the deleted one's place.
      const removed = new Set(trashed.map((t) => t.path));
      const survivor =
        state.rows.slice(state.cursor).find((r) => !removed.has(r.info.path)) ??
        [...state.rows].reverse().find((r) => !removed.has(r.info.path));
      next = derive({ ...next, marks, cursorPath: survivor?.info.path ?? next.cursorPath, followTop: false });
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
        return withStatus(next, `Deleted ${plural(trashed.length, 'session')} permanently (cannot be undone)`);
      if (warning)
        return withStatus(
          next,
          `Moved ${plural(trashed.length, 'session')} to the trash; warning: ${warning}`,
          'error',
        );
      const undoHint = keyPrompt(state.bindings, 'browse', [['undo', 'undoes']]);
      return withStatus(
        next,
        `Moved ${plural(trashed.length, 'session')} to the trash${undoHint ? ` · ${undoHint}` : ''}`,
      );
    }
    case 'trashFailed':
      return withStatus({ ...state, busy: false }, `Delete failed: ${action.error}`, 'error');
  }
}
