/**
 * The picker's modes (the list, help, and each dialog) and what each one means for the screen:
 * which keymap mode its keys resolve in, whether its dialog shows its own keys, and how many lines
 * that dialog takes below the list.
 */

import type { ExportStep } from '../state/export-dialog.js';
import type { UndoQuestion } from '../state/journal-undo.js';
import { MISSING_CWD_LINES, type MissingCwd } from '../state/missing-cwd.js';
import type { TextInputState } from '../state/text-input.js';
import type { ConflictGroup, ConflictMergePlan, SlimPlan } from '../store/index.js';
import type { PickerKeyMode } from './keymap.js';

export type PickerMode =
  | { kind: 'browse' }
  /** `offset`: the first help line shown (it scrolls). */
  | { kind: 'help'; offset: number }
  | { kind: 'rename'; path: string; input: TextInputState }
  /**
   * A delete prompt. `needsYes`: Enter is not enough (a live-looking session, or permanent
   * deletion). `trashProblem`: why the trash failed, when this is the permanent-deletion step.
   */
  | { kind: 'confirm'; paths: string[]; permanent: boolean; needsYes: boolean; trashProblem?: string }
  /**
   * Ctrl+Z / Ctrl+Y: what will be undone or redone, asked first (unless this screen just made the
   * change). `question` is null while the store is looking: keys that arrive meanwhile are
   * swallowed (they were pressed before the question was shown), Esc cancels.
   */
  | { kind: 'undoConfirm'; action: 'undo' | 'redo'; question: UndoQuestion | null }
  /** "Keep only the active branch": the measured sizes shown before anything is written. */
  | { kind: 'slimConfirm'; path: string; plan: SlimPlan; needsYes: boolean }
  /**
   * Merging a row's conflict copies (`path`: the original): the measured merge shown before anything
   * is written. `plan` is null while the copies are read: keys that arrive meanwhile were pressed
   * before the question was shown and are swallowed, Esc cancels.
   */
  | { kind: 'mergeConfirm'; path: string; group: ConflictGroup; plan: ConflictMergePlan | null; needsYes: boolean }
  /** The session's folder is gone: pi's question (continue here, fork here, cancel), asked before pi starts. */
  | { kind: 'missingCwd'; path: string; question: MissingCwd }
  /** Exporting the session's active branch: its format, then where, then (if any) what to do with its secrets. */
  | { kind: 'export'; path: string; step: ExportStep };

export function keyModeOf(mode: PickerMode): PickerKeyMode {
  switch (mode.kind) {
    case 'undoConfirm':
    case 'slimConfirm':
    case 'mergeConfirm':
      return 'confirm';
    case 'missingCwd':
      return 'menu';
    case 'export':
      return mode.step.kind === 'path' ? 'path' : mode.step.kind === 'running' ? 'confirm' : 'menu';
    default:
      return mode.kind;
  }
}

/**
 * Whether the mode's dialog has a line of its own for its keys (a question's answers, a menu's):
 * then the footer shows none, so no key is offered twice. A prompt (rename, the export's path)
 * has none: the footer's hints are its keys.
 */
export function dialogShowsKeys(mode: PickerMode): boolean {
  switch (mode.kind) {
    case 'confirm':
    case 'slimConfirm':
    case 'mergeConfirm':
    case 'undoConfirm':
    case 'missingCwd':
      return true;
    case 'export':
      return mode.step.kind !== 'path';
    default:
      return false;
  }
}

/** The undo and redo question: its title, two lines for what will be done, its keys. */
export const UNDO_QUESTION_LINES = 4;

/** Lines the dialog of `mode` takes below the list (the screen renders exactly this many). */
export function dialogLinesFor(mode: PickerMode): number {
  switch (mode.kind) {
    case 'rename':
      return 2;
    case 'confirm':
      return 5;
    case 'undoConfirm':
      return UNDO_QUESTION_LINES;
    case 'slimConfirm':
    case 'mergeConfirm':
      return 5;
    case 'missingCwd':
      return MISSING_CWD_LINES;
    case 'export':
      // Title, the menu's items, the keys; the path: title and field; running: one line.
      if (mode.step.kind === 'running') return 1;
      return mode.step.kind === 'path' ? 2 : mode.step.menu.items.length + 2;
    default:
      return 0;
  }
}
