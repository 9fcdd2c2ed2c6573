/**
 * Live updates of the open session: appended entries extend it (the tree is rebuilt from the
 * longer session, keeping cursor, folds, filter and search); any change that is not a pure append
 * reloads the whole file (src/tree/live.ts decides which).
 */
import { type MutableRefObject, useEffect, useRef } from 'react';
import { type LiveWatcher, type LoadedSession, watchSession } from '../../src/store/index.js';
import type { Lineage } from '../../src/tree/fork-nodes.js';
import type { TreeAction } from '../../src/tree/reducer.js';
import type { TreeStore } from './TreeScreen.js';
import { type Loaded, load } from './tree-data.js';

export interface LiveSessionOptions {
  path: string;
  store: TreeStore;
  live: boolean;
  initial: LoadedSession;
  dataRef: MutableRefObject<Loaded>;
  lineageRef: { readonly current: Lineage };
  setData(data: Loaded): void;
  dispatch(action: TreeAction): void;
}

/** Watches the file; the watcher (to poll right after our own writes) is in the returned ref. */
export function useLiveSession({
  path,
  store,
  live,
  initial,
  dataRef,
  lineageRef,
  setData,
  dispatch,
}: LiveSessionOptions): MutableRefObject<LiveWatcher | null> {
  const liveRef = useRef<LiveWatcher | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: dataRef and lineageRef are refs, read when a change arrives; a re-run would close and reopen the watcher
  useEffect(() => {
    if (!live) return;
    const reloadFully = async (reason: string): Promise<void> => {
      const result = await store.readSession(path);
      if (!result.ok) {
        dispatch({ type: 'failed', message: `Reload failed: ${result.message}` });
        return;
      }
      const next = load(store, result, undefined, lineageRef.current.forks);
      liveRef.current?.reset(result);
      setData(next);
      dispatch({ type: 'reload', index: next.index, message: `Reloaded: ${reason}` });
    };
    const watcher = watchSession(path, {
      from: initial,
      onEvent(event) {
        if (event.kind === 'reload') void reloadFully(event.reason);
        else if (event.kind === 'error') dispatch({ type: 'status', status: { text: event.message, tone: 'error' } });
        else {
          const current = dataRef.current;
          const longer: LoadedSession = {
            ...current.session,
            entries: [...current.session.entries, ...event.entries],
            entryLines: [...current.session.entryLines, ...event.entryLines],
            problems: [...current.session.problems, ...event.problems],
          };
          const next = load(store, longer, current.index, lineageRef.current.forks);
          setData(next);
          dispatch({ type: 'reload', index: next.index });
        }
      },
    });
    liveRef.current = watcher;
    return () => watcher.close();
  }, [path, store, live, initial, setData, dispatch]);
  return liveRef;
}
