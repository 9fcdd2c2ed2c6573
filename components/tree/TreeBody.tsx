/** The tree screen's main area: the help, the detail view, or the query line, the visible rows and the counter. */
import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { detailPosition, detailRows, visibleDetail } from '../../src/tree/detail-view.js';
import { formatLabelTime } from '../../src/tree/entry-display.js';
import { displayOf, rowAt } from '../../src/tree/flatten.js';
import { TREE_MODE_TITLES } from '../../src/tree/keymap.js';
import { panOffset } from '../../src/tree/pan.js';
import { TREE_FILTER_HELP, type TreeState, treeHelpHeight } from '../../src/tree/reducer.js';
import { HelpOverlay } from '../common/HelpOverlay.js';
import { Counter, QueryLine } from './TreeChrome.js';
import { type RowInput, rowBody, TreeRow, toneColor, toneDim } from './TreeRow.js';

export function TreeBody(props: { state: TreeState; width: number; listHeight: number; now: () => number }) {
  const { state, width, listHeight, now } = props;
  const mode = state.mode;
  if (mode.kind === 'help') {
    return (
      <HelpOverlay
        bindings={state.bindings}
        modeTitles={TREE_MODE_TITLES}
        extra={TREE_FILTER_HELP}
        width={width}
        height={treeHelpHeight(listHeight)}
        title="Tree navigator keys"
        footer=""
        offset={mode.offset}
      />
    );
  }
  if (mode.kind === 'detail') {
    const d = mode.detail;
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
  const { index, layout } = state;
  const tokens = state.search?.tokens ?? [];
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
}
