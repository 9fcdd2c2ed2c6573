/**
 * The check view: the audit of the picker's scope, full screen, grouped by file, or (`s`) the
 * sessions the secret scan finds credentials in. Behaviour is in src/check/reducer.ts; this
 * component runs the audit (a file per event-loop turn, so keys stay live), draws the visible
 * lines and runs the reducer's effects (the secret scan among them).
 */
import { Box, Text } from 'ink';
import { useEffect, useMemo, useRef } from 'react';
import { scanStoreSecretsCached } from '../../src/catalog/index.js';
import { CHECK_MODE_TITLES, type CheckCommand, type CheckKeyMode } from '../../src/check/keymap.js';
import {
  type CheckEffect,
  type CheckState,
  checkKey,
  checkReducer,
  checkTakesKeys,
  initialCheckState,
  resumeCheckState,
} from '../../src/check/reducer.js';
import type { CheckTone } from '../../src/check/view.js';
import type { KeyBinding } from '../../src/keymap/keymap.js';
import { goneMessage } from '../../src/state/session-gone.js';
import {
  type CheckReport,
  checkScope,
  firstLineOf,
  isGoneSync,
  type ListScope,
  type Locations,
  type SecretReport,
} from '../../src/store/index.js';
import { fitPaths } from '../../src/text/elide-path.js';
import { truncateToWidth } from '../../src/text/terminal-text.js';
import { HelpOverlay } from '../common/HelpOverlay.js';
import { KeyHints } from '../common/KeyHints.js';
import { StatusLine } from '../common/StatusLine.js';
import { useEffectRunner } from '../common/use-effect-runner.js';
import { useScreenKeys } from '../common/use-screen-keys.js';
import { useSyncReducer } from '../common/use-sync-reducer.js';
import { useTerminalSize } from '../common/use-terminal-size.js';

/** Runs the audit; tests inject one. */
export type RunCheck = (onProgress: (done: number, total: number) => void, signal: AbortSignal) => Promise<CheckReport>;

/** Runs the secret scan of the scope (`s`); tests inject one. */
export type RunSecretScan = (
  onProgress: (done: number, total: number) => void,
  signal: AbortSignal,
) => Promise<SecretReport>;

/** How often the secret scan's progress is drawn. */
const SECRET_PROGRESS_MS = 200;

export interface CheckScreenProps {
  locations: Locations;
  scope: ListScope;
  /** The state handed out by onOpenTree, to come back to the same place (the audit is not re-run). */
  initialState?: CheckState;
  /** The keymap (default CHECK_BINDINGS; pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
  bindings?: readonly KeyBinding<CheckCommand, CheckKeyMode>[];
  onOpenTree(path: string, state: CheckState): void;
  onBack(): void;
  onQuit(): void;
  run?: RunCheck;
  runSecrets?: RunSecretScan;
  /** `--no-cache`: the secret scan neither reads nor writes the catalogue. */
  noCache?: boolean;
  /** The clock a key is read at: a click needs it (is it a double click?). */
  now?: () => number;
}

// Title, the footer (status or hints).
const CHROME_ROWS = 2;

const TONES: Record<CheckTone, { color?: string; dimColor?: boolean; bold?: boolean }> = {
  heading: { bold: true },
  file: { bold: true, color: 'cyan' },
  error: { color: 'red' },
  warning: { color: 'yellow' },
  dim: { dimColor: true },
  plain: {},
};

export function CheckScreen(props: CheckScreenProps) {
  const { columns, rows } = useTerminalSize();
  const height = Math.max(1, rows - 1 - CHROME_ROWS);
  const machine = useSyncReducer(checkReducer, () =>
    props.initialState ? resumeCheckState(props.initialState) : initialCheckState(height, props.bindings, columns),
  );
  const { state, dispatch } = machine;
  const now = props.now ?? Date.now;
  useScreenKeys(machine, (keypress) => checkKey(keypress, now()), checkTakesKeys);
  const run = useMemo<RunCheck>(
    () => props.run ?? ((onProgress, signal) => checkScope(props.locations, props.scope, { onProgress, signal })),
    [props.run, props.locations, props.scope],
  );

  const runSecrets = useMemo<RunSecretScan>(
    () =>
      props.runSecrets ??
      (async (onProgress, signal) => {
        const report = await scanStoreSecretsCached(props.locations, props.scope, {
          cache: !props.noCache,
          onProgress,
          signal,
        });
        // Saved in the background: a failed save only costs the next scan its time.
        void report.saved;
        return report;
      }),
    [props.runSecrets, props.locations, props.scope, props.noCache],
  );
  const secretScan = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => secretScan.current?.abort(), []);
  function scanSecrets(): void {
    secretScan.current?.abort();
    const controller = new AbortController();
    secretScan.current = controller;
    let shownAt = 0;
    runSecrets((done, total) => {
      const at = Date.now();
      if (at - shownAt < SECRET_PROGRESS_MS && done < total) return;
      shownAt = at;
      dispatch({ type: 'secretsProgress', done, total });
    }, controller.signal)
      .then((report) => {
        if (!controller.signal.aborted) dispatch({ type: 'secretsReport', report });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          dispatch({
            type: 'secretsReport',
            report: { searched: '', files: [], dirProblem: `the secret scan failed: ${firstLineOf(error)}` },
          });
      });
  }

  useEffect(() => {
    dispatch({ type: 'resize', height, width: columns });
  }, [height, columns, dispatch]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: props.initialState only decides at mount whether this screen resumes a finished check or runs one; a new value must not abort or restart the run
  useEffect(() => {
    if (props.initialState) return;
    const controller = new AbortController();
    run((done, total) => dispatch({ type: 'progress', done, total }), controller.signal)
      .then((report) => {
        if (!controller.signal.aborted) dispatch({ type: 'report', report });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted)
          dispatch({
            type: 'report',
            report: { searched: '', files: [], dirProblem: `the check failed: ${(error as Error).message}` },
          });
      });
    return () => controller.abort();
  }, [run, dispatch]);

  useEffectRunner(
    state.effects,
    (effect: CheckEffect) => effect.id,
    (effect) => {
      if (effect.kind === 'open') {
        // The audit read it a moment ago; it may have been deleted or moved since.
        if (isGoneSync(effect.path))
          dispatch({ type: 'sessionGone', path: effect.path, message: goneMessage([effect.path], columns) });
        else props.onOpenTree(effect.path, machine.ref.current);
      } else if (effect.kind === 'scanSecrets') scanSecrets();
      else if (effect.kind === 'back') props.onBack();
      else props.onQuit();
    },
    (upTo) => dispatch({ type: 'effectsTaken', upTo }),
  );

  if (state.mode === 'help') {
    return (
      <Box flexDirection="column" height={Math.max(1, rows - 1)} width={columns} overflow="hidden">
        <HelpOverlay
          bindings={state.bindings}
          modeTitles={CHECK_MODE_TITLES}
          width={columns}
          height={Math.max(1, rows - 2)}
          title="Check view keys"
          footer=""
        />
        <KeyHints bindings={state.bindings} mode="help" width={columns} />
      </Box>
    );
  }
  const checking = state.progress ? ` · checking ${state.progress.done}/${state.progress.total} files…` : '';
  const title = `Check${state.secrets.on ? ' · secrets' : ''}${checking}`;
  const selected = state.view.files[state.cursor];
  const visible = state.view.lines.slice(state.offset, state.offset + height);
  return (
    <Box flexDirection="column" height={Math.max(1, rows - 1)} width={columns} overflow="hidden">
      <Text bold wrap="truncate-end">
        {truncateToWidth(title, columns)}
      </Text>
      <Box flexDirection="column" height={height} overflow="hidden">
        {visible.map((line, i) => {
          const index = state.offset + i;
          const mark = selected && index === selected.first ? '› ' : '  ';
          return (
            <Text key={index} wrap="truncate-end" {...TONES[line.tone]}>
              {truncateToWidth(fitPaths(`${mark}${line.text}`, columns), columns) || ' '}
            </Text>
          );
        })}
      </Box>
      {state.status ? (
        <StatusLine message={{ kind: 'error', text: state.status }} width={columns} />
      ) : (
        <KeyHints bindings={state.bindings} mode="list" width={columns} />
      )}
    </Box>
  );
}
