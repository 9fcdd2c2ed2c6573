/**
 * Conflict copies as one picker row: the original's row stands for the group (`⇄2`), a copy that
 * alone matches a search still shows it, a fork of a copy nests under it, and a file merely named
 * like a copy (another session id, or no original beside it) stays a row of its own. Sorting,
 * the named filter and marks work on the row as on any other.
 */
import { describe, expect, it } from 'vitest';
import {
  conflictFolding,
  foldConflictMatches,
  foldedParents,
  markConflictRows,
} from '../../src/picker/conflict-rows.js';
import { formatRow, rightColumns, rowText } from '../../src/picker/layout.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import { parentsIn, sortRows } from '../../src/picker/sort.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const NAME = '/s/2026-01-05T09-00-00-000Z_019b';
const ID = 'same-session-id';
const original = makeInfo({ path: `${NAME}.jsonl`, id: ID, ageMs: 2 * DAY, allMessagesText: 'laptop work' });
const copy = makeInfo({
  path: `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`,
  id: ID,
  ageMs: DAY,
  allMessagesText: 'server only words',
});
const dropbox = makeInfo({ path: `${NAME} (conflicted copy).jsonl`, id: ID, ageMs: 3 * DAY });
const other = makeInfo({ path: '/s/other.jsonl', ageMs: 4 * DAY, allMessagesText: 'server only words too' });
/** Named like a copy, but another session: a row of its own. */
const stranger = makeInfo({ path: `${NAME}.conflict-old.jsonl`, id: 'another-id', ageMs: 5 * DAY });
/** A copy whose original is not listed: nothing to fold it into. */
const orphan = makeInfo({ path: '/s/gone.sync-conflict-20260105-130000-7QKMJ3X.jsonl', ageMs: 6 * DAY });
const forkOfCopy = makeInfo({ path: '/s/fork.jsonl', ageMs: 7 * DAY, parentSessionPath: copy.path });
const sessions: SessionInfo[] = [copy, original, dropbox, other, stranger, orphan, forkOfCopy];

const key = (name: string, text = name.length === 1 ? name : ''): PickerAction =>
  ({ type: 'key', name, text, paste: false, nowMs: NOW }) as PickerAction;
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
const typed = (state: PickerState, text: string): PickerState => run(state, ...[...text].map((ch) => key(ch, ch)));
function loaded(): PickerState {
  const s = initialPickerState({ printMode: false, columns: 120, rows: 20, scope: 'cwd' });
  return run(s, { type: 'loadDone', scope: 'cwd', searched: '/s', skipped: 0, sessions });
}
const paths = (s: PickerState): string[] => s.rows.map((r) => r.info.path);

describe('conflictFolding', () => {
  it('groups the copies holding the original’s id under it, once per list', () => {
    const folding = conflictFolding(sessions);
    expect([...folding.groups.keys()]).toEqual([original.path]);
    expect(
      folding.groups
        .get(original.path)
        ?.copies.map((c) => c.path)
        .sort(),
    ).toEqual([copy.path, dropbox.path].sort());
    expect(folding.groups.get(original.path)?.group.copies.find((c) => c.path === copy.path)?.device).toBe('7QKMJ3X');
    expect(folding.originalOf.get(copy.path)).toBe(original);
    expect(folding.originalOf.has(stranger.path)).toBe(false);
    expect(folding.originalOf.has(orphan.path)).toBe(false);
    expect(conflictFolding(sessions)).toBe(folding);
  });

  it('folds a copy’s match into the original, with the best rank, keeping only the original’s snippet', () => {
    const folding = conflictFolding(sessions);
    const hit = { start: 0, length: 3 };
    expect(foldConflictMatches([{ info: copy, score: 2 }], folding)).toEqual([{ info: original, score: 2 }]);
    expect(
      foldConflictMatches(
        [
          { info: copy, score: 1, textHit: hit },
          { info: original, score: 5, textHit: hit },
          { info: dropbox, score: 3 },
        ],
        folding,
      ),
    ).toEqual([{ info: original, score: 1, textHit: hit }]);
    expect(
      foldConflictMatches(
        [
          { info: original, score: 4 },
          { info: copy, score: 2, textHit: hit },
        ],
        folding,
      ),
    ).toEqual([{ info: original, score: 2 }]);
  });

  it('nests a fork of a copy under the original and marks the row with the files it stands for', () => {
    const folding = conflictFolding(sessions);
    const matches = foldConflictMatches(
      sessions.map((info) => ({ info, score: 0 })),
      folding,
    );
    const rows = markConflictRows(
      sortRows(matches, 'threaded', false, foldedParents(parentsIn(sessions), folding)),
      folding,
    );
    expect(rows.map((r) => [r.info.path, r.prefix, r.conflictFiles])).toEqual([
      [original.path, '', 3],
      [forkOfCopy.path, '   └─ ', undefined],
      [other.path, '', undefined],
      [stranger.path, '', undefined],
      [orphan.path, '', undefined],
    ]);
    const row = rows[0]!;
    const text = rowText(
      formatRow(row, {
        width: 100,
        columns: rightColumns(100, { showPath: false, showCwd: false }),
        selected: false,
        marked: false,
        nowMs: NOW,
        home: '/home/u',
      }),
    );
    expect(text).toContain('⇄3 first prompt of');
  });
});

describe('the picker with conflict copies', () => {
  it('shows one row per group; a search that finds only a copy still shows it', () => {
    const s = loaded();
    expect(paths(s)).toEqual([original.path, forkOfCopy.path, other.path, stranger.path, orphan.path]);
    expect(s.rows[0]?.conflictFiles).toBe(3);
    expect(paths(typed(s, 'server only'))).toEqual([original.path, other.path]);
  });

  it('keeps sorting, the named filter and marks working on the row', () => {
    const s = run(loaded(), key('ctrl+s'));
    expect(s.sort).toBe('recent');
    expect(paths(s)).toEqual([original.path, other.path, stranger.path, orphan.path, forkOfCopy.path]);
    expect(run(loaded(), key('ctrl+n')).rows).toEqual([]);
    const marked = run(loaded(), key('insert'));
    expect([...marked.marks]).toEqual([original.path]);
  });
});
