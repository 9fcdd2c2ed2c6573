/**
 * One list row, exactly one terminal line. The text comes from `formatRow` (pure, tested); this
 * component only adds colour. Everything colour says is also said by a glyph: `›` cursor,
 * `●` marked, `[current]` the session pi is in, `⇄2` a session with conflict copies, `★` named, `◉ live`.
 */
import { Text } from 'ink';
import { memo } from 'react';
import type { RowView } from '../../src/picker/layout.js';

interface SessionRowProps {
  view: RowView;
  selected: boolean;
  marked: boolean;
}

function SessionRowView({ view, selected, marked }: SessionRowProps) {
  // Empty parts get no span: ink walks, styles and measures every span of every row on each frame,
  // and an empty span adds nothing to the line (most rows have no prefix, marks or snippet).
  return (
    <Text wrap="truncate-end" bold={selected}>
      <Text color="cyan">{view.lead.slice(0, 1)}</Text>
      <Text color="magenta">{view.lead.slice(1)}</Text>
      {view.prefix !== '' ? <Text dimColor>{view.prefix}</Text> : null}
      {view.currentMark !== '' ? <Text color="green">{view.currentMark}</Text> : null}
      {view.conflictMark !== '' ? <Text color="red">{view.conflictMark}</Text> : null}
      {view.nameMark !== '' ? <Text color="yellow">{view.nameMark}</Text> : null}
      <Text color={marked ? 'magenta' : view.named ? 'yellow' : undefined}>{view.title}</Text>
      {view.snippet ? (
        <Text dimColor={!selected}>
          {' · '}
          {view.snippet.tag !== '' ? <Text color="blue">{view.snippet.tag}</Text> : null}
          {view.snippet.before}
          <Text inverse>{view.snippet.match}</Text>
          {view.snippet.after}
        </Text>
      ) : null}
      {view.gap}
      {view.right === '' ? null : view.live ? (
        <Text color="green">{view.right}</Text>
      ) : (
        <Text dimColor>{view.right}</Text>
      )}
    </Text>
  );
}

/** Same text in the same places: `formatRow` builds a new view object on every render. */
function sameView(a: RowView, b: RowView): boolean {
  return (
    a.lead === b.lead &&
    a.prefix === b.prefix &&
    a.currentMark === b.currentMark &&
    a.nameMark === b.nameMark &&
    a.conflictMark === b.conflictMark &&
    a.title === b.title &&
    a.gap === b.gap &&
    a.right === b.right &&
    a.live === b.live &&
    a.named === b.named &&
    a.snippet?.tag === b.snippet?.tag &&
    a.snippet?.before === b.snippet?.before &&
    a.snippet?.match === b.snippet?.match &&
    a.snippet?.after === b.snippet?.after
  );
}

/** A cursor move changes two rows: the others are not rendered again. */
export const SessionRow = memo(
  SessionRowView,
  (a, b) => a.selected === b.selected && a.marked === b.marked && sameView(a.view, b.view),
);
