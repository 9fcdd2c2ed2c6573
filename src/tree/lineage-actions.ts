/**
 * The tree's lineage moves (pure): Enter on a fork row opens that session's tree, `P` in a fork
 * opens its parent's tree on the fork point (hit-focus.ts `entryFocus` starts it there).
 */
import { queue, selectedRow, type TreeState, withStatus } from './state.js';

/** Enter on a fork row: that session's tree (Esc returns here); undefined on any other row. */
export function openForkRow(state: TreeState): TreeState | undefined {
  const fork = selectedRow(state)?.fork;
  return fork === undefined ? undefined : queue(state, { kind: 'openSession', path: fork.path });
}

export const FORK_ROW_NOTE = 'A ⑂ fork row is another session: Enter opens its tree';

export function openParent(state: TreeState): TreeState {
  const parent = state.parent;
  if (parent === undefined)
    return withStatus(state, { text: 'This session is not a fork of a session in the catalogue', tone: 'info' });
  return queue(state, {
    kind: 'openSession',
    path: parent.path,
    ...(parent.entryId !== null ? { focusId: parent.entryId } : {}),
  });
}
