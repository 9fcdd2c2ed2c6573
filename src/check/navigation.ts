/**
 * The check view's moves (pure), shared by its keys (./reducer.ts) and the mouse (./mouse.ts):
 * the cursor to a file with its lines on screen, a scroll the cursor follows, and Enter's open.
 */
import { clampOffset } from '../state/viewport.js';
import type { CheckEffect, CheckState } from './state.js';

/** The offset that shows the selected file, its first line first when it does not fit. */
export function showCursor(state: CheckState): CheckState {
  const file = state.view.files[state.cursor];
  if (!file) return state;
  const count = state.view.lines.length;
  const offset = clampOffset(
    clampOffset(state.offset, file.last, state.height, count),
    file.first,
    state.height,
    count,
  );
  return offset === state.offset ? state : { ...state, offset };
}

export function moveTo(state: CheckState, cursor: number): CheckState {
  const files = state.view.files.length;
  if (files === 0) return state;
  const next = Math.max(0, Math.min(files - 1, cursor));
  return showCursor({ ...state, cursor: next, status: undefined });
}

/** Scrolls the lines; the cursor follows to the first file starting on screen. */
export function scroll(state: CheckState, by: number): CheckState {
  const max = Math.max(0, state.view.lines.length - state.height);
  const offset = Math.max(0, Math.min(max, state.offset + by));
  const files = state.view.files;
  let cursor = files.findIndex((f) => f.first >= offset);
  if (cursor < 0) cursor = files.length - 1;
  return { ...state, offset, cursor: Math.max(0, cursor), status: undefined };
}

/** An effect as queued, before it has its id. */
type CheckEffectBody = CheckEffect extends infer E ? (E extends CheckEffect ? Omit<E, 'id'> : never) : never;

/** Queues an effect that leaves the view (open a tree, back, quit): it takes no more keys. */
export function leaveWith(state: CheckState, body: CheckEffectBody): CheckState {
  return {
    ...state,
    effects: [...state.effects, { ...body, id: state.nextId }],
    nextId: state.nextId + 1,
    leaving: true,
  };
}

/** Enter: opens the selected file's tree, or says why it cannot. */
export function openSelected(state: CheckState): CheckState {
  const file = state.view.files[state.cursor];
  if (!file) return state;
  if (!file.openable) return { ...state, status: 'pi cannot read this file as a session: there is no tree to open' };
  return leaveWith(state, { kind: 'open', path: file.path });
}
