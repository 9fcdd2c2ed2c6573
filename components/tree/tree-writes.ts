/**
 * The tree's effects that write through the store (label, resume from here, fork, undo): each
 * outcome goes back to the reducer as an action; a change made but not journalled (so it cannot
 * be undone) is said in the status line, not swallowed. Failures are the caller's (one line).
 */

import type { UndoScope } from '../../src/store/index.js';
import type { TreeAction, TreeEffect } from '../../src/tree/state.js';
import type { TreeStore } from '../../src/tree/tree-store.js';

export type TreeWrite = Extract<TreeEffect, { kind: 'label' | 'branch' | 'branchSummary' | 'fork' | 'undo' | 'redo' }>;

export interface TreeWriteContext {
  store: TreeStore;
  path: string;
  dispatch(action: TreeAction): void;
  /** Picks up what the write appended (the live watcher), so the tree shows it at once. */
  pollLive(): Promise<void>;
  /** The sessions folders undo and redo may touch. */
  scope(): UndoScope;
  now(): number;
}

/** The journal record id a write returned (this screen's own change), when it says one. */
function changeIdOf(result: unknown): { changeId?: string } {
  const id = typeof result === 'object' && result !== null ? (result as { changeId?: unknown }).changeId : undefined;
  return typeof id === 'string' ? { changeId: id } : {};
}

function warnJournal(result: unknown, dispatch: (action: TreeAction) => void): void {
  const warning =
    typeof result === 'object' && result !== null ? (result as { journalWarning?: unknown }).journalWarning : undefined;
  if (typeof warning === 'string') dispatch({ type: 'status', status: { text: warning, tone: 'error' } });
}

export async function runTreeWrite(
  effect: TreeWrite,
  { store, path, dispatch, pollLive, scope, now }: TreeWriteContext,
): Promise<void> {
  switch (effect.kind) {
    case 'label': {
      const result = await store.setLabel(path, effect.entryId, effect.label === '' ? undefined : effect.label);
      dispatch({ type: 'labeled', label: effect.label, ...changeIdOf(result) });
      warnJournal(result, dispatch);
      await pollLive();
      return;
    }
    case 'branch':
    case 'branchSummary': {
      const result = await store.branchInPlace(
        path,
        effect.entryId,
        effect.kind === 'branch' ? {} : { summary: effect.summary },
      );
      dispatch({
        type: 'branched',
        leafId: result.leafId,
        ...(result.entryId !== undefined ? { entryId: result.entryId } : {}),
        ...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
        ...changeIdOf(result),
      });
      warnJournal(result, dispatch);
      await pollLive();
      return;
    }
    case 'fork': {
      const result = await store.forkSession(path, effect.entryId);
      dispatch({
        type: 'forked',
        path: result.path,
        ...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
        ...changeIdOf(result),
      });
      warnJournal(result, dispatch);
      return;
    }
    case 'undo': {
      const step = await store.undoStep(scope(), effect.request);
      dispatch({ type: 'undoStep', step, nowMs: now() });
      // An undo of this session appended to it: the live watcher shows it at once.
      if (step.kind === 'done') await pollLive();
      return;
    }
    case 'redo': {
      const step = await store.redoStep(scope(), effect.request);
      dispatch({ type: 'redoStep', step, nowMs: now() });
      if (step.kind === 'done') await pollLive();
      return;
    }
  }
}
