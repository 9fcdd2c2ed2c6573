/**
 * The tree's effects that write through the store (label, resume from here, fork, undo): each
 * outcome goes back to the reducer as an action; a change made but not journalled (so it cannot
 * be undone) is said in the status line, not swallowed. Failures are the caller's (one line).
 */
import type { TreeAction, TreeEffect } from '../../src/tree/reducer.js';
import type { TreeStore } from './TreeScreen.js';

export type TreeWrite = Extract<TreeEffect, { kind: 'label' | 'branch' | 'branch-summary' | 'fork' | 'undo' }>;

export interface TreeWriteContext {
  store: TreeStore;
  path: string;
  dispatch(action: TreeAction): void;
  /** Picks up what the write appended (the live watcher), so the tree shows it at once. */
  pollLive(): Promise<void>;
}

function warnJournal(result: unknown, dispatch: (action: TreeAction) => void): void {
  const warning =
    typeof result === 'object' && result !== null ? (result as { journalWarning?: unknown }).journalWarning : undefined;
  if (typeof warning === 'string') dispatch({ type: 'status', status: { text: warning, tone: 'error' } });
}

export async function runTreeWrite(
  effect: TreeWrite,
  { store, path, dispatch, pollLive }: TreeWriteContext,
): Promise<void> {
  switch (effect.kind) {
    case 'label': {
      const result = await store.setLabel(path, effect.id, effect.label === '' ? undefined : effect.label);
      dispatch({ type: 'labeled', label: effect.label });
      warnJournal(result, dispatch);
      await pollLive();
      return;
    }
    case 'branch':
    case 'branch-summary': {
      const result = await store.branchInPlace(
        path,
        effect.id,
        effect.kind === 'branch' ? {} : { summary: effect.summary },
      );
      dispatch({
        type: 'branched',
        leafId: result.leafId,
        ...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
      });
      warnJournal(result, dispatch);
      await pollLive();
      return;
    }
    case 'fork': {
      const result = await store.forkSession(path, effect.id);
      dispatch({
        type: 'forked',
        path: result.path,
        ...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
      });
      warnJournal(result, dispatch);
      return;
    }
    case 'undo': {
      const step = await store.undoStep(effect.confirmed !== undefined ? { confirmed: effect.confirmed } : {});
      dispatch({ type: 'undoStep', step });
      // An undo of this session appended to it: the live watcher shows it at once.
      if (step.kind === 'done') await pollLive();
      return;
    }
  }
}
