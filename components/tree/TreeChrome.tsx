/** The tree screen's query line (search or a prompt) and its position counter. */
import { Text } from 'ink';
import { plural } from '../../src/format.js';
import { sanitizeInline, truncateToWidth } from '../../src/text/terminal-text.js';
import { FILTER_TAGS, piRowCount } from '../../src/tree/flatten.js';
import { matchPosition, type TreeState } from '../../src/tree/reducer.js';
import { TextInputView } from '../common/TextInputView.js';
import { leafLegend } from './TreeRow.js';

export function QueryLine({ state, width }: { state: TreeState; width: number }) {
  if (state.mode.kind === 'labelInput')
    return <TextInputView state={state.mode.input} width={width} prompt="Label (empty to remove): " />;
  if (state.mode.kind === 'summaryInput')
    return <TextInputView state={state.mode.input} width={width} prompt="Summary of the branch you leave: " />;
  if (state.query === '') return <Text dimColor>Type to search</Text>;
  const pos = matchPosition(state);
  const info = pos
    ? `  ${pos.current > 0 ? `${pos.current}/` : ''}${plural(pos.total, 'match', 'matches')}${pos.hiddenByFolds > 0 ? ` (+${pos.hiddenByFolds} in folds)` : ''}`
    : '';
  return (
    <Text wrap="truncate-end">
      <Text dimColor>Search: </Text>
      {sanitizeInline(state.query)}
      <Text inverse> </Text>
      <Text dimColor>{info}</Text>
    </Text>
  );
}

export function Counter({ state, width }: { state: TreeState; width: number }) {
  const total = state.layout.count;
  const tag = FILTER_TAGS[state.filter];
  const legend = leafLegend(state.forest);
  const pi = state.query === '' ? piRowCount(state.forest.index, state.layout) : total;
  const text = `(${total === 0 ? 0 : state.cursor + 1}/${total})${tag ? ` ${tag}` : ''}${state.labelTimes ? ' [+label time]' : ''}${pi === total ? '' : ` · pi shows ${pi}`}${legend ? `  ${legend}` : ''}`;
  return (
    <Text dimColor wrap="truncate-end">
      {truncateToWidth(text, width)}
    </Text>
  );
}
