/**
 * Everything the picker's reducer receives: a key (through the keymap), a resize, and the outcome
 * of each effect it queued (loads, writes, undo, scans, exports), each a plain value.
 */
import type { Keypress } from '../keymap/tokenize.js';
import type { ExportOutcomeAction } from '../state/export-dialog.js';
import type {
  ConflictMergePlan,
  ConflictMergeResult,
  RedoStep,
  SessionInfo,
  SlimPlan,
  SlimResult,
  TrashOutcome,
  UndoStep,
} from '../store/index.js';
import type { Scope } from './state.js';

export type PickerAction =
  /** A key from the tokenizer (a named key, a run of typed text, or a paste). */
  | ({ type: 'key'; nowMs: number } & Keypress)
  | { type: 'resize'; columns: number; rows: number }
  | { type: 'sessions'; scope: Scope; sessions: SessionInfo[]; loaded: number; total: number }
  | {
      type: 'loadDone';
      scope: Scope;
      searched: string;
      dirMissing?: boolean;
      problem?: string;
      skipped: number;
      sessions: SessionInfo[];
    }
  | { type: 'loadFailed'; scope: Scope; error: string }
  | { type: 'renamed'; path: string; name: string | undefined; changeId?: string; journalWarning?: string }
  | { type: 'renameFailed'; path: string; previous: string | undefined; error: string }
  /** `gone`: paths asked for that were no longer there (nothing was done to them). */
  | { type: 'trashed'; outcome: TrashOutcome; permanent: boolean; gone?: string[] }
  | { type: 'trashFailed'; error: string }
  | { type: 'undoStep'; step: UndoStep; nowMs: number }
  | { type: 'redoStep'; step: RedoStep; nowMs: number }
  | { type: 'undoFailed'; error: string; action: 'undo' | 'redo' }
  | { type: 'slimPlanned'; path: string; plan: SlimPlan; nowMs: number }
  | { type: 'slimmed'; result: SlimResult }
  | { type: 'slimFailed'; error: string }
  | { type: 'mergePlanned'; path: string; plan: ConflictMergePlan; nowMs: number }
  | { type: 'merged'; result: ConflictMergeResult }
  | { type: 'mergeFailed'; error: string }
  | { type: 'effectsTaken'; upTo: number }
  /** The frame echoing a typed query is drawn: run its search, unless a newer one was queued (`id`: its effect). */
  | { type: 'runSearch'; id: number }
  | { type: 'clearStatus'; id: number }
  /** More message text was prepared: re-run the search if it skipped some. */
  | { type: 'textPrepared' }
  /** A `re:` search left sessions pending: search on, with a fresh time budget. */
  | { type: 'searchMore' }
  /** A search for a new query took `ms` over a list of `sessions` (the screen's clock). */
  | { type: 'searchTimed'; ms: number; sessions: number }
  /** `checkResume`'s answer; `here` is the folder pi-sessions runs in. */
  | { type: 'resumeChecked'; path: string; cwd: string; cwdExists: boolean; here: string }
  /** Listed sessions whose files were deleted or moved since the list was drawn: an action on them found nothing. */
  | { type: 'sessionGone'; paths: string[] }
  | { type: 'secretsProgress'; scope: Scope; scanned: number; total: number }
  /** The secret scan's findings by path (every file scanned); `problem`: why it could not run. */
  | { type: 'secretsScanned'; scope: Scope; counts: ReadonlyMap<string, number>; problem?: string }
  | ExportOutcomeAction;
