/**
 * The picker's effects that go to the store (rename, delete, undo, slim): each is started here and
 * its result, or its failure as one line, comes back to the reducer as an action.
 */
import type { PickerAction, PickerEffect } from '../../src/picker/reducer.js';
import type { SessionSource } from '../../src/picker/session-source.js';

export type StoreEffect = Extract<PickerEffect, { kind: 'rename' | 'trash' | 'undo' | 'redo' | 'planSlim' | 'slim' }>;

/** An error's first line (library errors may carry more). */
export function errorText(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

export function runStoreEffect(
  source: SessionSource,
  effect: StoreEffect,
  dispatch: (action: PickerAction) => void,
  now: () => number,
): void {
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
          dispatch({ type: 'renameFailed', path: effect.path, previous: effect.previous, error: errorText(error) }),
        );
      return;
    case 'trash':
      source
        .trash(effect.paths, effect.permanent)
        .then((outcome) => dispatch({ type: 'trashed', outcome, permanent: effect.permanent }))
        .catch((error: unknown) => dispatch({ type: 'trashFailed', error: errorText(error) }));
      return;
    case 'undo':
      source
        .undoStep(effect.request)
        .then((step) => dispatch({ type: 'undoStep', step, nowMs: now() }))
        .catch((error: unknown) => dispatch({ type: 'undoFailed', error: errorText(error), action: 'undo' }));
      return;
    case 'redo':
      source
        .redoStep(effect.request)
        .then((step) => dispatch({ type: 'redoStep', step, nowMs: now() }))
        .catch((error: unknown) => dispatch({ type: 'undoFailed', error: errorText(error), action: 'redo' }));
      return;
    case 'planSlim':
      source
        .planSlim(effect.path)
        .then((plan) => dispatch({ type: 'slimPlanned', path: effect.path, plan, nowMs: now() }))
        .catch((error: unknown) => dispatch({ type: 'slimFailed', error: errorText(error) }));
      return;
    case 'slim':
      source
        .slim(effect.path)
        .then((result) => dispatch({ type: 'slimmed', result }))
        .catch((error: unknown) => dispatch({ type: 'slimFailed', error: errorText(error) }));
      return;
  }
}
