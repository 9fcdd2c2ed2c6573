/**
 * Exporting a session from the picker (pure): Alt+E opens the export dialog every screen shares
 * (src/state/export-dialog.ts) on the highlighted session's active branch. The picker says which
 * of its commands the dialog takes and how its mode, status and effects hold the dialog; the glue
 * between the two is src/state/export-dialog-screen.ts.
 */
import {
  type ExportOutcomeAction,
  type ExportRequestBody,
  exportDialogInput,
  exportDialogTitle,
  exportedMessage,
  exportFailedMessage,
  openExportDialog,
  secretsStep,
} from '../state/export-dialog.js';
import {
  applyDialogResult,
  dialogInputOfKey,
  type ExportDialogCommands,
  type ExportDialogScreen,
} from '../state/export-dialog-screen.js';
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

/** The picker's commands the dialog takes. */
const EXPORT_COMMANDS: ExportDialogCommands<PickerCommand> = {
  cancel: 'cancel',
  submitPath: 'save',
  choose: 'choose',
  up: 'up',
  down: 'down',
};

/** The dialog in the picker's export mode; while the export runs the picker is busy (it takes no other write). */
function pickerDialog(mode: ExportMode): ExportDialogScreen<PickerState> {
  return {
    withStep: (state, step) => relayout({ ...state, mode: step === null ? { kind: 'browse' } : { ...mode, step } }),
    withStatus: (state, status) =>
      status === null
        ? { ...state, status: undefined }
        : withStatus(state, status.text, status.tone === 'note' ? 'neutral' : 'error'),
    withExport: (state, request) => withEffect({ ...state, busy: true }, { kind: 'export', ...request }),
  };
}

export function exportCommand(
  state: PickerState,
  mode: ExportMode,
  command: PickerCommand | undefined,
  text: string | undefined,
): PickerState {
  const input = dialogInputOfKey(mode.step, EXPORT_COMMANDS, command, text);
  if (!input) return state;
  const target = { path: mode.path, sessionId: findInfo(state, mode.path)?.id ?? '', here: state.here };
  return applyDialogResult(state, exportDialogInput(mode.step, input, target), pickerDialog(mode));
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
