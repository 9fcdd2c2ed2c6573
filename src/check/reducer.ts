/**
 * The check view's state machine (pure): the audit arrives (with progress while it runs), the
 * cursor moves between files, the shared viewport scrolls the lines, Enter asks to open a file's
 * tree and Esc to go back; `s` shows only the sessions the secret scan finds credentials in (the
 * scan is asked for the first time, then kept) and again every file; `?` shows the keys. The
 * screen runs the effects.
 */
import { type KeyBinding, type KeyName, resolveCommand } from '../keymap/keymap.js';
import { reduceText } from '../keymap/text-runs.js';
import { clampOffset, pageStep } from '../state/viewport.js';
import type { CheckReport, SecretReport } from '../store/index.js';
import { CHECK_BINDINGS, type CheckCommand, type CheckKeyMode } from './keymap.js';
import { secretsView } from './secrets-view.js';
import { CHECK_MARK_WIDTH, type CheckView, checkView } from './view.js';

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
}

export type CheckAction =
  /** A key from the tokenizer; `text`: a run of typed characters (one read), `paste`: pasted text. */
  | { type: 'key'; name: KeyName | undefined; text?: string; paste?: boolean }
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
  };
}

function layout(report: CheckReport, width: number): CheckView {
  return checkView(report, Math.max(1, width - CHECK_MARK_WIDTH));
}

/** While the scan runs, the filter shows one line saying so. */
function scanningView(progress: { done: number; total: number }): CheckView {
  return {
    lines: [{ text: `Scanning for secrets: ${progress.done}/${progress.total || '?'} files…`, tone: 'heading' }],
    files: [],
  };
}

/** The lines of what is shown now: the audit, or its secrets filter (or the scan's progress). */
function viewOf(state: CheckState): CheckView {
  const width = Math.max(1, state.width - CHECK_MARK_WIDTH);
  const { secrets } = state;
  if (secrets.on) {
    if (secrets.report) return secretsView(secrets.report, state.report, width);
    return scanningView(secrets.progress ?? { done: 0, total: 0 });
  }
  return state.report ? checkView(state.report, width) : { lines: [], files: [] };
}

/** Shows the other view (the audit or the secrets), from its top; the first `s` asks for the scan. */
function toggleSecrets(state: CheckState): CheckState {
  const on = !state.secrets.on;
  const scan = on && !state.secrets.report && !state.secrets.progress;
  const secrets: SecretsFilter = { ...state.secrets, on, ...(scan ? { progress: { done: 0, total: 0 } } : {}) };
  const next: CheckState = { ...state, secrets, cursor: 0, offset: 0, status: undefined };
  const shown = { ...next, view: viewOf(next) };
  return scan
    ? { ...shown, effects: [...shown.effects, { kind: 'scanSecrets', id: shown.nextId }], nextId: shown.nextId + 1 }
    : shown;
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
  const command = resolveCommand(state.bindings, name, state.mode);
  if (state.mode === 'help') return command === 'quit' ? effect(state, { kind: 'quit' }) : { ...state, mode: 'list' };
  switch (command) {
    case 'secrets':
      return toggleSecrets(state);
    case 'help':
      return { ...state, mode: 'help' };
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
    case 'key': {
      if (state.leaving || action.paste) return state;
      // A read's run of characters (`s?`) means what the same keys typed one by one mean: nothing here types.
      if (action.name === undefined && action.text)
        return reduceText(
          state,
          { name: undefined, text: action.text, paste: false },
          () => false,
          (s) => s,
          (s, single) => (s.leaving ? s : onKey(s, single.name)),
        );
      return onKey(state, action.name);
    }
    case 'progress':
      return { ...state, progress: { done: action.done, total: action.total } };
    case 'report': {
      const next: CheckState = { ...state, progress: undefined, report: action.report };
      // Under the secrets filter the audit only names the files: the cursor stays where it is.
      if (state.secrets.on) return showCursor({ ...next, view: viewOf(next) });
      return showCursor({ ...next, view: layout(action.report, state.width), cursor: 0, offset: 0 });
    }
    case 'secretsProgress': {
      if (state.secrets.report) return state;
      const next: CheckState = {
        ...state,
        secrets: { ...state.secrets, progress: { done: action.done, total: action.total } },
      };
      return next.secrets.on ? { ...next, view: viewOf(next) } : next;
    }
    case 'secretsReport': {
      const next: CheckState = { ...state, secrets: { ...state.secrets, progress: undefined, report: action.report } };
      return next.secrets.on ? showCursor({ ...next, view: viewOf(next), cursor: 0, offset: 0 }) : next;
    }
    case 'sessionGone': {
      if (!state.report && !state.secrets.report) return { ...state, leaving: false, status: action.message };
      const gone = <T extends { files: { path: string }[] }>(r: T | undefined): T | undefined =>
        r && { ...r, files: r.files.filter((f) => f.path !== action.path) };
      const report = gone(state.report);
      const next: CheckState = {
        ...state,
        ...(report ? { report } : {}),
        secrets: { ...state.secrets, report: gone(state.secrets.report) },
      };
      const view = viewOf(next);
      const cursor = Math.min(state.cursor, Math.max(0, view.files.length - 1));
      return showCursor({ ...next, view, cursor, leaving: false, status: action.message });
    }
    case 'resize': {
      const height = Math.max(1, action.height);
      const width = Math.max(1, action.width ?? state.width);
      if (height === state.height && width === state.width) return state;
      // A new width lays the lines out again; the selected file stays selected and on screen.
      const view = width !== state.width ? viewOf({ ...state, width }) : state.view;
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
  const resumed: CheckState = { ...state, effects: [], leaving: false, status: undefined, mode: 'list' };
  // A secret scan cut short when the tree opened (the screen that ran it went away) starts again.
  if (!state.secrets.progress || state.secrets.report) return resumed;
  return {
    ...resumed,
    secrets: { ...state.secrets, progress: { done: 0, total: 0 } },
    effects: [{ kind: 'scanSecrets', id: state.nextId }],
    nextId: state.nextId + 1,
  };
}
