/**
 * Exporting a session from the picker (pure): the key asks the format in a menu, then the path (a
 * new file in the folder pi-sessions runs in, named after the session, or any path typed), then
 * runs the export as an effect. The export is the CLI's (src/export/run.ts): the active branch,
 * scanned for secrets first. When the scan finds any, nothing is written yet: a menu asks to redact
 * them (the default, first) or to keep them; cancelling writes nothing.
 */
import { isAbsolute, join } from 'node:path';
import type { ExportFormat } from '../export/run.js';
import { formatBytes, plural } from '../format.js';
import { chosenValue, type MenuItem, moveMenu, openMenu } from '../state/menu.js';
import { initialTextInput, textInputReducer } from '../state/text-input.js';
import { textEditOf } from '../state/text-input-keys.js';
import type { SecretFinding } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import type { ExportRequestBody, ExportStep } from './export-types.js';
import type { PickerCommand } from './keymap.js';
import type { PickerMode } from './mode.js';
import { findInfo, type PickerState, relayout, withEffect, withStatus } from './state.js';

export type ExportMode = Extract<PickerMode, { kind: 'export' }>;

const FORMAT_ITEMS: readonly MenuItem<ExportFormat | 'cancel'>[] = [
  { label: 'Markdown (.md): for a pull request or an issue', value: 'md' },
  { label: 'HTML (.html): one self-contained page, no script', value: 'html' },
  { label: 'JSONL (.jsonl): a session file pi opens', value: 'jsonl' },
  { label: 'Cancel', value: 'cancel' },
];

const SECRET_ITEMS: readonly MenuItem<'redact' | 'keep' | 'cancel'>[] = [
  { label: 'Redact them: each becomes [REDACTED kind] in the export', value: 'redact' },
  { label: 'Keep them as they are', value: 'keep' },
  { label: 'Cancel: export nothing', value: 'cancel' },
];

/** `pi-session-<first 8 of its id>.<format>`: a name that says what it is and is the same for one session. */
export function defaultExportName(id: string, format: ExportFormat): string {
  const short = id.replace(/[^\w-]/g, '').slice(0, 8) || 'export';
  return `pi-session-${short}.${format}`;
}

export function startExport(state: PickerState, path: string): PickerState {
  if (state.busy) return withStatus(state, 'Please wait: the last change is still being saved', 'error');
  return relayout({
    ...state,
    status: undefined,
    mode: { kind: 'export', path, step: { kind: 'format', menu: openMenu(FORMAT_ITEMS) } },
  });
}

function cancelled(state: PickerState): PickerState {
  return withStatus(relayout({ ...state, mode: { kind: 'browse' } }), 'Nothing was exported', 'neutral');
}

function withStep(state: PickerState, mode: ExportMode, step: ExportStep): PickerState {
  return relayout({ ...state, mode: { ...mode, step } });
}

function run(state: PickerState, request: ExportRequestBody): PickerState {
  const step: ExportStep = { kind: 'running', format: request.format, out: request.out };
  const running = relayout({
    ...state,
    status: undefined,
    mode: { kind: 'export', path: request.path, step },
    busy: true,
  });
  return withEffect(running, { kind: 'export', ...request });
}

/** Back to the list once the export is over (whatever mode it is in). */
function closed(state: PickerState): PickerState {
  return relayout({ ...state, busy: false, mode: state.mode.kind === 'export' ? { kind: 'browse' } : state.mode });
}

export function exportCommand(
  state: PickerState,
  mode: ExportMode,
  command: PickerCommand | undefined,
  text: string | undefined,
): PickerState {
  const { step } = mode;
  if (step.kind === 'running') return state;
  if (command === 'cancel') return cancelled(state);
  if (step.kind === 'path') {
    if (command === 'save') {
      const typed = step.input.value.trim();
      if (typed === '') return withStatus(state, 'Type the path of a new file to export to', 'error');
      const out = isAbsolute(typed) ? typed : join(state.here, typed);
      return run(state, { path: mode.path, format: step.format, out, secrets: 'stop' });
    }
    const edit = command ? textEditOf(command) : text !== undefined ? ({ type: 'insert', text } as const) : undefined;
    if (!edit) return state;
    const input = textInputReducer(step.input, edit);
    return input === step.input ? state : withStep(state, mode, { ...step, input });
  }
  if (command === 'up' || command === 'down') {
    const delta = command === 'up' ? -1 : 1;
    if (step.kind === 'format') return withStep(state, mode, { ...step, menu: moveMenu(step.menu, delta) });
    return withStep(state, mode, { ...step, menu: moveMenu(step.menu, delta) });
  }
  if (command !== 'choose') return state;
  if (step.kind === 'format') {
    const format = chosenValue(step.menu);
    if (format === undefined || format === 'cancel') return cancelled(state);
    const id = findInfo(state, mode.path)?.id ?? '';
    return withStep(state, mode, { kind: 'path', format, input: initialTextInput(defaultExportName(id, format)) });
  }
  const choice = chosenValue(step.menu);
  if (choice === undefined || choice === 'cancel') return cancelled(state);
  return run(state, { path: mode.path, format: step.format, out: step.out, secrets: choice });
}

export function exportStopped(state: PickerState, request: ExportRequestBody, findings: SecretFinding[]): PickerState {
  return relayout({
    ...state,
    busy: false,
    status: undefined,
    mode: {
      kind: 'export',
      path: request.path,
      step: { kind: 'secrets', format: request.format, out: request.out, findings, menu: openMenu(SECRET_ITEMS) },
    },
  });
}

export function exported(
  state: PickerState,
  result: { format: ExportFormat; out: string; bytes: number; redacted: number; kept: number },
): PickerState {
  const note =
    result.redacted > 0
      ? `; ${plural(result.redacted, 'secret')} redacted`
      : result.kept > 0
        ? `; ${plural(result.kept, 'secret')} kept as they are`
        : '';
  return withStatus(closed(state), `Exported ${result.format} (${formatBytes(result.bytes)}) to ${result.out}${note}`);
}

export function exportFailed(state: PickerState, error: string): PickerState {
  return withStatus(closed(state), `Not exported: ${error}`, 'error');
}

/** The dialog's title for each step (pure; the dialog renders it with the menu or the field). */
export function exportTitle(mode: ExportMode, title: string): string {
  const { step } = mode;
  if (step.kind === 'format') return `Export the active branch of “${title}” as:`;
  if (step.kind === 'path') return `Export ${step.format} of “${title}” to a new file:`;
  if (step.kind === 'running') return `Exporting ${step.format} of “${title}” (scanning it for secrets first)…`;
  const kinds = [...new Set(step.findings.map((f) => f.kind))].map((k) => sanitizeInline(k)).join(', ');
  return `${plural(step.findings.length, 'secret')} in what would be exported (${kinds}): redact them?`;
}
