/**
 * The tree navigator screen: pi's /tree, full screen, with persisted branching, forks, labels,
 * a detail view and live updates. All behaviour lives in src/tree/reducer.ts; this component
 * loads the session, turns keys into actions, runs the reducer's queued effects (store writes,
 * clipboard, leaving) and draws only the visible rows.
 */
import { Box, Text, useStdout } from 'ink';
import { type ReactElement, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { formatCost, formatTokens, plural } from '../../src/format.js';
import { type KeyBinding, keyPrompt } from '../../src/keymap/keymap.js';
import { findOnPath, folderExists, type PiLaunch } from '../../src/pi-launch.js';
import type { HitFocus } from '../../src/picker/text-hit-places.js';
import { missingCwdTitle } from '../../src/state/missing-cwd.js';
import { goneMessage } from '../../src/state/session-gone.js';
import * as realStore from '../../src/store/index.js';
import {
  branchPointCount,
  cutLineOf,
  describeTooLarge,
  firstLineOf,
  type LoadedSession,
  type Locations,
  type ReadResult,
  type RedoRequest,
  type RedoStep,
  resolveLocations,
  type SessionTree,
  type UndoRequest,
  type UndoScope,
  type UndoStep,
  type UsageTotals,
} from '../../src/store/index.js';
import { copyMessage, copyText } from '../../src/terminal/clipboard-copy.js';
import { keyPauseMs } from '../../src/terminal/key-pause.js';
import { sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';
import {
  detailHintBindings,
  detailPosition,
  detailRows,
  detailScrolls,
  visibleDetail,
} from '../../src/tree/detail-view.js';
import { nodeDetailLines } from '../../src/tree/entry-detail.js';
import { displayString, entryFullText, formatLabelTime } from '../../src/tree/entry-display.js';
import { displayOf, type FilterMode, rowAt, warmSearch } from '../../src/tree/flatten.js';
import { entryFocus, hitSearchHintBindings, treeFocus } from '../../src/tree/hit-focus.js';
import { TREE_BINDINGS, TREE_MODE_TITLES, type TreeCommand } from '../../src/tree/keymap.js';
import { panOffset } from '../../src/tree/pan.js';
import {
  type DetailSource,
  initTreeState,
  keyMode,
  RETAINED_ROW_NOTE,
  selectedRow,
  TREE_FILTER_HELP,
  type TreeEffect,
  takesKeys,
  treeHelpHeight,
  treeKey,
  treeReducer,
} from '../../src/tree/reducer.js';
import { treeQuestionChoices } from '../../src/tree/undo.js';
import { HelpOverlay } from '../common/HelpOverlay.js';
import { KeyHints } from '../common/KeyHints.js';
import { Menu } from '../common/Menu.js';
import { type StatusMessage as CommonStatus, StatusLine } from '../common/StatusLine.js';
import { useEffectRunner } from '../common/use-effect-runner.js';
import { useScreenKeys } from '../common/use-screen-keys.js';
import { useSyncReducer } from '../common/use-sync-reducer.js';
import { useTerminalSize } from '../common/use-terminal-size.js';
import { Counter, QueryLine } from './TreeChrome.js';
import { TreeMessage } from './TreeMessage.js';
import { type RowInput, rowBody, TreeRow, toneColor, toneDim } from './TreeRow.js';
import { FORMAT, type Loaded, load } from './tree-data.js';
import { runTreeWrite } from './tree-writes.js';
import { type LineageFinder, type TreeOpen, type TreeSnapshot, useLineage } from './use-lineage.js';
import { useLiveSession } from './use-live-session.js';

export type TreeExit = { kind: 'quit'; code: number } | ({ kind: 'resume' } & PiLaunch);

export type { Loaded } from './tree-data.js';
export type { LineageFinder, TreeOpen, TreeSnapshot } from './use-lineage.js';

/** The store functions the screen uses; tests inject fakes. Writes are asynchronous. */
export interface TreeStore {
  readSession(path: string): Promise<ReadResult>;
  buildTree(session: LoadedSession): SessionTree;
  subtreeUsage(tree: SessionTree, id: string): UsageTotals;
  sessionUsage(tree: SessionTree): UsageTotals;
  setLabel(path: string, targetId: string, label?: string): Promise<unknown>;
  branchInPlace(
    path: string,
    targetId: string,
    options?: { summary?: string },
  ): Promise<{ leafId: string | null; entryId?: string; editorText?: string; changeId?: string }>;
  forkSession(path: string, entryId?: string): Promise<{ path: string; editorText?: string; changeId?: string }>;
  /** Ctrl+Z: the journal's latest change (any session in `scope`'s folders), or the question to ask first. */
  undoStep(scope: UndoScope, request: UndoRequest): Promise<UndoStep>;
  /** Ctrl+Y: the latest undo, or the question to ask first. */
  redoStep(scope: UndoScope, request: RedoRequest): Promise<RedoStep>;
  /** Whether the session's file was deleted or moved (a test's store without it: never). */
  isGoneSync?(path: string): boolean;
}

export const defaultTreeStore: TreeStore = realStore;

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
  bindings?: readonly KeyBinding<TreeCommand>[];
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

const REAL_PROBE = { piFound: (): boolean => findOnPath('pi') !== undefined, folderExists };
const CALLER_OPENS = { piFound: (): boolean => true, folderExists: (): boolean => true };

// Header (title, facts), query line, counter, hints.
const CHROME_ROWS = 5;

export function TreeScreen(props: TreeScreenProps) {
  const store = props.store ?? defaultTreeStore;
  const [loaded, setLoaded] = useState<Loaded | { error: string; gone?: true } | null>(props.snapshot?.loaded ?? null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: props.snapshot is only the starting point (the useState above starts from it); a later snapshot must not drop or re-read the loaded session
  useEffect(() => {
    if (props.snapshot) return;
    let cancelled = false;
    void (async () => {
      try {
        const result = await store.readSession(props.path);
        if (cancelled) return;
        // Opened from a list (picker, labels, check view, a fork row) that showed it a moment ago.
        if (!result.ok && result.reason === 'not-found')
          setLoaded({ error: goneMessage([props.path], process.stdout.columns ?? 80), gone: true });
        else if (!result.ok) setLoaded({ error: result.message });
        else setLoaded(load(store, result, undefined, []));
      } catch (error) {
        if (!cancelled) setLoaded({ error: (error as Error).message });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [props.path, store]);

  if (loaded === null)
    return (
      <TreeMessage
        text={`Loading ${props.path}…`}
        loading
        bindings={props.bindings ?? TREE_BINDINGS}
        onBack={props.onBack}
        onExit={props.onExit}
      />
    );
  if ('error' in loaded)
    return (
      <TreeMessage
        text={loaded.gone ? loaded.error : `Cannot open the session: ${loaded.error}`}
        bindings={props.bindings ?? TREE_BINDINGS}
        onBack={props.onBack}
        onExit={props.onExit}
        error
      />
    );
  if (loaded.index.size === 0)
    return (
      <TreeMessage
        text="No entries in this session."
        bindings={props.bindings ?? TREE_BINDINGS}
        onBack={props.onBack}
        onExit={props.onExit}
      />
    );
  return <TreeView {...props} store={store} initial={loaded} />;
}

function TreeView(props: TreeScreenProps & { store: TreeStore; initial: Loaded }) {
  const { store, path } = props;
  const { columns, rows } = useTerminalSize();
  const { stdout } = useStdout();
  const listHeight = Math.max(1, rows - 1 - CHROME_ROWS);
  const [data, setData] = useState<Loaded>(props.initial);
  const dataRef = useRef(data);
  dataRef.current = data;

  const detailSource = useCallback<DetailSource>(
    (index, id) => nodeDetailLines(index, id, FORMAT, store.subtreeUsage),
    [store],
  );
  const machine = useSyncReducer(treeReducer, () => {
    if (props.snapshot) return { ...props.snapshot.state, effects: [], leaving: false, status: null };
    const filter = props.initialFilter ?? 'default';
    const index = props.initial.index;
    const focus = props.focus
      ? treeFocus(index, props.focus, filter)
      : props.focusId !== undefined
        ? entryFocus(index, props.focusId, filter)
        : undefined;
    return initTreeState({
      index,
      listHeight,
      width: columns,
      detailSource,
      filter,
      ...(focus ? { focus } : {}),
      ...(props.bindings ? { bindings: props.bindings } : {}),
      ...(props.warning !== undefined ? { warning: props.warning } : {}),
    });
  });
  const { state, dispatch } = machine;
  useScreenKeys(machine, treeKey, takesKeys);

  useEffect(() => {
    dispatch({ type: 'resize', listHeight, width: columns });
  }, [listHeight, columns, dispatch]);

  // Forks and parent: the fork rows join the index, and every rebuild keeps them.
  const lineageRef = useLineage({
    path,
    session: props.initial.session,
    tree: props.initial.tree,
    snapshot: props.snapshot?.lineage,
    find: props.findLineage,
    onFound(lineage) {
      if (lineage.forks.length > 0) {
        const current = dataRef.current;
        const next = load(store, current.session, current.index, lineage.forks);
        setData(next);
        dispatch({ type: 'reload', index: next.index });
      }
      if (lineage.parent) dispatch({ type: 'parent', parent: lineage.parent });
    },
  });

  // Fill the search cache in idle slices so the first keystroke doesn't pay for it.
  useEffect(() => {
    let from = 0;
    let timer: NodeJS.Timeout | undefined;
    const step = (): void => {
      // Keys first: a slice waits until the user has stopped typing for a moment.
      const wait = keyPauseMs();
      if (wait === 0) from = warmSearch(data.index, from, 5000);
      if (from < data.index.nodeCount) timer = setTimeout(step, wait);
    };
    timer = setTimeout(step, 50);
    return () => clearTimeout(timer);
  }, [data.index]);

  // Live updates: appended entries extend the session; any other change reloads it whole.
  const liveRef = useLiveSession({
    path,
    store,
    live: props.live !== false,
    initial: props.initial.session,
    dataRef,
    lineageRef,
    setData,
    dispatch,
  });

  // Run the reducer's queued effects.
  const runEffect = useCallback(
    async (effect: TreeEffect): Promise<void> => {
      const cwd =
        typeof dataRef.current.session.header.cwd === 'string' ? dataRef.current.session.header.cwd : process.cwd();
      const pollLive = async (): Promise<void> => {
        await liveRef.current?.poll();
      };
      try {
        switch (effect.kind) {
          case 'label':
          case 'branch':
          case 'branch-summary':
          case 'fork':
          case 'undo':
          case 'redo':
            await runTreeWrite(effect, {
              store,
              path,
              dispatch,
              pollLive,
              // Resolved when needed (pi's settings may name a custom sessions folder).
              scope: () => ({ locations: props.locations ?? resolveLocations({ cwd: props.here ?? process.cwd() }) }),
              now: props.now ?? Date.now,
            });
            return;
          case 'copy': {
            // By row key: a retained message's row copies the message it stands for.
            const index = dataRef.current.index;
            const num = index.numOf.get(effect.id);
            const entry = num === undefined ? undefined : index.entries[num]!;
            const cut = entry && cutLineOf(entry);
            if (cut) {
              // Only the start of its text was read: a cut copy would pass for the whole of it.
              dispatch({ type: 'failed', message: `Not copied: ${describeTooLarge(cut)}, too large to read whole` });
              return;
            }
            const text = entry && entryFullText(entry);
            if (text === undefined || text === '') {
              dispatch({ type: 'failed', message: 'Selected entry has no text to copy' });
              return;
            }
            const copied = await copyText(text, {
              env: props.env ?? process.env,
              writeToTerminal: (sequence) => stdout.write(sequence),
            });
            dispatch({ type: 'copied', message: copyMessage(copied) });
            return;
          }
          case 'check-open': {
            if (store.isGoneSync?.(path)) {
              dispatch({ type: 'failed', message: goneMessage([path], stdout.columns ?? 80, 'it was opened') });
              return;
            }
            // Before anything is written: a failure here leaves the file as it was.
            const probe = props.probe ?? (props.printMode ? CALLER_OPENS : REAL_PROBE);
            const cwdExists = probe.folderExists(cwd);
            dispatch({
              type: 'openChecked',
              target: effect.target,
              piFound: probe.piFound(),
              cwdExists,
              path,
              sessionCwd: cwd,
              here: props.here ?? process.cwd(),
            });
            return;
          }
          case 'open-in-pi': {
            const { target } = effect;
            const fork = effect.fork ? { fork: true } : {};
            if (target.kind === 'file') {
              props.onExit({ kind: 'resume', path: target.path, cwd: effect.cwd, ...fork });
              return;
            }
            const index = dataRef.current.index;
            const leafId = index.leaf === -1 ? null : index.entries[index.leaf]!.id;
            if (target.id !== leafId) await store.branchInPlace(path, target.id, {});
            props.onExit({ kind: 'resume', path, cwd: effect.cwd, ...fork });
            return;
          }
          case 'open-session':
            if (!props.onOpenSession) {
              dispatch({ type: 'failed', message: 'Cannot open another session from here' });
              return;
            }
            props.onOpenSession(
              { path: effect.path, ...(effect.focusId !== undefined ? { focusId: effect.focusId } : {}) },
              { loaded: dataRef.current, state: machine.ref.current, lineage: lineageRef.current },
            );
            return;
          case 'back':
            props.onBack();
            return;
          case 'quit':
            // Ctrl+C: 130 (128 + SIGINT) as in the picker, whichever screen it is pressed on.
            props.onExit({ kind: 'quit', code: 130 });
            return;
        }
      } catch (error) {
        // A write on a file deleted or moved since the tree was opened says so, not how it failed.
        const gone = store.isGoneSync?.(path) === true;
        dispatch({
          type: 'failed',
          message: gone ? goneMessage([path], stdout.columns ?? 80, 'it was opened') : firstLineOf(error),
        });
      }
    },
    [store, path, props, stdout, dispatch],
  );

  useEffectRunner(
    state.effects,
    (effect) => effect.effectId,
    (effect) => void runEffect(effect),
    (upTo) => dispatch({ type: 'effectsTaken', upTo }),
  );

  const now = props.now ?? Date.now;
  const { index, layout } = state;
  const width = columns;
  const tokens = state.search?.tokens ?? [];

  const header = useMemo(() => {
    const name = data.tree.sessionName;
    const cwd = typeof data.session.header.cwd === 'string' ? data.session.header.cwd : '?';
    // Only branches that hold conversation: resuming at an entry adds a bookkeeping child, not a branch.
    const branches = branchPointCount(data.tree, { ignoreBookkeeping: true });
    return {
      title: `Session Tree${name ? ` · ${sanitizeInline(name)}` : ''}${state.parent ? ` · ⑂ fork of ${sanitizeInline(state.parent.title, { newline: 'space' })} (P opens it)` : ''}`,
      facts: `${sanitizeInline(cwd)} · ${plural(data.index.size, 'entry', 'entries')} · ${plural(branches, 'branch point')} · ${formatTokens(data.totals.totalTokens)} tokens · ${formatCost(data.totals.cost)}`,
    };
  }, [data, state.parent]);

  const body = (() => {
    if (state.mode === 'help') {
      return (
        <HelpOverlay
          bindings={state.bindings}
          modeTitles={TREE_MODE_TITLES}
          extra={TREE_FILTER_HELP}
          width={width}
          height={treeHelpHeight(listHeight)}
          title="Tree navigator keys"
          footer=""
          offset={state.helpOffset}
        />
      );
    }
    if (state.mode === 'detail' && state.detail) {
      const d = state.detail;
      return (
        <Box flexDirection="column" height={listHeight + 2} overflow="hidden">
          <Box flexDirection="column" height={detailRows(listHeight)} overflow="hidden">
            {visibleDetail(d, listHeight).map((line, i) => (
              <Text
                // biome-ignore lint/suspicious/noArrayIndexKey: detail lines have no id; scroll + i is the line's index in the whole detail, stable while scrolling
                key={d.scroll + i}
                wrap="truncate-end"
                color={toneColor(line.tone)}
                dimColor={toneDim(line.tone)}
                bold={line.tone === 'heading'}
              >
                {line.text === '' ? ' ' : line.text}
              </Text>
            ))}
          </Box>
          <Text dimColor wrap="truncate-end">
            {detailPosition(d, listHeight)}
          </Text>
        </Box>
      );
    }
    const inputs: RowInput[] = [];
    const end = Math.min(layout.count, state.offset + listHeight);
    for (let i = state.offset; i < end; i++) {
      const row = rowAt(layout, i)!;
      const labelTime =
        state.labelTimes && row.labelTimestamp !== undefined ? formatLabelTime(row.labelTimestamp, now()) : undefined;
      inputs.push({
        row,
        display: displayOf(index, row.num),
        selected: i === state.cursor,
        width,
        tokens,
        ...(labelTime !== undefined ? { labelTime } : {}),
      });
    }
    // One offset for every drawn row, from the selected one (pi's rule), so the tree lines stay true.
    const bodies = inputs.map((input) => rowBody(input));
    const pan = panOffset(bodies, bodies[inputs.findIndex((input) => input.selected)], width);
    const visible: ReactElement[] = inputs.map((input) => <TreeRow key={input.row.id} {...input} pan={pan} />);
    if (layout.count === 0)
      visible.push(
        <Text key="empty" dimColor>
          {'  No entries found'}
        </Text>,
      );
    return (
      <Box flexDirection="column" height={listHeight + 2} overflow="hidden">
        <QueryLine state={state} width={width} />
        <Box flexDirection="column" height={listHeight} overflow="hidden">
          {visible}
        </Box>
        <Counter state={state} width={width} />
      </Box>
    );
  })();

  const overlay = (() => {
    if (state.mode === 'menu') {
      const row = selectedRow(state);
      const title = row
        ? truncateToWidth(
            `${row.retainedBy !== undefined ? 'Retained' : 'Entry'}: ${displayString(displayOf(index, row.num))}`,
            width - 2,
          )
        : 'Entry';
      // A retained message is not an entry: the menu says why it offers only View and Copy.
      const note =
        row?.retainedBy !== undefined
          ? `${RETAINED_ROW_NOTE} (kept by compaction ${sanitizeInline(row.retainedBy)}).`
          : undefined;
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold wrap="truncate-end">
            {title}
          </Text>
          {note !== undefined ? (
            <Text dimColor wrap="wrap">
              {note}
            </Text>
          ) : null}
          {state.menu ? <Menu menu={state.menu} /> : null}
        </Box>
      );
    }
    if (state.mode === 'open-missing-cwd' && state.openQuestion !== null) {
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold color="yellow" wrap="truncate-end">
            {missingCwdTitle(state.openQuestion.question)}
          </Text>
          {state.menu ? <Menu menu={state.menu} /> : null}
        </Box>
      );
    }
    if (state.mode === 'fork-done' && state.forkPath !== null) {
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text wrap="truncate-end">{`New session: ${sanitizeInline(state.forkPath)}`}</Text>
          {state.forkEditorText !== null ? (
            <Text wrap="truncate-end">{`Message to re-send: ${sanitizeInline(state.forkEditorText)}`}</Text>
          ) : null}
          {state.menu ? <Menu menu={state.menu} /> : null}
        </Box>
      );
    }
    if (state.mode === 'undo-confirm') {
      const question = state.undoQuestion;
      if (!question)
        return (
          <Box flexDirection="column" borderStyle="round" paddingX={1}>
            <Text wrap="truncate-end">
              {state.undoAction === 'undo' ? 'Looking at the latest change…' : 'Looking at the latest undo…'}
            </Text>
          </Box>
        );
      return (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold color={question.kind === 'blocked' ? 'red' : 'yellow'} wrap="truncate-end">
            {question.title}
          </Text>
          <Text wrap="wrap">{sanitizeInline(question.text)}</Text>
          <Text bold wrap="truncate-end">
            {keyPrompt(state.bindings, 'confirm', treeQuestionChoices(question))}
          </Text>
        </Box>
      );
    }
    return null;
  })();

  const statusForLine: CommonStatus | undefined = state.status
    ? { kind: state.status.tone, text: state.status.text }
    : undefined;
  const hintMode = keyMode(state);
  // The help's own footer is the key line below it (no second one); no scroll hints where nothing scrolls.
  const hintBindings = hitSearchHintBindings(
    detailHintBindings(state.bindings, state.detail !== null && detailScrolls(state.detail, listHeight)),
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
      {overlay ?? body}
      {statusForLine ? (
        <StatusLine message={statusForLine} width={width} />
      ) : (
        <KeyHints bindings={hintBindings} mode={hintMode} width={width} />
      )}
    </Box>
  );
}
