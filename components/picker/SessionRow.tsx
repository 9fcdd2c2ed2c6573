/**
 * One list row, exactly one terminal line. The text comes from `formatRow` (pure, tested); this
 * component only adds colour. Everything colour says is also said by a glyph: `›` cursor,
 * `●` marked, `★` named, `◉ live`.
 */
import { Text } from 'ink';
import type { RowView } from '../../src/picker/layout.js';

export function SessionRow({ view, selected, marked }: { view: RowView; selected: boolean; marked: boolean }) {
  return (
    <Text wrap="truncate-end" bold={selected}>
      <Text color="cyan">{view.lead.slice(0, 1)}</Text>
      <Text color="magenta">{view.lead.slice(1)}</Text>
      <Text dimColor>{view.prefix}</Text>
      <Text color="yellow">{view.nameMark}</Text>
      <Text color={marked ? 'magenta' : view.named ? 'yellow' : undefined}>
        {view.title}
      </Text>
      {view.snippet ? (
        <Text dimColor={!selected}>
          {' · '}
          {view.snippet.before}
          <Text inverse>{view.snippet.match}</Text>
          {view.snippet.after}
        </Text>
      ) : null}
      <Text>{view.gap}</Text>
      {view.live ? <Text color="green">{view.right}</Text> : <Text dimColor>{view.right}</Text>}
    </Text>
  );
}
