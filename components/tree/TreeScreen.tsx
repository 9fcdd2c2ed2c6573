/**
 * The tree navigator screen: pi's /tree, full screen, with persisted branching, forks, labels,
 * a detail view and live updates. All behaviour lives in the screen's reducer
 * (src/tree/screen.ts around the navigator's src/tree/reducer.ts): this component feeds it keys
 * and the terminal's size, runs its queued effects (use-tree-effects.ts) and draws its state.
 */
import { homedir } from 'node:os';
import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { exportToFile } from '../../src/export/run.js';
import { formatCost, formatTokens, plural } from '../../src/format.js';
import type { KeyBinding } from '../../src/keymap/keymap.js';
import type { HitFocus } from '../../src/picker/text-hit-places.js';
import * as realStore from '../../src/store/index.js';
import { branchPointCount, type Locations } from '../../src/store/index.js';
import { keyPauseMs } from '../../src/terminal/key-pause.js';
import { sanitizeInline } from '../../src/text/terminal-text.js';
import { detailHintBindings, detailScrolls } from '../../src/tree/detail-view.js';
import { type FilterMode, type TreeIndex, warmSearch } from '../../src/tree/flatten.js';
import { hitSearchHintBindings } from '../../src/tree/hit-focus.js';
import { TREE_BINDINGS, type TreeCommand, type TreeKeyMode } from '../../src/tree/keymap.js';
import { keyMode } from '../../src/tree/reducer.js';
import {
  openTree,
  screenTakesKeys,
  type TreeOpened,
  type TreeScreenAction,
  type TreeScreenState,
  type TreeSnapshot,
  treeScreenReducer,
} from '../../src/tree/screen.js';
import { detailOf, treeKey } from '../../src/tree/state.js';
import type { LineageFinder, TreeOpen, TreeStore } from '../../src/tree/tree-store.js';
import { KeyHints } from '../common/KeyHints.js';
import { StatusLine } from '../common/StatusLine.js';
import { useScreenKeys } from '../common/use-screen-keys.js';
import { type SyncReducer, useSyncReducer } from '../common/use-sync-reducer.js';
import { useTerminalSize } from '../common/use-terminal-size.js';
import { TreeBody } from './TreeBody.js';
import { TreeMessage } from './TreeMessage.js';
import { treeOverlay } from './TreeOverlay.js';
import { type TreeExit, useTreeEffects } from './use-tree-effects.js';

export type { LineageFinder, TreeExit, TreeOpen, TreeSnapshot, TreeStore };

// The store's own functions, under the screen port's names (the picker's SessionSource names the
// same check `isGone`).
export const defaultTreeStore: TreeStore = { ...realStore, isGone: realStore.isGoneSync, exportSession: exportToFile };

export interface TreeScreenProps {
  path: string;
  onBack(): void;
  onExit(result: TreeExit): void;
  now?: () => number;
  store?: TreeStore;
  /** Watch the file for entries appended by a running pi (default true). */
  live?: boolean;
  /** Environment for the clipboard sequence (tmux/screen wrapping); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The filter the tree opens with: pi's `treeFilterMode` setting (default 'default'). */
  initialFilter?: FilterMode;
  /** The keymap: TREE_BINDINGS with pi's keybindings.json applied (default TREE_BINDINGS). */
  bindings?: readonly KeyBinding<TreeCommand, TreeKeyMode>[];
  /** pi's configuration problems, shown in the status line until the first key. */
  warning?: string;
  /** Open on this picker hit (the search pre-filled, the cursor on its entry). */
  focus?: HitFocus;
  /** The folder pi-sessions runs in (offered when the session's folder is gone); default process.cwd(). */
  here?: string;
  /**
   * `--print` (pi's extension, a shell): the caller opens the chosen session, so pi's PATH and the
   * folder are its business (inside pi, pi asks its own missing-folder question).
   */
  printMode?: boolean;
  /** This is the session pi is in, and pi moves its own leaf: Resume from here is handed back, not written. */
  handsBackResume?: boolean;
  /** Whether pi can start: on the PATH, and the folder exists (tests pin them); default: the real checks. */
  probe?: { piFound(): boolean; folderExists(cwd: string): boolean };
  /** Open on this entry (centred; shown even when the filter hides it) instead of the leaf. */
  focusId?: string;
  /** Come back to a tree left for another session's tree (no reload). */
  snapshot?: TreeSnapshot;
  /** Enter on a fork row, `P` in a fork: open that session's tree, keeping this one to come back to. */
  onOpenSession?(open: TreeOpen, snapshot: TreeSnapshot): void;
  /** Without it the tree shows no forks and no parent link. */
  findLineage?: LineageFinder;
  /** Where sessions are: what undo and redo may touch (default: resolved from the environment, as pi does). */
  locations?: Locations;
}

// Header (title, facts), query line, counter, hints.
const CHROME_ROWS = 5;

export function TreeScreen(props: TreeScreenProps) {
  const { columns, rows } = useTerminalSize();
  const listHeight = Math.max(1, rows - 1 - CHROME_ROWS);
  const machine = useSyncReducer(treeScreenReducer, () =>
    openTree(
      {
        path: props.path,
        listHeight,
        width: columns,
        filter: props.initialFilter ?? 'default',
        bindings: props.bindings ?? TREE_BINDINGS,
        home: homedir(),
        here: props.here ?? process.cwd(),
        live: props.live !== false,
        findsLineage: props.findLineage !== undefined,
        handsBackResume: props.handsBackResume === true,
        ...(props.focus ? { focus: props.focus } : {}),
        ...(props.focusId !== undefined ? { focusId: props.focusId } : {}),
        ...(props.warning !== undefined ? { warning: props.warning } : {}),
      },
      props.snapshot,
    ),
  );
  const { state, dispatch } = machine;
  useTreeEffects(machine, { ...props, store: props.store ?? defaultTreeStore });
  useEffect(() => {
    dispatch({ type: 'resize', listHeight, width: columns });
  }, [listHeight, columns, dispatch]);
  if (state.kind === 'opening') return <TreeMessage state={state} machine={machine} />;
  return (
    <TreeView
      state={state}
      machine={machine}
      now={props.now ?? Date.now}
      width={columns}
      rows={rows}
      listHeight={listHeight}
    />
  );
}

/** Fills the search cache in idle slices so the first keystroke doesn't pay for it. */
function useWarmSearch(index: TreeIndex): void {
  useEffect(() => {
    let from = 0;
    let timer: NodeJS.Timeout | undefined;
    const step = (): void => {
      // Keys first: a slice waits until the user has stopped typing for a moment.
      const wait = keyPauseMs();
      if (wait === 0) from = warmSearch(index, from, 5000);
      if (from < index.nodeCount) timer = setTimeout(step, wait);
    };
    timer = setTimeout(step, 50);
    return () => clearTimeout(timer);
  }, [index]);
}

function TreeView({
  state: screen,
  machine,
  now,
  width,
  rows,
  listHeight,
}: {
  state: TreeOpened;
  machine: SyncReducer<TreeScreenState, TreeScreenAction>;
  now: () => number;
  /** The terminal's size as TreeScreen read it, and the list's height it leaves. */
  width: number;
  rows: number;
  listHeight: number;
}) {
  // Mounted when the tree is there: registering its keys replays those typed while it loaded.
  // The clock a key is read at: a click needs it (is it a double click?).
  useScreenKeys(machine, (keypress) => treeKey(keypress, now()), screenTakesKeys);
  const state = screen.nav;
  useWarmSearch(state.index);

  const { session, totals } = screen;
  const tree = state.index.tree;
  const header = useMemo(() => {
    const name = tree.sessionName;
    const cwd = typeof session.header.cwd === 'string' ? session.header.cwd : '?';
    // Only branches that hold conversation: resuming at an entry adds a bookkeeping child, not a branch.
    const branches = branchPointCount(tree, { ignoreBookkeeping: true });
    return {
      title: `Session Tree${name ? ` · ${sanitizeInline(name)}` : ''}${state.parent ? ` · ⑂ fork of ${sanitizeInline(state.parent.title, { newline: 'space' })} (P opens it)` : ''}`,
      facts: `${sanitizeInline(cwd)} · ${plural(state.index.size, 'entry', 'entries')} · ${plural(branches, 'branch point')} · ${formatTokens(totals.totalTokens)} tokens · ${formatCost(totals.cost)}`,
    };
  }, [session, tree, totals, state.index.size, state.parent]);

  const detail = detailOf(state);
  // The help's own footer is the key line below it (no second one); no scroll hints where nothing scrolls.
  const hintBindings = hitSearchHintBindings(
    detailHintBindings(state.bindings, detail !== null && detailScrolls(detail, listHeight)),
    state.query,
    state.openedQuery,
  );
  return (
    <Box flexDirection="column" height={Math.max(1, rows - 1)} overflow="hidden">
      <Text bold wrap="truncate-end">
        {header.title}
      </Text>
      <Text dimColor wrap="truncate-end">
        {header.facts}
      </Text>
      {treeOverlay(state, width) ?? <TreeBody state={state} width={width} listHeight={listHeight} now={now} />}
      {state.status ? (
        <StatusLine message={{ kind: state.status.tone, text: state.status.text }} width={width} />
      ) : (
        <KeyHints bindings={hintBindings} mode={keyMode(state)} width={width} />
      )}
    </Box>
  );
}
