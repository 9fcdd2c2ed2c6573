/**
 * The check view's state machine (pure): the audit arrives (with progress while it runs), the
 * cursor moves between files, the shared viewport scrolls the lines, Enter asks to open a file's
 * tree and Esc to go back; the screen runs those as effects.
 */
import { type KeyBinding, type KeyName, resolveCommand } from '../keymap/keymap.js';
import { clampOffset, pageStep } from '../state/viewport.js';
import type { CheckReport } from '../store/index.js';
import { CHECK_BINDINGS, type CheckCommand, type CheckKeyMode } from './keymap.js';
import { CHECK_MARK_WIDTH, type CheckView, checkView } from './view.js';

export type CheckEffect =
  | { id: number; kind: 'open'; path: string }
  | { id: number; kind: 'back' }
  | { id: number; kind: 'quit' };

export interface CheckState {
  /** Files checked so far and in all, while the audit runs; undefined once it is done. */
  progress: { done: number; total: number } | undefined;
  view: CheckView;
  /** The audit the view shows (files leave it when they turn out to be gone). */
  report?: CheckReport;
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
}

export type CheckAction =
  | { type: 'key'; name: KeyName | undefined }
  | { type: 'progress'; done: number; total: number }
  | { type: 'report'; report: CheckReport }
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
    cursor: 0,
    offset: 0,
    height: Math.max(1, height),
    width: Math.max(1, width),
    status: undefined,
    effects: [],
    nextId: 1,
    leaving: false,
    bindings,
  };
}

function layout(report: CheckReport, width: number): CheckView {
  return checkView(report, Math.max(1, width - CHECK_MARK_WIDTH));
}

/** The offset that shows the selected file, its first line first when it does not fit. */
function showCursor(state: CheckState): CheckState {
  const file = state.view.files[state.cursor];
  if (!file) return state;
  const count = state.view.lines.length;
  const offset = clampOffset(
    clampOffset(state.offset, file.last, state.height, count),
    file.first,
    state.height,
    count,
  );
  return offset === state.offset ? state : { ...state, offset };
}

function moveTo(state: CheckState, cursor: number): CheckState {
  const files = state.view.files.length;
  if (files === 0) return state;
  const next = Math.max(0, Math.min(files - 1, cursor));
  return showCursor({ ...state, cursor: next, status: undefined });
}

/** Scrolls the lines; the cursor follows to the first file starting on screen. */
function scroll(state: CheckState, by: number): CheckState {
  const max = Math.max(0, state.view.lines.length - state.height);
  const offset = Math.max(0, Math.min(max, state.offset + by));
  const files = state.view.files;
  let cursor = files.findIndex((f) => f.first >= offset);
  if (cursor < 0) cursor = files.length - 1;
  return { ...state, offset, cursor: Math.max(0, cursor), status: undefined };
}

/** An effect as queued, before it has its id. */
type CheckEffectBody = CheckEffect extends infer E ? (E extends CheckEffect ? Omit<E, 'id'> : never) : never;

function effect(state: CheckState, body: CheckEffectBody): CheckState {
  const leaving = true;
  return { ...state, effects: [...state.effects, { ...body, id: state.nextId }], nextId: state.nextId + 1, leaving };
}

function onKey(state: CheckState, name: KeyName | undefined): CheckState {
  const command = resolveCommand(state.bindings, name, 'list');
  switch (command) {
    case 'up':
      return moveTo(state, state.cursor - 1);
    case 'down':
      return moveTo(state, state.cursor + 1);
    case 'pageUp':
      return scroll(state, -pageStep(state.height));
    case 'pageDown':
      return scroll(state, pageStep(state.height));
    case 'first':
      return { ...moveTo(state, 0), offset: 0 };
    case 'last':
      return moveTo(state, state.view.files.length - 1);
    case 'open': {
      const file = state.view.files[state.cursor];
      if (!file) return state;
      if (!file.openable)
        return { ...state, status: 'pi cannot read this file as a session: there is no tree to open' };
      return effect(state, { kind: 'open', path: file.path });
    }
    case 'back':
      return effect(state, { kind: 'back' });
    case 'quit':
      return effect(state, { kind: 'quit' });
    default:
      return state;
  }
}

export function checkReducer(state: CheckState, action: CheckAction): CheckState {
  switch (action.type) {
    case 'key':
      return state.leaving ? state : onKey(state, action.name);
    case 'progress':
      return { ...state, progress: { done: action.done, total: action.total } };
    case 'report':
      return showCursor({
        ...state,
        progress: undefined,
        report: action.report,
        view: layout(action.report, state.width),
        cursor: 0,
        offset: 0,
      });
    case 'sessionGone': {
      if (!state.report) return { ...state, leaving: false, status: action.message };
      const report = { ...state.report, files: state.report.files.filter((f) => f.path !== action.path) };
      const view = layout(report, state.width);
      const cursor = Math.min(state.cursor, Math.max(0, view.files.length - 1));
      return showCursor({ ...state, report, view, cursor, leaving: false, status: action.message });
    }
    case 'resize': {
      const height = Math.max(1, action.height);
      const width = Math.max(1, action.width ?? state.width);
      if (height === state.height && width === state.width) return state;
      // A new width lays the lines out again; the selected file stays selected and on screen.
      const view = width !== state.width && state.report ? layout(state.report, width) : state.view;
      const offset = view === state.view ? state.offset : (view.files[state.cursor]?.first ?? 0);
      return showCursor({
        ...state,
        height,
        width,
        view,
        offset: clampOffset(offset, 0, height, view.lines.length),
      });
    }
    case 'effectsTaken': {
      const effects = state.effects.filter((e) => e.id > action.upTo);
      return effects.length === state.effects.length ? state : { ...state, effects };
    }
  }
}

/** The state handed back after the tree: same lines, cursor and scroll, taking keys again. */
export function resumeCheckState(state: CheckState): CheckState {
  return { ...state, effects: [], leaving: false, status: undefined };
}
