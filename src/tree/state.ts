/**
 * The tree navigator's state, actions and effects, and the selectors the screen reads
 * (src/tree/reducer.ts is the reducer; navigation.ts moves the cursor; actions.ts runs menu
 * choices, prompts and effect outcomes).
 */

import type { KeyBinding } from '../keymap/keymap.js';
import type { Keypress } from '../keymap/tokenize.js';
import type { RedoRequest, UndoQuestion, UndoRequest } from '../state/journal-undo.js';
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
import type { OpenChecked, OpenFacts, OpenTarget } from './open-in-pi.js';

export type { ForkAction, MenuAction };

/** `open-missing-cwd`: Open in pi found the session's folder gone and asks pi's question. */
export type TreeMode =
  | 'browse'
  | 'menu'
  | 'label-input'
  | 'summary-input'
  | 'detail'
  | 'help'
  | 'fork-done'
  | 'undo-confirm'
  | 'open-missing-cwd';

export interface StatusMessage {
  text: string;
  tone: 'info' | 'success' | 'error';
}

/** What the screen is asked to do; `effectId` orders them (the effect protocol of both screens). */
export type TreeEffect = { effectId: number } & TreeEffectBody;

export type TreeEffectBody =
  | { kind: 'label'; id: string; label: string }
  | { kind: 'branch'; id: string }
  | { kind: 'branch-summary'; id: string; summary: string }
  | { kind: 'fork'; id: string }
  | { kind: 'copy'; id: string }
  /** Probe that pi can start (on the PATH, the folder exists); the answer is `openChecked`. Nothing is written yet. */
  | { kind: 'check-open'; target: OpenTarget }
  /** Checked: move the leaf to an entry target if needed, then hand over to pi in `cwd`. */
  | { kind: 'open-in-pi'; target: OpenTarget; cwd: string; fork?: true }
  /** Ctrl+Z: a look at the journal's latest change, then (once the user said yes) its undo, or its skip. */
  | { kind: 'undo'; request: UndoRequest }
  /** Ctrl+Y: a look at the latest undo, then its redo. */
  | { kind: 'redo'; request: RedoRequest }
  /** Another session's tree (a fork row, the parent link), on `focusId` when given; Esc comes back here. */
  | { kind: 'open-session'; path: string; focusId?: string }
  | { kind: 'back' }
  | { kind: 'quit' };

/** Effects after which this screen is being left: the keys that follow belong to the next one. */
const LEAVING_EFFECTS: ReadonlySet<TreeEffectBody['kind']> = new Set([
  'check-open',
  'open-in-pi',
  'open-session',
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

/** Builds the detail lines of an entry (entry-display's detailLines with the screen's formats). */
export type DetailSource = (index: TreeIndex, id: string) => DetailLine[];

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
  readonly mode: TreeMode;
  /** The entry the menu / inputs act on. */
  readonly targetId: string | null;
  readonly labelTimes: boolean;
  readonly status: StatusMessage | null;
  readonly detail: DetailView | null;
  readonly forkPath: string | null;
  /** Forked before a user message (pi's /fork): that message's text, to re-send in the new session. */
  readonly forkEditorText: string | null;
  /** Whether a write is running (further writes are refused until it finishes). */
  readonly busy: boolean;
  readonly effects: readonly TreeEffect[];
  readonly nextEffectId: number;
  /** Leaving the screen (back, quit, open in pi): no more keys are taken. A failure clears it. */
  readonly leaving: boolean;
  /** The open menu (mode `menu` or `fork-done`) with its highlight. */
  readonly menu: MenuState<MenuAction | ForkAction | MissingCwdChoice> | null;
  /** Mode `open-missing-cwd`: what was being opened and pi's question (its menu is `menu`). */
  readonly openQuestion: { target: OpenTarget; question: MissingCwd } | null;
  /** Mode `help`: the first help line shown (the help scrolls like the detail view). */
  readonly helpOffset: number;
  readonly detailSource: DetailSource;
  /** The label / summary prompt's text (pre-filled label, cursor at the end: pi puts it at 0). */
  readonly input: TextInputState;
  /** The search the tree was opened with from a picker hit: while it stands unedited, Esc goes back at once. */
  readonly openedQuery: string | null;
  /** The keymap keys resolve through: TREE_BINDINGS with pi's keybindings.json applied. */
  readonly bindings: readonly KeyBinding<TreeCommand>[];
  /**
   * Mode `undo-confirm`: what an undo or a redo (`undoAction`) will do, asked about first; null
   * while the store is looking (keys that arrive meanwhile are swallowed, Esc cancels).
   */
  readonly undoQuestion: UndoQuestion | null;
  readonly undoAction: 'undo' | 'redo';
  /** Journal ids of the changes this screen made (and undid): Ctrl+Z / Ctrl+Y need not ask about those a moment old. */
  readonly ownChanges: readonly string[];
  /** The session this one was forked from (found after the tree opens), for the parent link. */
  readonly parent: ParentLink | undefined;
}

export type TreeAction =
  /** A key from the tokenizer (a named key, a run of typed text, or a paste). */
  | ({ type: 'key' } & Keypress)
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
  | { type: 'parent'; parent: ParentLink | undefined };

export function selectedRow(state: TreeState): FlatRow | undefined {
  return rowAt(state.layout, state.cursor);
}

export function selectedId(state: TreeState): string | null {
  return rowId(state.layout, state.cursor) ?? null;
}

export function keyMode(state: TreeState): TreeKeyMode {
  switch (state.mode) {
    case 'browse':
      return state.query === '' ? 'browse' : 'search';
    case 'detail':
      return 'detail';
    case 'help':
      return 'help';
    case 'menu':
    case 'fork-done':
    case 'open-missing-cwd':
      return 'menu';
    case 'label-input':
    case 'summary-input':
      return 'prompt';
    case 'undo-confirm':
      return 'confirm';
  }
}

/** The reducer's action for a key from the tokenizer. */
export function treeKey(keypress: Keypress): TreeAction {
  return { type: 'key', name: keypress.name, text: keypress.text, paste: keypress.paste };
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
  const effects = [...state.effects, { ...effect, effectId: state.nextEffectId }];
  return {
    ...state,
    effects,
    nextEffectId: state.nextEffectId + 1,
    leaving: state.leaving || LEAVING_EFFECTS.has(effect.kind),
  };
}
