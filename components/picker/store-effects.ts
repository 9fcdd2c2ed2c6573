/**
 * The picker's effects that go to the store (rename, delete, undo, slim, merge): each is started here and
 * its result, or its failure as one line, comes back to the reducer as an action.
 */
import type { PickerAction, PickerEffect } from '../../src/picker/reducer.js';
import type { SessionSource } from '../../src/picker/session-source.js';
import { firstLineOf } from '../../src/store/index.js';

export type StoreEffect = Extract<
  PickerEffect,
  { kind: 'rename' | 'trash' | 'undo' | 'redo' | 'planSlim' | 'slim' | 'planMerge' | 'merge' }
>;

/** The listed files of `paths` that are gone (a source that cannot tell: none). */
export function gonePaths(source: SessionSource, paths: readonly string[]): string[] {
  return source.isGone ? paths.filter((path) => source.isGone!(path)) : [];
}

/**
 * Every store effect on a listed session first checks that its file is still there (a file gone
 * since the list was drawn is said as such, never as a write that failed), and checks again when
 * the store fails (it may have gone meanwhile).
 */
export function runStoreEffect(
  source: SessionSource,
  effect: StoreEffect,
  dispatch: (action: PickerAction) => void,
  now: () => number,
): void {
  const target = 'path' in effect ? [effect.path] : [];
  if (target.length > 0 && gonePaths(source, target).length > 0) {
    dispatch({ type: 'sessionGone', paths: target });
    return;
  }
  /** A failure's action, unless the file turned out to be gone. */
  const failed = (action: PickerAction): void =>
    dispatch(gonePaths(source, target).length > 0 ? { type: 'sessionGone', paths: target } : action);
  switch (effect.kind) {
    case 'rename':
      source
        .rename(effect.path, effect.name)
        .then(({ name, changeId, journalWarning }) =>
          dispatch({
            type: 'renamed',
            path: effect.path,
            name,
            ...(changeId ? { changeId } : {}),
            ...(journalWarning ? { journalWarning } : {}),
          }),
        )
        .catch((error: unknown) =>
          failed({
            type: 'renameFailed',
            path: effect.path,
            previous: effect.previous,
            error: firstLineOf(error),
          }),
        );
      return;
    case 'trash': {
      const gone = gonePaths(source, effect.paths);
      const there = effect.paths.filter((path) => !gone.includes(path));
      if (there.length === 0) {
        dispatch({ type: 'sessionGone', paths: gone });
        return;
      }
      source
        .trash(there, effect.permanent)
        .then((outcome) => {
          // A file that vanished between the check and the trash is gone too, not a failed delete.
          const vanished = outcome.failed.filter((f) => f.kept !== false && gonePaths(source, [f.path]).length > 0);
          const failures = outcome.failed.filter((f) => !vanished.includes(f));
          const allGone = [...gone, ...vanished.map((f) => f.path)];
          dispatch({
            type: 'trashed',
            outcome: { ...outcome, failed: failures },
            permanent: effect.permanent,
            ...(allGone.length > 0 ? { gone: allGone } : {}),
          });
        })
        .catch((error: unknown) => dispatch({ type: 'trashFailed', error: firstLineOf(error) }));
      return;
    }
    case 'undo':
      source
        .undoStep(effect.request)
        .then((step) => dispatch({ type: 'undoStep', step, nowMs: now() }))
        .catch((error: unknown) => dispatch({ type: 'undoFailed', error: firstLineOf(error), action: 'undo' }));
      return;
    case 'redo':
      source
        .redoStep(effect.request)
        .then((step) => dispatch({ type: 'redoStep', step, nowMs: now() }))
        .catch((error: unknown) => dispatch({ type: 'undoFailed', error: firstLineOf(error), action: 'redo' }));
      return;
    case 'planSlim':
      source
        .planSlim(effect.path)
        .then((plan) => dispatch({ type: 'slimPlanned', path: effect.path, plan, nowMs: now() }))
        .catch((error: unknown) => failed({ type: 'slimFailed', error: firstLineOf(error) }));
      return;
    case 'slim':
      source
        .slim(effect.path)
        .then((result) => dispatch({ type: 'slimmed', result }))
        .catch((error: unknown) => failed({ type: 'slimFailed', error: firstLineOf(error) }));
      return;
    case 'planMerge':
      if (!source.planMerge) {
        dispatch({ type: 'mergeFailed', error: 'this list cannot merge conflict copies' });
        return;
      }
      source
        .planMerge(effect.group)
        .then((plan) => dispatch({ type: 'mergePlanned', path: effect.path, plan, nowMs: now() }))
        .catch((error: unknown) => failed({ type: 'mergeFailed', error: firstLineOf(error) }));
      return;
    case 'merge':
      if (!source.merge) {
        dispatch({ type: 'mergeFailed', error: 'this list cannot merge conflict copies' });
        return;
      }
      source
        .merge(effect.group)
        .then((result) => dispatch({ type: 'merged', result }))
        .catch((error: unknown) => failed({ type: 'mergeFailed', error: firstLineOf(error) }));
      return;
  }
}
