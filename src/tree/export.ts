/**
 * Exporting from the tree (pure): Alt+E or the entry menu's Export opens the export dialog every
 * screen shares (src/state/export-dialog.ts) on the branch from the root to the selected entry.
 * The tree says which of its commands the dialog takes and how its mode, status and effects hold
 * the dialog; the glue between the two is src/state/export-dialog-screen.ts.
 */
import {
  type ExportOutcomeAction,
  type ExportRequestBody,
  exportDialogInput,
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

/** The tree's commands the dialog takes. */
const EXPORT_COMMANDS: ExportDialogCommands<TreeCommand> = {
  cancel: 'cancel',
  submitPath: 'submit',
  choose: 'menuChoose',
  up: 'menuUp',
  down: 'menuDown',
};

/** The dialog in the tree's export mode. */
function treeDialog(mode: ExportMode): ExportDialogScreen<TreeState> {
  return {
    withStep: (state, step) => ({ ...state, mode: step === null ? BROWSE : { ...mode, step } }),
    withStatus: (state, status) =>
      withStatus(
        state,
        status === null ? null : { text: status.text, tone: status.tone === 'note' ? 'info' : 'error' },
      ),
    withExport: (state, request) => queue(state, { kind: 'export', ...request }),
  };
}

/** A key in the export dialog: a menu key, or the path prompt's (typed text included). */
export function exportKey(state: TreeState, command: TreeCommand | undefined, text: string): TreeState {
  const mode = state.mode;
  if (mode.kind !== 'export') return state;
  const input = dialogInputOfKey(mode.step, EXPORT_COMMANDS, command, text);
  if (!input) return state;
  const { path, id: sessionId, here } = state.session;
  const target = { path, sessionId, here, leaf: mode.targetId };
  return applyDialogResult(state, exportDialogInput(mode.step, input, target), treeDialog(mode));
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
