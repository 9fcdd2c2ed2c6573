/**
 * `useReducer` whose latest state is readable synchronously, between renders.
 *
 * ink delivers every key of one read (a paste, fast typing, a test writing "↓↓⏎") synchronously,
 * before React renders. A handler that decides by the current mode (menu open? text input?) must
 * see the state the previous key produced, not the last rendered one. Here dispatch applies the
 * reducer to a ref at once and asks React to render the result.
 */
import { useCallback, useRef, useState } from 'react';

export function useSyncReducer<S, A>(reducer: (state: S, action: A) => S, init: () => S): [S, (action: A) => void, { readonly current: S }] {
  const ref = useRef<S | undefined>(undefined);
  if (ref.current === undefined) ref.current = init();
  const [state, setState] = useState<S>(ref.current);
  const dispatch = useCallback(
    (action: A) => {
      const next = reducer(ref.current as S, action);
      if (next === ref.current) return;
      ref.current = next;
      setState(next);
    },
    [reducer],
  );
  return [state, dispatch, ref as { readonly current: S }];
}
