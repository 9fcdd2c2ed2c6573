/**
 * One list row, exactly one terminal line: one text node, its text from `formatRow` and its
 * colours from `paintRow` (both pure, tested), so a frame gives ink one node per row to walk. Everything colour says is also said by a glyph: `›` cursor,
 * `●` marked, `[current]` the session pi is in, `⇄2` a session with conflict copies, `★` named, `◉ live`.
 */
import { Text } from 'ink';
import { memo } from 'react';
import type { RowView } from '../../src/picker/layout.js';
import { paintRow } from '../../src/picker/row-paint.js';

interface SessionRowProps {
  view: RowView;
  selected: boolean;
  marked: boolean;
}

function SessionRowView({ view, selected, marked }: SessionRowProps) {
  return (
    <Text wrap="truncate-end" bold={selected}>
      {paintRow(view, selected, marked)}
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
