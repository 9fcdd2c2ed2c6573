/**
 * The stats screen, opened from the picker: the usage of the picker's scope as charts (the same
 * lines as `pi-sessions stats`, src/stats/report-lines.ts), scrolled by the pure reducer in
 * src/stats/reducer.ts (the wheel and clicks too). Esc goes back to the picker, which App keeps
 * as it was; Enter on a session or branch row hands App that session to open, and this screen's
 * state to come back to.
 */
import { Box, Text } from 'ink';
import { type ReactNode, useEffect, useMemo } from 'react';
import { plural } from '../../src/format.js';
import type { KeyBinding } from '../../src/keymap/keymap.js';
import type { ChartLine, ChartStyle } from '../../src/stats/chart.js';
import { STATS_MODE_TITLES, type StatsCommand, type StatsKeyMode } from '../../src/stats/keymap.js';
import { statsReducer } from '../../src/stats/reducer.js';
import type { RowTarget } from '../../src/stats/report-lines.js';
import {
  CURSOR_GUTTER,
  chartLinesOf,
  initStatsState,
  resumeStatsState,
  type StatsScreenState,
  selectedLine,
  statsKey,
  statsTakesKeys,
} from '../../src/stats/screen-state.js';
import { type StatsReport, statsOfFilesAsync } from '../../src/store/index.js';
import { sanitizeInline } from '../../src/text/terminal-text.js';
import { HelpOverlay } from '../common/HelpOverlay.js';
import { KeyHints } from '../common/KeyHints.js';
import { useScreenKeys } from '../common/use-screen-keys.js';
import { useSyncReducer } from '../common/use-sync-reducer.js';
import { useTerminalSize } from '../common/use-terminal-size.js';

export interface StatsScreenProps {
  /** The session files of the picker's scope. */
  paths: readonly string[];
  /** What the scope is, for the title ("this folder", "all projects"). */
  scopeTitle: string;
  /** The folder the scope searched (the report's "Usage in …"). */
  searched: string;
  /** The keymap (default STATS_BINDINGS; pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
  bindings?: readonly KeyBinding<StatsCommand, StatsKeyMode>[];
  /** The state handed out by onOpenTree, to come back to the same place (the report is not read again). */
  initialState?: StatsScreenState;
  onBack(): void;
  /** Enter on a session or branch row: its session's tree, at the branch's leaf when the row is a branch. */
  onOpenTree(target: RowTarget, state: StatsScreenState): void;
  onExit(result: { kind: 'quit'; code: number }): void;
  /** Reads the files and adds up their usage; undefined once aborted (tests inject a fake). */
  readStats?: (paths: readonly string[], searched: string, signal: AbortSignal) => Promise<StatsReport | undefined>;
  /** The clock a key is read at: a click needs it (is it a double click?). */
  now?: () => number;
}

// The title line and the key line.
const CHROME_ROWS = 2;

const readStoreStats = (
  paths: readonly string[],
  searched: string,
  signal: AbortSignal,
): Promise<StatsReport | undefined> => statsOfFilesAsync(paths, { searched, signal });

const SEGMENT_PROPS: Readonly<Record<ChartStyle, { bold?: boolean; color?: string; dimColor?: boolean }>> = {
  heading: { bold: true },
  bar: { color: 'cyan' },
  spark: { color: 'cyan' },
  dim: { dimColor: true },
  abandoned: { color: 'yellow' },
};

function ChartRow({ line, selected }: { line: ChartLine; selected: boolean }) {
  if (line.length === 0) return <Text> </Text>;
  return (
    <Text wrap="truncate-end">
      {selected ? '› ' : ' '.repeat(CURSOR_GUTTER)}
      <Text inverse={selected}>
        {line.map((segment, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a line's segments are stateless text in a fixed order; their place in the line is their identity
          <Text key={i} {...(segment.style ? SEGMENT_PROPS[segment.style] : {})}>
            {segment.text}
          </Text>
        ))}
      </Text>
    </Text>
  );
}

export function StatsScreen(props: StatsScreenProps) {
  const { columns, rows } = useTerminalSize();
  const viewLines = Math.max(1, rows - 1 - CHROME_ROWS);
  const machine = useSyncReducer(statsReducer, () =>
    props.initialState ? resumeStatsState(props.initialState) : initStatsState({ columns, viewLines }, props.bindings),
  );
  const { state, dispatch } = machine;
  const now = props.now ?? Date.now;
  useScreenKeys(machine, (keypress) => statsKey(keypress, now()), statsTakesKeys);
  const { paths, searched, onBack, onOpenTree, onExit } = props;
  const resumed = props.initialState?.load.kind === 'loaded';
  const readStats = props.readStats ?? readStoreStats;

  useEffect(() => {
    dispatch({ type: 'resize', columns, viewLines });
  }, [columns, viewLines, dispatch]);

  // Read file by file while "Reading…" is on screen; Esc meanwhile leaves and stops the reading.
  useEffect(() => {
    // Back from a tree opened here: the report on screen is the one it was.
    if (resumed) return;
    const controller = new AbortController();
    readStats(paths, searched, controller.signal).then(
      (report) => {
        if (report && !controller.signal.aborted) dispatch({ type: 'loaded', report });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          dispatch({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [paths, searched, readStats, dispatch, resumed]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: calls onBack/onExit once, when the screen starts leaving; the callbacks are new closures on each parent render and must not be called again
  useEffect(() => {
    const leaving = state.leaving;
    if (leaving?.kind === 'back') onBack();
    else if (leaving?.kind === 'quit') onExit({ kind: 'quit', code: 130 });
    else if (leaving?.kind === 'openTree') onOpenTree(leaving.target, state);
  }, [state.leaving]);

  const lines = chartLinesOf(state);
  const selected = selectedLine(state);
  const title = useMemo(() => {
    // Once read, the sessions the report counts (the body's "in N of M sessions"), not the paths asked for.
    const count = state.load.kind === 'loaded' ? state.load.report.bySession.length : paths.length;
    const base = `Usage stats · ${sanitizeInline(props.scopeTitle)} · ${plural(count, 'session')}`;
    if (lines.length <= state.viewLines) return base;
    const last = Math.min(lines.length, state.offset + state.viewLines);
    return `${base} · lines ${state.offset + 1}–${last} of ${lines.length}`;
  }, [props.scopeTitle, paths.length, state.load, lines.length, state.offset, state.viewLines]);

  let body: ReactNode;
  if (state.mode === 'help') {
    body = (
      <HelpOverlay
        bindings={state.bindings}
        modeTitles={STATS_MODE_TITLES}
        width={columns}
        height={viewLines}
        title="Usage stats keys"
        footer=""
      />
    );
  } else if (state.load.kind === 'loading') {
    body = <Text dimColor>{`Reading ${plural(paths.length, 'session')}…`}</Text>;
  } else if (state.load.kind === 'failed') {
    body = (
      <Text color="red" wrap="truncate-end">
        {`Cannot read the usage: ${sanitizeInline(state.load.message)}`}
      </Text>
    );
  } else {
    body = lines
      .slice(state.offset, state.offset + state.viewLines)
      // biome-ignore lint/suspicious/noArrayIndexKey: chart lines have no id; offset + i is the line's index in the whole chart, stable while scrolling
      .map((line, i) => <ChartRow key={state.offset + i} line={line} selected={state.offset + i === selected} />);
  }
  return (
    <Box flexDirection="column" height={Math.max(1, rows - 1)} overflow="hidden">
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      <Box flexDirection="column" height={viewLines} overflow="hidden">
        {body}
      </Box>
      <KeyHints bindings={state.bindings} mode={state.mode} width={columns} />
    </Box>
  );
}
