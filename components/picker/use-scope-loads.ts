/**
 * The picker's listings: one running load per scope (a new one aborts the last), its pages and
 * its end dispatched as actions, and a dispatch that drops results arriving after the screen is
 * gone (a listing, a store write, a search queued for after the echo).
 */
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { PickerAction, PickerState, Scope } from '../../src/picker/reducer.js';
import type { SessionSource } from '../../src/picker/session-source.js';
import { firstLineOf } from '../../src/store/index.js';

export interface ScopeLoads {
  load(scope: Scope): void;
  abortAll(): void;
  /** `dispatch`, unless the screen has unmounted. */
  safeDispatch(action: PickerAction): void;
}

export function useScopeLoads(
  source: SessionSource,
  stateRef: { readonly current: PickerState },
  dispatch: (action: PickerAction) => void,
): ScopeLoads {
  const loads = useRef(new Map<Scope, AbortController>());
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
      for (const controller of loads.current.values()) controller.abort();
    },
    [],
  );
  // Settled after the next commit (ink writes the frame as React commits it): a listing waits
  // for its first rows to be on the screen before it stats every file.
  const commits = useRef<(() => void)[]>([]);
  const nextCommit = (): Promise<void> => new Promise<void>((resolve) => commits.current.push(resolve));
  useLayoutEffect(() => {
    for (const resolve of commits.current.splice(0)) resolve();
  });

  const safeDispatch = useCallback(
    (action: PickerAction) => {
      if (mounted.current) dispatch(action);
    },
    [dispatch],
  );

  function load(scope: Scope): void {
    loads.current.get(scope)?.abort();
    const controller = new AbortController();
    loads.current.set(scope, controller);
    source
      .list(
        scope,
        (sessions, loaded, total) => {
          // Asked for first: the render may happen within the dispatch.
          const painted = nextCommit();
          const before = stateRef.current;
          safeDispatch({ type: 'sessions', scope, sessions, loaded, total });
          return stateRef.current === before ? undefined : painted;
        },
        controller.signal,
      )
      .then((summary) => {
        if (controller.signal.aborted) return;
        const action: PickerAction = {
          type: 'loadDone',
          scope,
          searched: summary.searched,
          skipped: summary.skipped,
          sessions: summary.sessions,
        };
        if (summary.dirMissing) action.dirMissing = true;
        if (summary.problem) action.problem = summary.problem;
        safeDispatch(action);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) safeDispatch({ type: 'loadFailed', scope, error: firstLineOf(error) });
      });
  }

  return {
    load,
    abortAll: () => {
      for (const controller of loads.current.values()) controller.abort();
    },
    safeDispatch,
  };
}
