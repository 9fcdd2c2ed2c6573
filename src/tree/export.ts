/**
 * Exporting from the tree (pure): Alt+E or the entry menu's Export opens the export dialog every
 * screen shares (src/state/export-dialog.ts) on the branch from the root to the selected entry;
 * this maps the tree's keys to it and its outcome to the tree's modes, status and effects.
 */
import {
  type DialogInput,
  type DialogResult,
  type ExportOutcomeAction,
  type ExportRequestBody,
  exportDialogInput,
  exportedMessage,
  exportFailedMessage,
  NOTHING_EXPORTED,
  openExportDialog,
  secretsStep,
} from '../state/export-dialog.js';
import { textEditOf } from '../state/text-input-keys.js';
import type { SecretFinding } from '../store/index.js';
import { forkNodeById, retainedNodeById } from './flatten.js';
import type { TreeCommand } from './keymap.js';
import { FORK_ROW_NOTE } from './lineage-actions.js';
import { BROWSE, queue, type TreeMode, type TreeState, withStatus } from './state.js';

type ExportMode = Extract<TreeMode, { kind: 'export' }>;

/** A retained message has a row but no entry to end a branch at. */
const RETAINED_EXPORT_NOTE =
  'A retained message is a copy its compaction keeps, not an entry: export the branch to its compaction';

/** The dialog on the branch to `id` (the selected row). */
export function startExport(state: TreeState, id: string | null): TreeState {
  const back = { ...state, mode: BROWSE };
  if (id === null) return withStatus(back, { text: 'No entry selected', tone: 'info' });
  if (retainedNodeById(state.index, id)) return withStatus(back, { text: RETAINED_EXPORT_NOTE, tone: 'error' });
  if (forkNodeById(state.index, id)) return withStatus(back, { text: FORK_ROW_NOTE, tone: 'error' });
  return { ...state, mode: { kind: 'export', targetId: id, step: openExportDialog() }, status: null };
}

/** The tree's key as the dialog's input (the prompt's keys in the path step, the menu's in the others). */
function dialogInput(mode: ExportMode, command: TreeCommand | undefined, text: string): DialogInput | undefined {
  if (command === 'cancel') return { kind: 'cancel' };
  if (mode.step.kind === 'path') {
    if (command === 'submit') return { kind: 'confirm' };
    const edit = textEditOf(command) ?? (command === undefined && text !== '' ? { type: 'insert', text } : undefined);
    return edit ? { kind: 'edit', edit } : undefined;
  }
  if (command === 'menuUp' || command === 'menuDown') return { kind: 'move', delta: command === 'menuUp' ? -1 : 1 };
  return command === 'menuChoose' ? { kind: 'confirm' } : undefined;
}

function applied(state: TreeState, mode: ExportMode, result: DialogResult | undefined): TreeState {
  if (!result) return state;
  switch (result.kind) {
    case 'cancelled':
      return withStatus({ ...state, mode: BROWSE }, { text: NOTHING_EXPORTED, tone: 'info' });
    case 'refused':
      return withStatus(state, { text: result.message, tone: 'error' });
    case 'step':
      return { ...state, mode: { ...mode, step: result.step } };
    case 'run':
      return queue(
        { ...state, status: null, mode: { ...mode, step: result.step } },
        { kind: 'export', ...result.request },
      );
  }
}

/** A key in the export dialog: a menu key, or the path prompt's (typed text included). */
export function exportKey(state: TreeState, command: TreeCommand | undefined, text: string): TreeState {
  const mode = state.mode;
  if (mode.kind !== 'export') return state;
  const input = dialogInput(mode, command, text);
  if (!input) return state;
  const { path, id: sessionId, here } = state.session;
  return applied(state, mode, exportDialogInput(mode.step, input, { path, sessionId, here, leaf: mode.targetId }));
}

function stopped(state: TreeState, request: ExportRequestBody, findings: SecretFinding[]): TreeState {
  const targetId = state.mode.kind === 'export' ? state.mode.targetId : (request.leaf ?? '');
  return { ...state, status: null, mode: { kind: 'export', targetId, step: secretsStep(request, findings) } };
}

/** The export's outcome: written (back to the tree), stopped by secrets (the user chooses), or failed. */
export function exportOutcome(state: TreeState, action: ExportOutcomeAction): TreeState {
  const back = state.mode.kind === 'export' ? { ...state, mode: BROWSE } : state;
  switch (action.type) {
    case 'exported':
      return withStatus(back, { text: exportedMessage(action), tone: 'success' });
    case 'exportStopped':
      return stopped(state, action.request, action.findings);
    case 'exportFailed':
      return withStatus(back, { text: exportFailedMessage(action.error), tone: 'error' });
  }
}
