/**
 * Moving pi's leaf (session-format.md §7, pi's /tree): a branch in place, persisted so that pi
 * resumes there, and the exact move an undo or a redo of a branch needs. Both append through the
 * one write path (write.ts appendPlanned) and are journalled.
 */
import { editorTextOf, messageOf } from '../entry.js';
import { StoreError } from '../errors.js';
import { recordChange } from '../journal/file.js';
import { aliasOf } from '../journal/records.js';
import type { JsonObject, SessionEntry } from '../types.js';
import { checkNote, journalled, outcomeOf, sessionFacts, type WriteNote } from './note.js';
import { type AppendView, appendPlanned, newEntryId, nowIso } from './write.js';

export interface BranchResult {
  /** The entry pi will resume from (null: a fresh root, like pi's resetLeaf). */
  leafId: string | null;
  /** The appended entry that makes the move persist (the file's new last line). */
  entryId: string;
  /** For a user message or custom message target: its text, to re-send or edit. */
  editorText?: string;
  /** The journal record's id. */
  changeId?: string;
  /** Set when the change could not be recorded in the journal (it was made all the same). */
  journalWarning?: string;
}

/**
 * pi's /tree target rule: a user message or custom_message → its parent; anything else → itself.
 * A parent that is not in the file (an orphan) or the entry itself makes a fresh root, as in the tree.
 */
export function branchTarget(
  ids: ReadonlySet<string>,
  target: SessionEntry,
): { leafId: string | null; editorText?: string } {
  const role = messageOf(target)?.['role'];
  if (role === 'user' || target.type === 'custom_message') {
    const content = role === 'user' ? messageOf(target)?.['content'] : target['content'];
    const parentId = target.parentId;
    return {
      leafId: parentId !== null && parentId !== target.id && ids.has(parentId) ? parentId : null,
      editorText: editorTextOf(content),
    };
  }
  return { leafId: target.id };
}

/**
 * The entry that makes `leafId` pi's leaf (pi's leaf is the last line). With a summary: a
 * `branch_summary` like pi's branchWithSummary. Without one: a context-neutral entry under the new
 * leaf, a `label` restating the leaf's current label with the time it was set (what pi writes when
 * a label is given while navigating); for a null leaf, an empty-summary `branch_summary` root,
 * which contributes nothing to context (pi's resetLeaf state).
 */
function leafEntry(view: AppendView, leafId: string | null, summary: string | undefined): JsonObject {
  const id = newEntryId(view.ids);
  if (summary || leafId === null) {
    return {
      type: 'branch_summary',
      id,
      parentId: leafId,
      timestamp: nowIso(),
      fromId: view.leafId ?? 'root',
      summary: summary ?? '',
    };
  }
  // pi shows a label's time as its latest label entry's timestamp: a restated label keeps the
  // time it was set (as pi's createBranchedSession writes them), not the time of this move.
  const current = view.labels.get(leafId);
  const entry: JsonObject = {
    type: 'label',
    id,
    parentId: leafId,
    timestamp: (current !== undefined ? view.labelTimestamps.get(leafId) : undefined) ?? nowIso(),
    targetId: leafId,
  };
  if (current !== undefined) entry['label'] = current;
  return entry;
}

/** Branch in place, persisted so that pi resumes there, with pi's /tree rule (branchTarget). */
export async function branchInPlace(
  path: string,
  targetId: string,
  options: { summary?: string } = {},
): Promise<BranchResult> {
  let outcome: { leafId: string | null; editorText?: string } = { leafId: null };
  let previousLeafId: string | null = null;
  let facts: ReturnType<typeof sessionFacts> | undefined;
  const summary = options.summary?.trim();
  const written = await appendPlanned(
    path,
    (view) => {
      previousLeafId = view.leafId;
      facts = sessionFacts(view, view.name);
      const target = view.entry(targetId);
      if (!target) throw new StoreError('no-entry', `no entry ${targetId} in ${path}`);
      outcome = branchTarget(view.ids, target);
      return [leafEntry(view, outcome.leafId, summary)];
    },
    [targetId],
  );
  const result: BranchResult = { leafId: outcome.leafId, entryId: written.entryIds[0]! };
  if (outcome.editorText !== undefined) result.editorText = outcome.editorText;
  const recorded = await recordChange({
    kind: 'branch',
    path: written.path,
    time: nowIso(),
    after: written.after,
    entryId: result.entryId,
    previousLeafId,
    ...facts,
    ...aliasOf(path, written.path),
  });
  return Object.assign(result, outcomeOf(recorded));
}

/**
 * Makes exactly `leafId` pi's leaf (null: an empty conversation), without /tree's user-message
 * rule: what undoing a branch needs to go back to where pi was.
 */
export async function moveLeaf(path: string, leafId: string | null, note?: WriteNote): Promise<BranchResult> {
  let previousLeafId: string | null = null;
  let facts: ReturnType<typeof sessionFacts> | undefined;
  const written = await appendPlanned(path, (view) => {
    checkNote(view, note);
    previousLeafId = view.leafId;
    facts = sessionFacts(view, view.name);
    if (leafId !== null && !view.ids.has(leafId)) throw new StoreError('no-entry', `no entry ${leafId} in ${path}`);
    return [leafEntry(view, leafId, undefined)];
  });
  const result: BranchResult = { leafId, entryId: written.entryIds[0]! };
  const recorded = await recordChange({
    kind: 'branch',
    path: written.path,
    time: nowIso(),
    after: written.after,
    entryId: result.entryId,
    previousLeafId,
    ...facts,
    ...aliasOf(path, written.path),
    ...journalled(note),
  });
  return Object.assign(result, outcomeOf(recorded));
}
