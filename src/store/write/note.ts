/**
 * What the session writes (write.ts) tell the journal and take from it: the note an undo or a
 * redo passes (what it is, and what the file must still be), a text read back from an entry of
 * the file instead of the journal (a long name or label the journal only refers to), the
 * session's bounded description for the record, and the change's id handed back to the caller.
 */
import { StoreError } from '../errors.js';
import { type JournalNote, PATH_TEXT_MAX, preview } from '../journal/records.js';
import type { AppendView } from './append-view.js';

/**
 * What an undo or a redo asks of its write besides the entries: it is journalled as one
 * (`undoes` / `redoes`), and it is refused, with nothing written, unless the file is still the
 * session the change was made to (`sessionId`, from its header) and still holds the entry that
 * change appended (`entryId`). Checked on the file as it is right before the append.
 */
export interface WriteNote extends JournalNote {
  sessionId?: string;
  entryId?: string;
}

/** A text to write, or where to read it: the `name` / `label` of an entry of the file (a long text the journal refers to). */
export type TextSource = string | { fromEntry: string };

/** Throws (nothing is written) when the file is not what `note` expects. */
export function checkNote(view: AppendView, note: WriteNote | undefined): void {
  if (note?.sessionId !== undefined && view.sessionId !== note.sessionId)
    throw new StoreError(
      'write-failed',
      `${view.path} is another session now (${view.sessionId}, not ${note.sessionId}); nothing was written`,
    );
  if (note?.entryId !== undefined && !view.ids.has(note.entryId))
    throw new StoreError(
      'write-failed',
      `${view.path} no longer holds the entry ${note.entryId} pi-sessions wrote; nothing was written`,
    );
}

/** The text `source` gives in this file (`field` of the entry it names; absent: undefined). */
export function textFrom(view: AppendView, source: TextSource, field: 'name' | 'label'): string | undefined {
  if (typeof source === 'string') return source;
  const entry = view.entry(source.fromEntry);
  if (!entry)
    throw new StoreError(
      'no-entry',
      `${view.path} no longer holds the entry ${source.fromEntry} with the text to write; nothing was written`,
    );
  const value = entry[field];
  return typeof value === 'string' ? value : value === undefined || value === null ? undefined : String(value);
}

/** The journal's description of the session written: its id, project and title (bounded). */
export function sessionFacts(
  view: AppendView,
  title: string | undefined,
): { sessionId: string; title?: string; cwd?: string } {
  const shown = title ?? view.firstUserText;
  return {
    sessionId: view.sessionId,
    ...(shown ? { title: preview(shown.replace(/\s+/g, ' ')) } : {}),
    ...(view.cwd !== undefined && view.cwd.length <= PATH_TEXT_MAX ? { cwd: view.cwd } : {}),
  };
}

/** The fields a write's journal record takes from its note (never the expectations). */
export function journalled(note: WriteNote | undefined): JournalNote {
  return {
    ...(note?.undoes !== undefined ? { undoes: note.undoes } : {}),
    ...(note?.redoes !== undefined ? { redoes: note.redoes } : {}),
  };
}

/** What every write returns besides its own result: its journal record's id, and a warning when it could not be recorded. */
export interface Journalled {
  changeId: string;
  journalWarning?: string;
}

export function outcomeOf(recorded: { id: string; warning?: string }): Journalled {
  return { changeId: recorded.id, ...(recorded.warning ? { journalWarning: recorded.warning } : {}) };
}
