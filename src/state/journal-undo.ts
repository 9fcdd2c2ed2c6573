/**
 * What Ctrl+Z (undo) and Ctrl+Y (redo) in the picker and the tree say, shared by both reducers:
 * the store's answer (`undoStep` / `redoStep`) turned into a status line or a question. Pure text.
 *
 * When the screens ask first: always, unless the change was made in this same screen a moment
 * ago (its id is among the screen's own changes, and the store finds it under OWN_CHANGE_MS old
 * and untouched since). The question says what will be undone (the change, the session's title,
 * its project, when: the same words as `undo --list`) and offers y/Enter (do it) or n/Esc (keep
 * it). A change that cannot be undone says why, and offers `s` to skip it (pass over it, so the
 * change before it becomes the latest), as `undo --skip` does.
 */
import { describeChange, plainAction, type RedoStep, type UndoStep } from '../store/index.js';

/** A question asked before an undo or a redo (`id`: the change it is about). */
export interface UndoQuestion {
  action: 'undo' | 'redo';
  id: string;
  /** `plain`: y/Enter does it; `changed`: pi wrote since (y/Enter does it anyway); `blocked`: it cannot be done (s skips an undo). */
  kind: 'plain' | 'changed' | 'blocked';
  title: string;
  text: string;
}

export type { RedoRequest, UndoRequest } from '../store/index.js';

export type UndoReply =
  | {
      kind: 'status';
      text: string;
      tone: 'info' | 'success' | 'error';
      /** Ids to remember as this screen's own (an undo's change, so redo need not ask; a redo's new records). */
      own: string[];
      /** The store changed (the list is read again). */
      changed: boolean;
    }
  | { kind: 'ask'; question: UndoQuestion; warning?: string };

export const UNDOING = 'Undoing the latest change…';
export const REDOING = 'Redoing the latest undo…';

/** The status after a question was answered no. */
export const UNDO_KEPT = 'Nothing was undone';
export const REDO_KEPT = 'Nothing was redone';

/** How many ids of its own changes a screen remembers. */
const OWN_CHANGES_KEPT = 20;

/** `own` with `ids` added (the newest kept). */
export function withOwnChanges(own: readonly string[], ids: readonly (string | undefined)[]): readonly string[] {
  const added = ids.filter((id): id is string => id !== undefined);
  return added.length === 0 ? own : [...own, ...added].slice(-OWN_CHANGES_KEPT);
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function status(text: string, tone: 'info' | 'success' | 'error', own: string[] = [], changed = false): UndoReply {
  return { kind: 'status', text, tone, own, changed };
}

function withWarnings(text: string, warnings: (string | undefined)[]): { text: string; warned: boolean } {
  const shown = warnings.filter((w): w is string => w !== undefined);
  return { text: text + shown.map((w) => `; warning: ${w}`).join(''), warned: shown.length > 0 };
}

export function undoReply(step: UndoStep, nowMs: number): UndoReply {
  const ctx = { nowMs };
  switch (step.kind) {
    case 'nothing':
      if (step.warning) return status(`Nothing to undo: ${step.warning}`, 'error');
      return status(step.why ? `Nothing to undo: ${step.why}` : 'Nothing to undo', 'info');
    case 'ask': {
      const { record, batch, undo, blocked, changedSince, stuck } = step.entry;
      const what = capital(describeChange(record, ctx, batch));
      const question: UndoQuestion = blocked
        ? {
            action: 'undo',
            id: record.id!,
            kind: 'blocked',
            title: 'This change cannot be undone',
            text: `${what}: ${blocked}`,
          }
        : changedSince
          ? {
              action: 'undo',
              id: record.id!,
              kind: 'changed',
              title: 'Undo a change pi has written after?',
              text: `${what}: ${plainAction(undo)}. pi has written to it since; its later entries stay.`,
            }
          : {
              action: 'undo',
              id: record.id!,
              kind: 'plain',
              title: 'Undo this change?',
              text: `${what}: ${plainAction(undo)}${stuck ? ` (${stuck.length} of them cannot be restored: ${stuck[0]!.why})` : ''}.`,
            };
      return { kind: 'ask', question, ...(step.warning ? { warning: step.warning } : {}) };
    }
    case 'done': {
      const { record, batch, undo, journalWarning, notRestored } = step.outcome;
      const said = withWarnings(
        `Undid ${describeChange(record, ctx, batch)}: ${plainAction(undo)}${notRestored ? `; ${notRestored}` : ''}`,
        [step.warning, journalWarning],
      );
      return status(
        said.text,
        said.warned ? 'error' : 'success',
        batch.map((r) => r.id!),
        true,
      );
    }
    case 'skipped': {
      const { record, batch, why } = step.outcome;
      return status(
        `Skipped ${describeChange(record, ctx, batch)}${why ? `, which cannot be undone: ${why}` : ''}. It stays as it is; the next undo takes back the change before it`,
        'info',
      );
    }
  }
}

export function redoReply(step: RedoStep, nowMs: number): UndoReply {
  const ctx = { nowMs };
  switch (step.kind) {
    case 'nothing':
      return step.warning
        ? status(`Nothing to redo: ${step.warning}`, 'error')
        : status('Nothing to redo (no undo since the latest change)', 'info');
    case 'ask': {
      const { candidate, redo, blocked, changedSince } = step.entry;
      const { change, changes } = candidate;
      const what = capital(describeChange(change, ctx, changes));
      const id = change.id!;
      const question: UndoQuestion = blocked
        ? { action: 'redo', id, kind: 'blocked', title: 'This undo cannot be redone', text: `${what}: ${blocked}` }
        : {
            action: 'redo',
            id,
            kind: changedSince ? 'changed' : 'plain',
            title: changedSince ? 'Redo on a session pi has written to since?' : 'Redo this change?',
            text: `${what}: ${plainAction(redo)}.${changedSince ? ' pi has written to it since the undo; its entries stay.' : ''}`,
          };
      return { kind: 'ask', question, ...(step.warning ? { warning: step.warning } : {}) };
    }
    case 'done': {
      const { change, changes, redo, journalWarning, changeIds } = step.outcome;
      const said = withWarnings(`Redid ${describeChange(change, ctx, changes)}: ${plainAction(redo)}`, [
        step.warning,
        journalWarning,
      ]);
      return status(said.text, said.warned ? 'error' : 'success', changeIds, true);
    }
  }
}

/** The key choices a question offers, as `[command, what it does]` pairs for the prompt line. */
export function questionChoices<C extends string>(
  question: UndoQuestion,
  commands: { yes: C; enter: C; skip: C; no: C },
): [C, string][] {
  const verb = question.action;
  if (question.kind === 'blocked')
    return question.action === 'undo'
      ? [
          [commands.skip, 'skip it (older changes become reachable)'],
          [commands.no, 'keep it'],
        ]
      : [[commands.no, 'close']];
  const yes = question.kind === 'changed' ? `${verb} anyway` : verb;
  return [
    [commands.yes, yes],
    [commands.enter, yes],
    [commands.no, 'keep it'],
  ];
}
