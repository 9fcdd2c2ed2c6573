/**
 * The check view's state machine (pure): the audit arrives (with progress while it runs), the
 * cursor moves between files, the shared viewport scrolls the lines, Enter asks to open a file's
 * tree and Esc to go back; `s` shows only the sessions the secret scan finds credentials in (the
 * scan is asked for the first time, then kept) and again every file; `?` shows the keys; the
 * wheel scrolls and a click selects (./mouse.ts). The screen runs the effects.
 */
import { isMouseKey } from '../keymap/key-name.js';
import { type KeyName, resolveCommand } from '../keymap/keymap.js';
import { reduceText } from '../keymap/text-runs.js';
import type { MouseEvent } from '../keymap/tokenize.js';
import { isListMouseCommand } from '../state/list-mouse.js';
import { clampOffset, pageStep } from '../state/viewport.js';
import type { CheckReport } from '../store/index.js';
import { checkMouse } from './mouse.js';
import { leaveWith, moveTo, openSelected, scroll, showCursor } from './navigation.js';
import { secretsView } from './secrets-view.js';
import type { CheckAction, CheckState, SecretsFilter } from './state.js';
import { CHECK_MARK_WIDTH, type CheckView, checkView } from './view.js';

export {
  type CheckAction,
  type CheckEffect,
  type CheckState,
  checkKey,
  checkTakesKeys,
  initialCheckState,
  type SecretsFilter,
} from './state.js';

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

function onKey(
  state: CheckState,
  name: KeyName | undefined,
  mouse: MouseEvent | undefined,
  nowMs: number | undefined,
): CheckState {
  const command = resolveCommand(state.bindings, name, state.mode);
  if (state.mode === 'help') {
    if (command === 'quit') return leaveWith(state, { kind: 'quit' });
    // Any key closes the help, but the mouse is no key: a wheel notch or a click leaves it open.
    return isMouseKey(name) ? state : { ...state, mode: 'list' };
  }
  if (isListMouseCommand(command)) return checkMouse(state, command, mouse, nowMs);
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
    case 'open':
      return openSelected(state);
    case 'back':
      return leaveWith(state, { kind: 'back' });
    case 'quit':
      return leaveWith(state, { kind: 'quit' });
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
          (s, single) => (s.leaving ? s : onKey(s, single.name, undefined, undefined)),
        );
      return onKey(state, action.name, action.mouse, action.nowMs);
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
