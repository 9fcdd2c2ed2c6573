/** Undo and redo of journalled changes: which change is next, whether the files are still as we left them, and performing it. The store's public face for this job (re-exported by ../index.ts). */

export type { UndoEntry, UndoOutcome } from './entry.js';
export {
  type RedoEntry,
  type RedoOutcome,
  type RedoRequest,
  type RedoStep,
  redoable,
  redoChange,
  redoStep,
} from './redo.js';
export {
  isMomentAgo,
  listUndoableChecked,
  OWN_CHANGE_MS,
  type SkipOutcome,
  skipChange,
  UndoBlocked,
  type UndoList,
  type UndoRequest,
  type UndoScope,
  type UndoStep,
  undoChange,
  undoLatest,
  undoStep,
} from './undo.js';
