/**
 * The full-screen session picker. State lives in the pure reducer (src/picker/reducer.ts); this
 * component feeds it keys, terminal size and store results, runs the effects it asks for, and
 * draws only the visible rows.
 *
 * Mounting (the CLI does this): render with `exitOnCtrlC: false` (Ctrl+C is a picker key, so
 * onExit sees it), inside the alternate screen, and act on `onExit`'s result after unmounting.
 */
import { homedir } from 'node:os';
import { Box } from 'ink';
import { useEffect, useMemo, useRef } from 'react';
import type { KeyBinding } from '../../src/keymap/keymap.js';
import { folderExists } from '../../src/pi-launch.js';
import { PICKER_MODE_TITLES, type PickerCommand } from '../../src/picker/keymap.js';
import { computeLayout } from '../../src/picker/layout.js';
import { prepareTexts } from '../../src/picker/query.js';
import { SEARCH_HELP } from '../../src/picker/query-syntax.js';
import {
  currentList,
  dialogLinesFor,
  initialPickerState,
  keyAction,
  type PickerEffect,
  type PickerExit,
  type PickerState,
  resumePickerState,
  type Scope,
  selectedRow,
  takesKeys,
} from '../../src/picker/reducer.js';
import { echoesFirst } from '../../src/picker/rows.js';
import { createStoreSource, type SessionSource } from '../../src/picker/session-source.js';
import type { HitFocus } from '../../src/picker/text-hit-places.js';
import type { Locations, SessionInfo } from '../../src/store/index.js';
import { HelpOverlay } from '../common/HelpOverlay.js';
import { useEffectRunner } from '../common/use-effect-runner.js';
import { useScreenKeys } from '../common/use-screen-keys.js';
import { useSyncReducer } from '../common/use-sync-reducer.js';
import { useTerminalSize } from '../common/use-terminal-size.js';
import { EmptyState, Footer, Header, headerText } from './PickerChrome.js';
import { PickerDialog } from './PickerDialog.js';
import { PreviewPane } from './PreviewPane.js';
import { SessionList } from './SessionList.js';
import { runPickerExport, runSecretScan } from './share-effects.js';
import { gonePaths, runStoreEffect } from './store-effects.js';
import { timedPickerReducer } from './timed-reducer.js';
import { useConflictPreview, usePreparedTexts, usePreview } from './use-background-reads.js';
import { useScopeLoads } from './use-scope-loads.js';

export type { PickerExit, PickerState };

export interface PickerScreenProps {
  locations: Locations;
  initialScope?: Scope;
  /** `--print`: Enter prints the path and exits 0, Esc exits 1. */
  printMode: boolean;
  /** Enter (outside print mode): open the tree view; keep `pickerState` to come back to. */
  onOpenTree(path: string, pickerState: PickerState, focus?: HitFocus): void;
  /** `$`: open the stats screen for the scope; keep `pickerState` to come back to. */
  onOpenStats(pickerState: PickerState): void;
  /** Alt+C: the check view of the current scope (App's screen stack); without it the key does nothing. */
  onOpenCheck?(pickerState: PickerState): void;
  /** Ctrl+L: open the labels view over the scope's sessions; keep `pickerState` to come back to. */
  onOpenLabels(sessions: SessionInfo[], pickerState: PickerState): void;
  onExit(result: PickerExit): void;
  /** State handed out by onOpenTree, to return to the same place. */
  initialState?: PickerState;
  /** Injected store access (tests); default: the real store at `locations`. */
  source?: SessionSource;
  /** `--no-cache`: the default source lists without the session catalogue. */
  noCache?: boolean;
  /** `--current FILE`: the session pi is in, marked and kept from deletion. */
  current?: string;
  /** `--query TEXT`: the search the picker opens with. */
  query?: string;
  now?: () => number;
  /** Whether a session's folder exists (tests pin it); default: the file system's answer. */
  folderExists?: (cwd: string) => boolean;
  /** `npm start`'s generated demo store: the header says so. */
  demo?: boolean;
  /** Home directory for `~` shortening (tests pin it). */
  home?: string;
  /** The keymap: PICKER_BINDINGS with pi's keybindings.json applied (default PICKER_BINDINGS). */
  bindings?: readonly KeyBinding<PickerCommand>[];
  /** pi's configuration problems, shown in the status line at start. */
  warning?: string;
}

const STATUS_MS = { info: 2500, neutral: 2500, error: 4500 } as const;
/**
 * A typed key while text is still unprepared prepares this much of it first, newest sessions
 * first: a word typed the moment the rows appear finds hits at once instead of after the keys'
 * quiet time and the first idle slice (the first result within 100 ms, also right after start).
 */
const KEY_PREPARE_MS = 8;

export function PickerScreen(props: PickerScreenProps) {
  const { printMode, onExit, onOpenTree, onOpenLabels } = props;
  const now = props.now ?? Date.now;
  const home = props.home ?? homedir();
  const size = useTerminalSize();
  const source = useMemo(
    () => props.source ?? createStoreSource(props.locations, { cache: !props.noCache }),
    [props.source, props.locations, props.noCache],
  );
  const machine = useSyncReducer(timedPickerReducer, () =>
    props.initialState
      ? resumePickerState(props.initialState, size)
      : initialPickerState({
          printMode,
          scope: props.initialScope ?? 'cwd',
          columns: size.columns,
          rows: size.rows,
          preparedOnly: true,
          nowMs: now(),
          ...(props.current !== undefined ? { current: props.current } : {}),
          ...(props.query !== undefined ? { query: props.query } : {}),
          ...(props.bindings ? { bindings: props.bindings } : {}),
          ...(props.warning !== undefined ? { warning: props.warning } : {}),
          here: props.locations.cwd,
          ...(props.locations.pathMap ? { pathMap: props.locations.pathMap } : {}),
        }),
  );
  const { state, dispatch, ref: stateRef } = machine;

  useEffect(() => {
    dispatch({ type: 'resize', columns: size.columns, rows: size.rows });
  }, [size.columns, size.rows, dispatch]);

  const nowRef = useRef(now);
  nowRef.current = now;
  const textPending = useRef(true);
  useScreenKeys(
    machine,
    (keypress) => {
      // A search is about to run on this key (the key's own, or a queued one a command runs first):
      // it finds hits in text not prepared yet too. A search that waits for its echo prepares text
      // when it runs (the `search` effect), not here.
      const current = stateRef.current;
      const searches = keypress.text !== '' ? !echoesFirst(current) : current.queuedSearch !== undefined;
      if (searches && textPending.current) {
        const sessions = currentList(current)?.sessions;
        if (sessions) prepareTexts(sessions, KEY_PREPARE_MS);
      }
      return keyAction(keypress, nowRef.current());
    },
    takesKeys,
  );

  // --- effects -------------------------------------------------------------------------------
  const loads = useScopeLoads(source, stateRef, dispatch);
  const { safeDispatch } = loads;

  useEffectRunner(
    state.effects,
    (effect) => effect.id,
    runEffect,
    (upTo) => dispatch({ type: 'effectsTaken', upTo }),
  );

  function runEffect(effect: PickerEffect): void {
    switch (effect.kind) {
      case 'load':
        loads.load(effect.scope);
        return;
      case 'search':
        // After this frame (the one echoing the typed key) is written: the next turn of the loop.
        setImmediate(() => {
          const sessions = textPending.current ? currentList(stateRef.current)?.sessions : undefined;
          if (sessions) prepareTexts(sessions, KEY_PREPARE_MS);
          safeDispatch({ type: 'runSearch', id: effect.id });
        });
        return;
      case 'rename':
      case 'trash':
      case 'undo':
      case 'redo':
      case 'planSlim':
      case 'slim':
      case 'planMerge':
      case 'merge':
        runStoreEffect(source, effect, safeDispatch, now);
        return;
      case 'open':
        if (gonePaths(source, [effect.path]).length > 0) dispatch({ type: 'sessionGone', paths: [effect.path] });
        else onOpenTree(effect.path, stateRef.current, effect.focus);
        return;
      case 'stats':
        props.onOpenStats(stateRef.current);
        return;
      case 'openCheck':
        props.onOpenCheck?.(stateRef.current);
        return;
      case 'checkResume':
        // pi would start a new, empty session on a missing path: say it is gone instead.
        if (gonePaths(source, [effect.path]).length > 0) {
          dispatch({ type: 'sessionGone', paths: [effect.path] });
          return;
        }
        dispatch({
          type: 'resumeChecked',
          path: effect.path,
          cwd: effect.cwd,
          cwdExists: (props.folderExists ?? folderExists)(effect.cwd),
          here: props.locations.cwd,
          ...(props.locations.pathMap ? { pathMap: props.locations.pathMap } : {}),
        });
        return;
      case 'labels':
        onOpenLabels(effect.sessions, stateRef.current);
        return;
      case 'scanSecrets':
        scanSecrets(effect.scope);
        return;
      case 'export':
        runPickerExport(source, effect, safeDispatch);
        return;
      case 'exit':
        loads.abortAll();
        onExit(effect.exit);
        return;
    }
  }

  /** One secret scan at a time (a newer one, or leaving the screen, aborts it). */
  const secretScan = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => secretScan.current?.abort(), []);
  function scanSecrets(scope: Scope): void {
    secretScan.current?.abort();
    secretScan.current = new AbortController();
    runSecretScan(source, scope, safeDispatch, secretScan.current.signal);
  }

  // Status messages disappear after a while (errors stay longer).
  const status = state.status;
  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => dispatch({ type: 'clearStatus', id: status.id }), STATUS_MS[status.tone]);
    return () => clearTimeout(timer);
  }, [status, dispatch]);

  const list = currentList(state);
  const sessions = list && list.sessions.length > 0 ? list.sessions : undefined;
  const unprepared = usePreparedTexts(sessions, textPending, () => dispatch({ type: 'textPrepared' }));

  // A `re:` search runs in slices (src/picker/regex-search.ts): the next one on the next turn of
  // the event loop, so keys (Ctrl+C among them) are read between them.
  const { searchPending, rows } = state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: rows is a new array after every pass, so the next slice is scheduled even when the pending count came out the same (new sessions arrived meanwhile)
  useEffect(() => {
    if (searchPending === 0) return;
    const timer = setImmediate(() => dispatch({ type: 'searchMore' }));
    return () => clearImmediate(timer);
  }, [searchPending, rows, dispatch]);

  // Preview of the selected row, read once the cursor rests.
  const selected = selectedRow(state)?.info;
  const preview = usePreview(source, state.preview ? selected : undefined);
  const conflict = useConflictPreview(source, state, selected);

  // --- render --------------------------------------------------------------------------------
  const nowMs = now();
  const layout = computeLayout(size, state.preview, dialogLinesFor(state.mode));
  if (state.mode.kind === 'help') {
    return (
      <Box flexDirection="column" height={layout.height} width={size.columns} overflow="hidden">
        <HelpOverlay
          bindings={state.bindings}
          width={size.columns}
          height={layout.height}
          title="pi-sessions · keys"
          modeTitles={PICKER_MODE_TITLES}
          footer="Esc / ? / q close"
          extra={SEARCH_HELP}
          offset={state.mode.offset}
        />
      </Box>
    );
  }

  const listBox = (
    <Box flexDirection="column" width={layout.listWidth} height={layout.listLines} overflow="hidden">
      {state.rows.length === 0 ? (
        <EmptyState state={state} width={layout.listWidth} />
      ) : (
        <SessionList
          rows={state.rows}
          offset={state.offset}
          lines={layout.listLines}
          width={layout.listWidth}
          cursor={state.cursor}
          marks={state.marks}
          current={state.current}
          rowsQuery={state.rowsQuery}
          showCwd={state.scope !== 'cwd'}
          showPaths={state.showPaths}
          sort={state.sort}
          home={home}
          now={now}
        />
      )}
    </Box>
  );
  const previewData = preview && selected && preview.key === selected ? preview.data : undefined;
  const dialogInfos =
    state.mode.kind === 'rename' ||
    state.mode.kind === 'slimConfirm' ||
    state.mode.kind === 'mergeConfirm' ||
    state.mode.kind === 'export'
      ? [state.rows.find((r) => r.info.path === (state.mode as { path: string }).path)?.info].filter(
          (i): i is SessionInfo => i !== undefined,
        )
      : state.mode.kind === 'confirm'
        ? state.mode.paths.map((p) => findAnywhere(state, p)).filter((i): i is SessionInfo => i !== undefined)
        : [];

  return (
    <Box flexDirection="column" height={layout.height} width={size.columns} overflow="hidden">
      <Header
        text={headerText(state, size.columns, unprepared, props.demo ?? false)}
        width={size.columns}
        query={state.query}
        error={state.parsed.ok ? undefined : state.parsed.error}
        showCursor={state.mode.kind === 'browse'}
      />
      {layout.preview.position === 'side' ? (
        <Box flexDirection="row" height={layout.listLines}>
          {listBox}
          <Box width={1} />
          <PreviewPane
            info={selected}
            current={selected !== undefined && selected.path === state.current}
            data={previewData}
            width={layout.preview.width}
            height={layout.listLines}
            nowMs={nowMs}
            home={home}
            pathMap={state.pathMap}
            border="left"
            {...(conflict ? { conflict } : {})}
          />
        </Box>
      ) : (
        listBox
      )}
      {layout.preview.position === 'bottom' ? (
        <PreviewPane
          info={selected}
          current={selected !== undefined && selected.path === state.current}
          data={previewData}
          width={size.columns}
          height={layout.preview.lines}
          nowMs={nowMs}
          home={home}
          pathMap={state.pathMap}
          border="top"
          {...(conflict ? { conflict } : {})}
        />
      ) : null}
      {layout.dialogLines > 0 ? (
        <PickerDialog
          mode={state.mode}
          infos={dialogInfos}
          shownPaths={new Set(state.rows.map((r) => r.info.path))}
          width={size.columns}
          nowMs={nowMs}
          bindings={state.bindings}
        />
      ) : null}
      <Footer state={state} width={size.columns} listLines={layout.listLines} />
    </Box>
  );
}

function findAnywhere(state: PickerState, path: string): SessionInfo | undefined {
  for (const list of Object.values(state.lists)) {
    const found = list?.sessions.find((s) => s.path === path);
    if (found) return found;
  }
  return undefined;
}
