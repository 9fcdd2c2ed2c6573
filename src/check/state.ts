/**
 * The check view's state (pure): what it shows (the audit, or the secrets filter), where the
 * cursor and the scroll are, the effects it queued for the screen, and the reducer's key action.
 * The reducer is ./reducer.ts; the moves its keys and the mouse share are ./navigation.ts.
 */
import type { KeyBinding, KeyName } from '../keymap/keymap.js';
import type { Keypress, MouseEvent } from '../keymap/tokenize.js';
import type { LastClick } from '../state/list-mouse.js';
import type { CheckReport, SecretReport } from '../store/index.js';
import { CHECK_BINDINGS, type CheckCommand, type CheckKeyMode } from './keymap.js';
import type { CheckView } from './view.js';

export type CheckEffect =
  | { id: number; kind: 'open'; path: string }
  /** The secret scan of the view's scope (the catalogue answering for unchanged files). */
  | { id: number; kind: 'scanSecrets' }
  | { id: number; kind: 'back' }
  | { id: number; kind: 'quit' };

/** The secrets filter: what is shown, and the scan behind it (running with progress, or its report). */
export interface SecretsFilter {
  on: boolean;
  progress: { done: number; total: number } | undefined;
  report: SecretReport | undefined;
}

export interface CheckState {
  /** Files checked so far and in all, while the audit runs; undefined once it is done. */
  progress: { done: number; total: number } | undefined;
  view: CheckView;
  /** The audit the view shows (files leave it when they turn out to be gone). */
  report?: CheckReport;
  secrets: SecretsFilter;
  mode: CheckKeyMode;
  /** The selected file (index into view.files). */
  cursor: number;
  /** First line on screen. */
  offset: number;
  height: number;
  /** The screen's columns: the lines are laid out (wrapped, paths cut) for them. */
  width: number;
  status: string | undefined;
  effects: CheckEffect[];
  nextId: number;
  leaving: boolean;
  /** The keymap keys resolve through: CHECK_BINDINGS with pi's keybindings.json applied. */
  bindings: readonly KeyBinding<CheckCommand, CheckKeyMode>[];
  /** The latest click on a file (src/check/mouse.ts): a second one on the same file soon after is a double click. */
  lastClick: LastClick | undefined;
}

export type CheckAction =
  /**
   * A key from the tokenizer; `text`: a run of typed characters (one read), `paste`: pasted text,
   * `mouse`: where a mouse event was. Only a click needs the time (is it a double click?); a key
   * without one is never a double click.
   */
  | { type: 'key'; name: KeyName | undefined; text?: string; paste?: boolean; mouse?: MouseEvent; nowMs?: number }
  | { type: 'progress'; done: number; total: number }
  | { type: 'report'; report: CheckReport }
  | { type: 'secretsProgress'; done: number; total: number }
  | { type: 'secretsReport'; report: SecretReport }
  | { type: 'resize'; height: number; width?: number }
  | { type: 'effectsTaken'; upTo: number }
  /** Enter found the file gone (`message` says so): it leaves the view. */
  | { type: 'sessionGone'; path: string; message: string };

/** `bindings`: default CHECK_BINDINGS (pi's keybindings.json applied by src/keymap/screen-keymaps.ts). */
export function initialCheckState(
  height: number,
  bindings: readonly KeyBinding<CheckCommand, CheckKeyMode>[] = CHECK_BINDINGS,
  width = 80,
): CheckState {
  return {
    progress: { done: 0, total: 0 },
    view: { lines: [], files: [] },
    secrets: { on: false, progress: undefined, report: undefined },
    mode: 'list',
    cursor: 0,
    offset: 0,
    height: Math.max(1, height),
    width: Math.max(1, width),
    status: undefined,
    effects: [],
    nextId: 1,
    leaving: false,
    bindings,
    lastClick: undefined,
  };
}

/** The reducer's action for a key from the tokenizer, read at `nowMs`. */
export function checkKey(keypress: Keypress, nowMs?: number): CheckAction {
  const { name, text, paste, mouse } = keypress;
  return { type: 'key', name, text, paste, ...(mouse ? { mouse } : {}), ...(nowMs === undefined ? {} : { nowMs }) };
}

/** False once the view is being left (a tree opens, back, quit): the keys after belong to the next screen. */
export function checkTakesKeys(state: CheckState): boolean {
  return !state.leaving;
}
