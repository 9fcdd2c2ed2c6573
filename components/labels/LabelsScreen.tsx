/**
 * The labels view: every label of every session in the picker's scope, one line
 * each (time, label, the entry's text, the session's title and cwd), filtered as the user types.
 * Behaviour lives in src/labels/reducer.ts; this component loads the rows (only the sessions the
 * listing says carry labels are read), turns keys into actions and runs the reducer's effects.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { plural } from '../../src/format.js';
import type { KeyBinding } from '../../src/keymap/keymap.js';
import { LABELS_MODE_TITLES, type LabelsCommand, type LabelsKeyMode } from '../../src/labels/keymap.js';
import {
  initLabelsState,
  type LabelsEffect,
  type LabelsState,
  labelsKey,
  labelsReducer,
  labelsTakesKeys,
  resumeLabelsState,
  selectedLabel,
} from '../../src/labels/reducer.js';
import {
  FORK_MARK,
  forkNote,
  type LabelRow,
  labelRowsOfAsync,
  sessionsWithLabels,
  sortLabelRows,
} from '../../src/labels/rows.js';
import { labelTimeColumn, type TimeColumn } from '../../src/labels/time-column.js';
import { goneMessage } from '../../src/state/session-gone.js';
import { isGoneSync, type SessionInfo } from '../../src/store/index.js';
import { displayWidth, padEndToWidth, sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';
import { HelpOverlay } from '../common/HelpOverlay.js';
import { KeyHints } from '../common/KeyHints.js';
import { TextInputView } from '../common/TextInputView.js';
import { useEffectRunner } from '../common/use-effect-runner.js';
import { useScreenKeys } from '../common/use-screen-keys.js';
import { useSyncReducer } from '../common/use-sync-reducer.js';
import { useTerminalSize } from '../common/use-terminal-size.js';

export type LabelsExit = { kind: 'quit'; code: number };

/** Reads the label rows of the sessions in scope; tests inject their own. */
export type LabelRowsLoader = (sessions: readonly SessionInfo[]) => Promise<{ rows: LabelRow[]; problems: string[] }>;

export const loadLabelRows: LabelRowsLoader = async (sessions) => {
  const rows: LabelRow[] = [];
  const problems: string[] = [];
  for (const info of sessionsWithLabels(sessions)) {
    const got = await labelRowsOfAsync(info);
    if ('problem' in got) problems.push(got.problem);
    else rows.push(...got);
  }
  return { rows: sortLabelRows(rows), problems };
};

export interface LabelsScreenProps {
  /** The sessions of the picker's current scope. */
  sessions: readonly SessionInfo[];
  /** The state it had when it opened a tree (Esc from that tree comes back to it). */
  initialState?: LabelsState;
  /** The keymap (default LABELS_BINDINGS; pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
  bindings?: readonly KeyBinding<LabelsCommand, LabelsKeyMode>[];
  onOpen(row: LabelRow, state: LabelsState): void;
  onBack(): void;
  onExit(result: LabelsExit): void;
  load?: LabelRowsLoader;
  now?: () => number;
  /** Whether a session's file was deleted or moved since it was listed (default: the file system's answer). */
  isGone?: (path: string) => boolean;
}

// Title, filter line, list, selected row's session, key hints.
const CHROME_ROWS = 4;

export function LabelsScreen(props: LabelsScreenProps) {
  const { columns, rows } = useTerminalSize();
  const listLines = Math.max(1, rows - 1 - CHROME_ROWS);
  const machine = useSyncReducer(labelsReducer, () =>
    props.initialState
      ? resumeLabelsState(props.initialState)
      : initLabelsState({ listLines, ...(props.bindings ? { bindings: props.bindings } : {}) }),
  );
  const { state, dispatch } = machine;
  useScreenKeys(machine, labelsKey, labelsTakesKeys);

  useEffect(() => {
    dispatch({ type: 'resize', listLines });
  }, [listLines, dispatch]);

  const [loadError, setLoadError] = useState<string | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reads once per set of sessions: props.initialState only decides at mount whether to resume instead, and props.load (tests pass an inline loader) is no reason to read the rows again
  useEffect(() => {
    if (props.initialState) return;
    let cancelled = false;
    (props.load ?? loadLabelRows)(props.sessions)
      .then((got) => {
        if (!cancelled) dispatch({ type: 'loaded', rows: got.rows, problems: got.problems });
      })
      .catch((error: unknown) => {
        if (!cancelled) setLoadError(error instanceof Error ? error.message : String(error));
      });
    return () => {
      cancelled = true;
    };
  }, [props.sessions, dispatch]);

  useEffectRunner(
    state.effects,
    (effect: LabelsEffect) => effect.id,
    (effect) => {
      if (effect.kind === 'open') {
        const path = effect.row.session.path;
        if ((props.isGone ?? isGoneSync)(path))
          dispatch({ type: 'sessionGone', path, message: goneMessage([path], columns) });
        else props.onOpen(effect.row, machine.ref.current);
      } else if (effect.kind === 'back') props.onBack();
      else props.onExit({ kind: 'quit', code: 130 });
    },
    (upTo) => dispatch({ type: 'effectsTaken', upTo }),
  );

  const width = columns;
  const now = (props.now ?? Date.now)();
  const height = Math.max(1, rows - 1);
  if (state.mode === 'help') {
    return (
      <Box flexDirection="column" height={height} overflow="hidden">
        <HelpOverlay
          bindings={state.bindings}
          modeTitles={LABELS_MODE_TITLES}
          width={width}
          height={height - 1}
          title="Labels view keys"
          footer=""
        />
        <KeyHints bindings={state.bindings} mode="help" width={width} />
      </Box>
    );
  }
  const selected = selectedLabel(state);
  const count = state.loading
    ? 'loading…'
    : state.filter.value === ''
      ? plural(state.rows.length, 'label')
      : `${state.shown.length} of ${plural(state.rows.length, 'label')}`;
  const list: React.JSX.Element[] = [];
  const end = Math.min(state.shown.length, state.offset + state.listLines);
  const drawn = state.shown.slice(state.offset, end).map((at) => state.rows[at]!);
  // The labels drawn share one column width, so their texts start in one column.
  const labelWidth = Math.max(0, ...drawn.map((row) => displayWidth(labelCell(row))));
  const timeColumn = labelTimeColumn(
    state.rows.map((row) => row.time),
    now,
  );
  drawn.forEach((row, i) => {
    list.push(
      <LabelLine
        key={`${row.session.path}\n${row.entryId}`}
        row={row}
        selected={state.offset + i === state.cursor}
        width={width}
        timeColumn={timeColumn}
        labelWidth={labelWidth}
        forked={row.copiedFrom !== null}
      />,
    );
  });
  const empty =
    loadError !== undefined
      ? `Cannot read the labels: ${sanitizeInline(loadError)}`
      : state.loading
        ? 'Reading labels…'
        : state.rows.length === 0
          ? 'No labels in this scope'
          : 'No label matches the filter';
  const problem =
    state.problems.length > 0
      ? `${plural(state.problems.length, 'session')} could not be read: ${sanitizeInline(state.problems[0]!)}`
      : undefined;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text wrap="truncate-end">
        <Text bold>Labels</Text>
        <Text dimColor>{` · ${count}`}</Text>
      </Text>
      <TextInputView
        state={state.filter}
        width={width}
        prompt="Filter: "
        placeholder="type to filter labels, entries and sessions"
      />
      <Box flexDirection="column" height={state.listLines} overflow="hidden">
        {list.length > 0 ? list : <Text dimColor>{`  ${empty}`}</Text>}
      </Box>
      <Text
        dimColor={state.gone === undefined}
        color={state.gone === undefined ? undefined : 'red'}
        wrap="truncate-end"
      >
        {(state.gone === undefined ? undefined : `✗ ${sanitizeInline(state.gone)}`) ??
          problem ??
          (selected ? sanitizeInline(selectedDetail(selected, state.rows), { newline: 'space' }) : ' ')}
      </Text>
      <KeyHints bindings={state.bindings} mode="browse" width={width} />
    </Box>
  );
}

/** One label: time, [label], the entry's text, then its session's title and cwd, on one line. */
const labelCell = (row: LabelRow): string =>
  `[${truncateToWidth(sanitizeInline(row.label, { newline: 'space' }), 24)}]`;

/** The line under the list: the selected label's session in full, and for a fork's copy where it came from. */
function selectedDetail(row: LabelRow, rows: readonly LabelRow[]): string {
  const where = `${row.session.title} · ${row.session.cwd} · ${row.session.path}`;
  const note = forkNote(row, rows);
  return note === undefined ? where : `${FORK_MARK} copied ${note} (${row.copiedFrom}) · ${where}`;
}

function LabelLine({
  row,
  selected,
  width,
  timeColumn,
  labelWidth,
  forked,
}: {
  row: LabelRow;
  selected: boolean;
  width: number;
  timeColumn: TimeColumn;
  labelWidth: number;
  forked: boolean;
}) {
  const time = timeColumn.format(row.time);
  const label = padEndToWidth(labelCell(row), labelWidth);
  // The session column starts at the same place on every line: the text takes what is left.
  const sessionWidth = Math.max(10, Math.floor(width * 0.35));
  // A fork's copy of its parent's label reads as such where the two would otherwise look the same.
  const session = truncateToWidth(
    sanitizeInline(`${forked ? `${FORK_MARK} in fork · ` : ''}${row.session.title} · ${row.session.cwd}`, {
      newline: 'space',
    }),
    sessionWidth,
  );
  const lead = `${selected ? '›' : ' '} ${time} `;
  const head = `${lead}${label} `;
  const textWidth = Math.max(4, width - 1 - displayWidth(head) - sessionWidth - 3);
  const text = row.text === null ? '(entry missing)' : sanitizeInline(row.text, { newline: 'space' });
  return (
    <Text wrap="truncate-end" inverse={selected}>
      <Text>{lead}</Text>
      <Text color="yellow">{label}</Text>
      <Text> </Text>
      <Text>{padEndToWidth(truncateToWidth(text, textWidth), textWidth)}</Text>
      <Text dimColor={!selected}>{` │ ${session}`}</Text>
    </Text>
  );
}
