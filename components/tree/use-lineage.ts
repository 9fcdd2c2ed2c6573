/**
 * The tree's lineage: the sessions forked from this one and the one it was forked
 * from, found once after the first paint (a listing lookup and a read of the few files it names,
 * never the store), and the types of moving between those trees.
 */
import { useEffect, useRef } from 'react';
import type { LoadedSession, SessionTree } from '../../src/store/index.js';
import { keyPauseMs } from '../../src/terminal/key-pause.js';
import { type Lineage, NO_LINEAGE } from '../../src/tree/fork-nodes.js';
import type { TreeState } from '../../src/tree/reducer.js';
import type { Loaded } from './tree-data.js';

/** Another session's tree to open (a fork row, the parent link, a label), on `focusId` when given. */
export interface TreeOpen {
  path: string;
  focusId?: string;
}

/** A tree as it was left for another session's tree: Esc comes back to exactly this. */
export interface TreeSnapshot {
  readonly loaded: Loaded;
  readonly state: TreeState;
  readonly lineage: Lineage;
}

/** Finds the session's forks and parent (the app: from its listing and the catalogue). */
export type LineageFinder = (path: string, session: LoadedSession, tree: SessionTree) => Promise<Lineage>;

/**
 * The lineage found so far (the snapshot's when coming back: not looked up again). `onFound`
 * runs once, when the finder answers while the screen is still there. The lookup starts once the
 * tree is drawn and the user has paused typing (reading a big catalogue's records takes a moment
 * of the event loop: keys first).
 */
export function useLineage(options: {
  path: string;
  session: LoadedSession;
  tree: SessionTree;
  snapshot: Lineage | undefined;
  find: LineageFinder | undefined;
  onFound(lineage: Lineage): void;
}): { readonly current: Lineage } {
  const ref = useRef<Lineage>(options.snapshot ?? NO_LINEAGE);
  const onFound = useRef(options.onFound);
  onFound.current = options.onFound;
  const { path, session, tree, snapshot, find } = options;
  // biome-ignore lint/correctness/useExhaustiveDependencies: looked up once per path (onFound runs once): session and tree are that path's first load, and snapshot and find stay the same for the screen's life
  useEffect(() => {
    if (snapshot || !find) return;
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    const start = (): void => {
      const wait = keyPauseMs();
      if (wait > 0) {
        timer = setTimeout(start, wait);
        return;
      }
      find(path, session, tree)
        .then((lineage) => {
          if (cancelled) return;
          ref.current = lineage;
          onFound.current(lineage);
        })
        .catch(() => {
          // Lineage is a help, not the session: a failure leaves the tree as it is.
        });
    };
    timer = setTimeout(start, 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [path]);
  return ref;
}
