/**
 * What the tree screen asks of the store, and of the app around it: the screen's effects run
 * through these (tests inject fakes); everything else the screen computes from the loaded
 * session with the store's pure functions.
 */
import type { ExportOutcome } from '../export/run.js';
import type { ExportRequestBody } from '../state/export-dialog.js';
import type {
  LoadedSession,
  ReadResult,
  RedoRequest,
  RedoStep,
  SessionTree,
  UndoRequest,
  UndoScope,
  UndoStep,
} from '../store/index.js';
import type { Lineage } from './fork-nodes.js';

/** The store functions the screen uses; tests inject fakes. Writes are asynchronous. */
export interface TreeStore {
  readSession(path: string): Promise<ReadResult>;
  setLabel(path: string, targetId: string, label?: string): Promise<unknown>;
  branchInPlace(
    path: string,
    targetId: string,
    options?: { summary?: string },
  ): Promise<{ leafId: string | null; entryId?: string; editorText?: string; changeId?: string }>;
  forkSession(path: string, entryId?: string): Promise<{ path: string; editorText?: string; changeId?: string }>;
  /** Ctrl+Z: the journal's latest change (any session in `scope`'s folders), or the question to ask first. */
  undoStep(scope: UndoScope, request: UndoRequest): Promise<UndoStep>;
  /** Ctrl+Y: the latest undo, or the question to ask first. */
  redoStep(scope: UndoScope, request: RedoRequest): Promise<RedoStep>;
  /** Whether the session's file was deleted or moved (a test's store without it: never). */
  isGone?(path: string): boolean;
  /**
   * The export of a branch to a new file, as `pi-sessions export --leaf` makes it (src/export/run.ts):
   * scanned first, not written when it holds a secret and `secrets` is 'stop'. Without it nothing is exported.
   */
  exportSession?(request: ExportRequestBody): Promise<ExportOutcome>;
}

/** Finds the session's forks and parent (the app: from its listing and the catalogue). */
export type LineageFinder = (path: string, session: LoadedSession, tree: SessionTree) => Promise<Lineage>;

/** Another session's tree to open (a fork row, the parent link, a label), on `focusId` when given. */
export interface TreeOpen {
  path: string;
  focusId?: string;
}
