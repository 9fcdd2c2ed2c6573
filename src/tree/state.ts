/**
 * The tree navigator's state, actions and effects, and the selectors the screen reads
 * (src/tree/reducer.ts is the reducer; navigation.ts moves the cursor; actions.ts runs menu
 * choices, prompts and effect outcomes).
 */

import type { KeyBinding } from '../keymap/keymap.js';
import type { Keypress } from '../keymap/tokenize.js';
import type { ExportOutcomeAction, ExportRequestBody, ExportStep } from '../state/export-dialog.js';
import type { RedoRequest, UndoQuestion, UndoRequest } from '../state/journal-undo.js';
import type { LastClick } from '../state/list-mouse.js';
import type { MenuState } from '../state/menu.js';
import type { MissingCwd, MissingCwdChoice } from '../state/missing-cwd.js';
import type { TextInputAction, TextInputState } from '../state/text-input.js';
import type { RedoStep, UndoStep } from '../store/index.js';
import type { DetailLine } from './entry-detail.js';
import type { FilterMode, FlatRow, Forest, Layout, SearchResult, TreeIndex } from './flatten.js';
import { rowAt, rowId } from './flatten.js';
import type { ParentLink } from './fork-nodes.js';
import type { TreeCommand, TreeKeyMode } from './keymap.js';
import type { ForkAction, MenuAction } from './menu-items.js';
import type { OpenChecked, OpenFacts, OpenTarget } from './open-target.js';

export type { ForkAction, MenuAction };

/**
 * What the screen is doing, with the data only that mode has (the picker's shape): the menu
 * and prompt modes name the entry they act on; `missingCwd` is Open in pi finding the session's
 * folder gone and asking pi's question; `undoConfirm` has no question while the store looks.
 */
export type TreeMode =
  | { kind: 'browse' }
  | { kind: 'menu'; targetId: string; menu: MenuState<MenuAction> }
  | { kind: 'labelInput'; targetId: string; input: TextInputState }
  | { kind: 'summaryInput'; targetId: string; input: TextInputState }
  | { kind: 'detail'; detail: DetailView }
  | { kind: 'help'; offset: number }
  | { kind: 'forkDone'; path: string; editorText: string | null; menu: MenuState<ForkAction> }
  | { kind: 'undoConfirm'; action: 'undo' | 'redo'; question: UndoQuestion | null }
  | { kind: 'missingCwd'; target: OpenTarget; question: MissingCwd; menu: MenuState<MissingCwdChoice> }
  /** Exporting the branch from the root to `targetId`: its format, then where, then (if any) what to do with its secrets. */
  | { kind: 'export'; targetId: string; step: ExportStep };

export const BROWSE: TreeMode = { kind: 'browse' };

export interface StatusMessage {
  text: string;
  tone: 'info' | 'success' | 'error';
}

/** What the screen is asked to do; `id` orders them (the effect protocol of every screen). */
export type TreeEffect = { id: number } & TreeEffectBody;

export type TreeEffectBody =
  | { kind: 'label'; entryId: string; label: string }
  | { kind: 'branch'; entryId: string }
  | { kind: 'branchSummary'; entryId: string; summary: string }
  | { kind: 'fork'; entryId: string }
  | { kind: 'copy'; entryId: string }
  /** Probe that pi can start (on the PATH, the folder exists); the answer is `openChecked`. Nothing is written yet. */
  | { kind: 'checkOpen'; target: OpenTarget }
  /** Resume from here inside pi: leave, handing the entry to the caller, which moves pi there (nothing written). */
  | { kind: 'handBack'; entryId: string }
  /** Checked: move the leaf to an entry target if needed, then hand over to pi in `cwd`. */
  | { kind: 'openInPi'; target: OpenTarget; cwd: string; fork?: true }
  /** Ctrl+Z: a look at the journal's latest change, then (once the user said yes) its undo, or its skip. */
  | { kind: 'undo'; request: UndoRequest }
  /** Ctrl+Y: a look at the latest undo, then its redo. */
  | { kind: 'redo'; request: RedoRequest }
  /** Another session's tree (a fork row, the parent link), on `focusId` when given; Esc comes back here. */
  | { kind: 'openSession'; path: string; focusId?: string }
  | { kind: 'back' }
  | { kind: 'quit' }
  /** Read the session file (the screen opens on it). */
  | { kind: 'load' }
  /** Watch the file for what a running pi appends (for the screen's life). */
  | { kind: 'watch' }
  /** The file changed other than by an append: read it whole again. */
  | { kind: 'reread'; reason: string }
  /** Look up the session's forks and parent, once the user pauses typing. */
  | { kind: 'findLineage' }
  /** The export dialog's: scanned, then written unless a secret stops it (`secrets: 'stop'`) or was chosen for. */
  | ({ kind: 'export' } & ExportRequestBody);

/** Effects after which this screen is being left: the keys that follow belong to the next one. */
const LEAVING_EFFECTS: ReadonlySet<TreeEffectBody['kind']> = new Set([
  'checkOpen',
  'handBack',
  'openInPi',
  'openSession',
  'back',
  'quit',
]);

export interface DetailView {
  title: string;
  /** As built, before wrapping (kept to re-wrap on resize). */
  source: readonly DetailLine[];
  /** Wrapped to the width. */
  lines: readonly DetailLine[];
  scroll: number;
}

export interface TreeState {
  readonly index: TreeIndex;
  readonly filter: FilterMode;
  readonly query: string;
  readonly search: SearchResult | undefined;
  readonly forest: Forest;
  readonly layout: Layout;
  readonly folds: ReadonlySet<string>;
  /** Selected row index in layout.rows (0 when empty). */
  readonly cursor: number;
  readonly anchorId: string | null;
  readonly offset: number;
  readonly listHeight: number;
  readonly width: number;
  /** The latest click on a row (src/tree/mouse.ts): a second one on the same entry soon after is a double click. */
  readonly lastClick: LastClick | undefined;
  readonly mode: TreeMode;
  readonly labelTimes: boolean;
  readonly status: StatusMessage | null;
  /** Whether a write is running (further writes are refused until it finishes). */
  readonly busy: boolean;
  readonly effects: readonly TreeEffect[];
  readonly nextEffectId: number;
  /** Leaving the screen (back, quit, open in pi): no more keys are taken. A failure clears it. */
  readonly leaving: boolean;
  /** The search the tree was opened with from a picker hit: while it stands unedited, Esc goes back at once. */
  readonly openedQuery: string | null;
  /** The keymap keys resolve through: TREE_BINDINGS with pi's keybindings.json applied. */
  readonly bindings: readonly KeyBinding<TreeCommand, TreeKeyMode>[];
  /** Journal ids of the changes this screen made (and undid): Ctrl+Z / Ctrl+Y need not ask about those a moment old. */
  readonly ownChanges: readonly string[];
  /** The session this one was forked from (found after the tree opens), for the parent link. */
  readonly parent: ParentLink | undefined;
  /** The session's file and id, and the folder pi-sessions runs in: what an export names and where it goes. */
  readonly session: { readonly path: string; readonly id: string; readonly here: string };
  /**
   * This is the session a running pi is in, and pi moves its own leaf (`--print-entry`, the pi
   * extension): a plain Resume from here is handed back to pi, which does what its /tree does
   * (at a user message: to its parent, the message's text in pi's editor), instead of written.
   */
  readonly handsBackResume: boolean;
}

export type TreeAction =
  /**
   * A key from the tokenizer (a named key, a run of typed text, a paste, or a mouse event). Only a
   * click needs the time (is it a double click?); a key without one is never a double click.
   */
  | ({ type: 'key'; nowMs?: number } & Keypress)
  | { type: 'resize'; listHeight: number; width: number }
  | { type: 'reload'; index: TreeIndex; message?: string }
  | { type: 'menu'; action: MenuAction }
  | { type: 'forkMenu'; action: ForkAction }
  | { type: 'cancel' }
  | { type: 'input'; action: TextInputAction }
  | { type: 'submit' }
  | { type: 'submitLabel'; value: string }
  | { type: 'submitSummary'; value: string }
  | { type: 'effectsTaken'; upTo: number }
  /**
   * A resume from here was written: `leafId` is where pi resumes, `entryId` the entry appended,
   * which is the file's leaf (pi's leaf is the last line).
   */
  | { type: 'branched'; leafId: string | null; entryId?: string; editorText?: string; changeId?: string }
  | { type: 'labeled'; label: string; changeId?: string }
  | { type: 'forked'; path: string; editorText?: string; changeId?: string }
  | { type: 'copied'; message: string }
  | ({ type: 'openChecked' } & OpenChecked & Omit<OpenFacts, 'leafId'>)
  | { type: 'failed'; message: string }
  | { type: 'status'; status: StatusMessage | null }
  | { type: 'undoStep'; step: UndoStep; nowMs: number }
  | { type: 'redoStep'; step: RedoStep; nowMs: number }
  | { type: 'parent'; parent: ParentLink | undefined }
  | ExportOutcomeAction;

export function selectedRow(state: TreeState): FlatRow | undefined {
  return rowAt(state.layout, state.cursor);
}

/** The entry pi resumes at now (the file's leaf), null in a session without entries. */
export function leafIdOf(state: TreeState): string | null {
  return state.index.leaf === -1 ? null : state.index.entries[state.index.leaf]!.id;
}

export function selectedId(state: TreeState): string | null {
  return rowId(state.layout, state.cursor) ?? null;
}

export function keyMode(state: TreeState): TreeKeyMode {
  switch (state.mode.kind) {
    case 'browse':
      return state.query === '' ? 'browse' : 'search';
    case 'detail':
      return 'detail';
    case 'help':
      return 'help';
    case 'menu':
    case 'forkDone':
    case 'missingCwd':
      return 'menu';
    case 'labelInput':
    case 'summaryInput':
      return 'prompt';
    case 'undoConfirm':
      return 'confirm';
    case 'export':
      // While it runs, the menu mode's keys reach the dialog, which swallows them all.
      return state.mode.step.kind === 'path' ? 'prompt' : 'menu';
  }
}

/** The open detail view (the detail mode's), if any. */
export function detailOf(state: TreeState): DetailView | null {
  return state.mode.kind === 'detail' ? state.mode.detail : null;
}

/** The reducer's action for a key from the tokenizer, read at `nowMs`. */
export function treeKey(keypress: Keypress, nowMs?: number): TreeAction {
  const { name, text, paste, mouse } = keypress;
  return { type: 'key', name, text, paste, ...(mouse ? { mouse } : {}), ...(nowMs === undefined ? {} : { nowMs }) };
}

/** False once the screen is being left: the rest of a read goes to the next screen. */
export function takesKeys(state: TreeState): boolean {
  return !state.leaving;
}

/** Search matches drawn and where the cursor is among them: `{current: 3, total: 12}`. */
export function matchPosition(state: TreeState): { current: number; total: number; hiddenByFolds: number } | undefined {
  const result = state.search;
  if (!result) return undefined;
  const rows = state.layout.matchRows;
  let current = 0;
  for (let i = 0; i < rows.length; i++) if (rows[i]! <= state.cursor) current = i + 1;
  if (current > 0 && rows[current - 1] !== state.cursor) current = 0;
  let visibleMatches = 0;
  for (const m of result.matches) if (state.forest.visible[m] && !(state.forest.context?.[m] === 1)) visibleMatches++;
  return { current, total: rows.length, hiddenByFolds: visibleMatches - rows.length };
}

// ---------------------------------------------------------------------------------------------
// Helpers.

export function withStatus(state: TreeState, status: StatusMessage | null): TreeState {
  return state.status === status ? state : { ...state, status };
}

export function queue(state: TreeState, effect: TreeEffectBody): TreeState {
  const effects = [...state.effects, { ...effect, id: state.nextEffectId }];
  return {
    ...state,
    effects,
    nextEffectId: state.nextEffectId + 1,
    leaving: state.leaving || LEAVING_EFFECTS.has(effect.kind),
  };
}

/** The open menu of a menu mode (the entry menu, the fork's, pi's missing-folder question), if any. */
export function menuOf(state: TreeState): MenuState<MenuAction | ForkAction | MissingCwdChoice> | null {
  const mode = state.mode;
  return mode.kind === 'menu' || mode.kind === 'forkDone' || mode.kind === 'missingCwd' ? mode.menu : null;
}

/** The label or summary prompt's text, if one is open. */
export function inputOf(state: TreeState): TextInputState | null {
  return state.mode.kind === 'labelInput' || state.mode.kind === 'summaryInput' ? state.mode.input : null;
}
