/**
 * Exporting a session from the picker (pure): Alt+E opens the export dialog every screen shares
 * (src/state/export-dialog.ts) on the highlighted session's active branch; this maps the picker's
 * keys to it and its outcome to the picker's modes, status and effects.
 */
import {
  type DialogInput,
  type DialogResult,
  type ExportOutcomeAction,
  type ExportRequestBody,
  exportDialogInput,
  exportDialogTitle,
  exportedMessage,
  exportFailedMessage,
  NOTHING_EXPORTED,
  openExportDialog,
  secretsStep,
} from '../state/export-dialog.js';
import { textEditOf } from '../state/text-input-keys.js';
import type { SecretFinding } from '../store/index.js';
import type { PickerCommand } from './keymap.js';
import type { PickerMode } from './mode.js';
import { findInfo, type PickerState, relayout, withEffect, withStatus } from './state.js';

export { defaultExportName } from '../state/export-dialog.js';

export type ExportMode = Extract<PickerMode, { kind: 'export' }>;

export function startExport(state: PickerState, path: string): PickerState {
  if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
  return relayout({ ...state, status: undefined, mode: { kind: 'export', path, step: openExportDialog() } });
}

/** Back to the list once the export is over (whatever mode it is in). */
function closed(state: PickerState): PickerState {
  return relayout({ ...state, busy: false, mode: state.mode.kind === 'export' ? { kind: 'browse' } : state.mode });
}

/** The picker's key as the dialog's input (the path field's keys in the path step, the menu's in the others). */
function dialogInput(
  mode: ExportMode,
  command: PickerCommand | undefined,
  text: string | undefined,
): DialogInput | undefined {
  if (command === 'cancel') return { kind: 'cancel' };
  if (mode.step.kind === 'path') {
    if (command === 'save') return { kind: 'confirm' };
    const edit = command ? textEditOf(command) : text !== undefined ? ({ type: 'insert', text } as const) : undefined;
    return edit ? { kind: 'edit', edit } : undefined;
  }
  if (command === 'up' || command === 'down') return { kind: 'move', delta: command === 'up' ? -1 : 1 };
  return command === 'choose' ? { kind: 'confirm' } : undefined;
}

function applied(state: PickerState, mode: ExportMode, result: DialogResult | undefined): PickerState {
  if (!result) return state;
  switch (result.kind) {
    case 'cancelled':
      return withStatus(relayout({ ...state, mode: { kind: 'browse' } }), NOTHING_EXPORTED, 'neutral');
    case 'refused':
      return withStatus(state, result.message, 'error');
    case 'step':
      return relayout({ ...state, mode: { ...mode, step: result.step } });
    case 'run': {
      const running = relayout({ ...state, status: undefined, mode: { ...mode, step: result.step }, busy: true });
      return withEffect(running, { kind: 'export', ...result.request });
    }
  }
}

export function exportCommand(
  state: PickerState,
  mode: ExportMode,
  command: PickerCommand | undefined,
  text: string | undefined,
): PickerState {
  const input = dialogInput(mode, command, text);
  if (!input) return state;
  const target = { path: mode.path, sessionId: findInfo(state, mode.path)?.id ?? '', here: state.here };
  return applied(state, mode, exportDialogInput(mode.step, input, target));
}

export function exportStopped(state: PickerState, request: ExportRequestBody, findings: SecretFinding[]): PickerState {
  return relayout({
    ...state,
    busy: false,
    status: undefined,
    mode: { kind: 'export', path: request.path, step: secretsStep(request, findings) },
  });
}

export function exported(state: PickerState, result: Extract<ExportOutcomeAction, { type: 'exported' }>): PickerState {
  return withStatus(closed(state), exportedMessage(result));
}

export function exportFailed(state: PickerState, error: string): PickerState {
  return withStatus(closed(state), exportFailedMessage(error), 'error');
}

/** The dialog's title for each step (the dialog renders it with the menu or the field). */
export function exportTitle(mode: ExportMode, title: string): string {
  return exportDialogTitle(mode.step, 'the active branch of', title);
}
