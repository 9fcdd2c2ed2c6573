/**
 * "Keep only the active branch" from the picker: the key measures the session first
 * (`planSlim` effect), then a prompt shows the size before and after; only then is the slim made
 * (a fork of the active path, the original to the trash; Ctrl+Z takes both back). The session pi
 * is in is never slimmed from here, and a live-looking one needs y, as for a delete.
 */
import { formatBytes, plural } from '../format.js';
import { type KeyBinding, keyFor, keyPrompt } from '../keymap/keymap.js';
import { withOwnChanges } from '../state/journal-undo.js';
import type { SlimPlan, SlimResult } from '../store/index.js';
import type { PickerCommand } from './keymap.js';
import { isLive } from './layout.js';
import type { PickerMode } from './mode.js';
import { findInfo, type PickerState, relayout, withEffect, withStatus } from './state.js';

export type SlimMode = Extract<PickerMode, { kind: 'slimConfirm' }>;

export function startSlim(state: PickerState, path: string): PickerState {
  if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
  if (path === state.current)
    return withStatus(state, 'Not slimmed: the session pi is in cannot be slimmed from here', 'error');
  return withStatus(withEffect({ ...state, busy: true }, { kind: 'planSlim', path }), 'Measuring the active branch…');
}

export function slimPlanned(state: PickerState, plan: SlimPlan, path: string, nowMs: number): PickerState {
  const idle = { ...state, busy: false };
  if (plan.branchEntries >= plan.entries)
    return withStatus(idle, 'Nothing to slim: every entry is on the active branch');
  const info = findInfo(state, path);
  const needsYes = info !== undefined && isLive(info, nowMs);
  return relayout({ ...idle, status: undefined, mode: { kind: 'slimConfirm', path, plan, needsYes } });
}

export function slimCommand(state: PickerState, mode: SlimMode, command: PickerCommand | undefined): PickerState {
  if (command === 'cancel') return relayout({ ...withStatus(state, 'Nothing was slimmed'), mode: { kind: 'browse' } });
  const accepted = command === 'confirmYes' || (command === 'confirm' && !mode.needsYes);
  if (!accepted) return state;
  return withStatus(
    withEffect(relayout({ ...state, mode: { kind: 'browse' }, busy: true }), { kind: 'slim', path: mode.path }),
    'Slimming…',
  );
}

export function slimmed(state: PickerState, result: SlimResult): PickerState {
  const undoHint = keyPrompt(state.bindings, 'browse', [['undo', 'undoes']]);
  const where = result.linkTarget
    ? 'the link is in the trash, the file it led to is untouched'
    : 'the original is in the trash';
  const text = `Slimmed ${formatBytes(result.sizeBefore)} → ${formatBytes(result.sizeAfter)} (${plural(result.entriesAfter, 'entry', 'entries')} of ${result.entriesBefore}); ${where}${undoHint ? ` · ${undoHint}` : ''}`;
  return afterRewrite(state, text, result);
}

/**
 * After a write that replaced files in the store (slim, a merge): idle again, the change this
 * screen's own for undo, its message (a journal warning makes it an error), and this scope listed
 * again, since rows went and came; the other scopes are listed when next shown.
 */
export function afterRewrite(
  state: PickerState,
  text: string,
  result: { changeId?: string; journalWarning?: string },
): PickerState {
  const idle = {
    ...state,
    busy: false,
    ownChanges: result.changeId ? withOwnChanges(state.ownChanges, [result.changeId]) : state.ownChanges,
  };
  const shown = result.journalWarning
    ? withStatus(idle, `${text}; warning: ${result.journalWarning}`, 'error')
    : withStatus(idle, text);
  const current = state.lists[state.scope];
  return withEffect(
    { ...shown, lists: current ? { [state.scope]: current } : {} },
    { kind: 'load', scope: state.scope },
  );
}

/** The prompt's lines (pure; the dialog renders them). */
export function slimLines(
  mode: SlimMode,
  title: string,
  bindings: readonly KeyBinding<PickerCommand>[],
): { title: string; what: string; how: string; warning: string; keys: string } {
  const { plan } = mode;
  const undo = keyFor(bindings, 'undo', 'browse');
  return {
    title: `Keep only the active branch of “${title}”?`,
    what: `${formatBytes(plan.sizeBefore)} → about ${formatBytes(plan.estimatedAfter)} · ${plan.branchEntries} of ${plural(plan.entries, 'entry', 'entries')} kept`,
    // The undo key first: where the line must be cut (a narrow terminal), the explanation goes, not the way back.
    how: undo
      ? `${undo} undoes it: the branch goes to a new session, the original to the trash.`
      : 'The branch goes to a new session, the original to the trash.',
    warning: mode.needsYes ? '⚠ It changed in the last 5 minutes: pi may still be writing to it.' : '',
    keys: keyPrompt(bindings, 'confirm', [
      mode.needsYes ? ['confirmYes', 'slim anyway'] : ['confirm', 'slim'],
      ['cancel', 'cancel'],
    ]),
  };
}
