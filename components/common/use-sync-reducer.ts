/**
 * `useReducer` whose latest state is readable synchronously, between renders, and which renders
 * once for a batch of actions.
 *
 * The keys of one read (a burst, a paste, a test writing "↓↓⏎") are reduced one after another
 * against the state each previous key produced, before React renders: the key handler must know
 * at once whether a key left the screen (then the rest belong to the next one). `batch(fn)` applies
 * every action `fn` dispatches to the ref and asks React for one render at the end (ink renders
 * synchronously per setState otherwise: forty Backspaces would be forty frames).
 */
import { useCallback, useRef, useState } from 'react';

export interface SyncReducer<S, A> {
  state: S;
  dispatch(action: A): void;
  /** Runs `fn`, rendering once afterwards for all it dispatched. */
  batch(fn: () => void): void;
  /** The latest state, including actions not rendered yet. */
  ref: { readonly current: S };
}

export function useSyncReducer<S, A>(reducer: (state: S, action: A) => S, init: () => S): SyncReducer<S, A> {
  const ref = useRef<S | undefined>(undefined);
  if (ref.current === undefined) ref.current = init();
  const [state, setState] = useState<S>(ref.current);
  const batching = useRef(0);
  const dirty = useRef(false);
  const dispatch = useCallback(
    (action: A) => {
      const next = reducer(ref.current as S, action);
      if (next === ref.current) return;
      ref.current = next;
      if (batching.current > 0) dirty.current = true;
      else setState(next);
    },
    [reducer],
  );
  const batch = useCallback((fn: () => void) => {
    batching.current++;
    try {
      fn();
    } finally {
      batching.current--;
      if (batching.current === 0 && dirty.current) {
        dirty.current = false;
        setState(ref.current as S);
      }
    }
  }, []);
  return { state, dispatch, batch, ref: ref as { readonly current: S } };
}
