/**
 * The export dialog every screen shares (pure): the picker exports a session's active branch, the
 * tree the branch from the root to the selected entry. A menu asks the format, then a field the
 * path (a new file in the folder pi-sessions runs in, named after the session, or any path typed),
 * then the export runs as the screen's effect. The export is the CLI's (src/export/run.ts): scanned
 * for secrets first; when the scan finds any nothing is written yet, and a menu asks to redact them
 * (the default, first) or to keep them; cancelling writes nothing. Each screen maps its own keys to
 * a `DialogInput` and keeps the step in its mode.
 */
import { isAbsolute, join } from 'node:path';
import type { ExportFormat, FileExportRequest } from '../export/run.js';
import { formatBytes, plural } from '../format.js';
import type { SecretFinding } from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';
import { chosenValue, type MenuItem, type MenuState, moveMenu, openMenu } from './menu.js';
import { initialTextInput, type TextInputAction, type TextInputState, textInputReducer } from './text-input.js';

/** The dialog's steps. */
export type ExportStep =
  | { kind: 'format'; menu: MenuState<ExportFormat | 'cancel'> }
  | { kind: 'path'; format: ExportFormat; input: TextInputState }
  /**
   * Scanning and writing (one session read, a moment): keys that arrive meanwhile are swallowed,
   * Esc and Ctrl+C too (they were meant for this dialog: an Enter typed ahead must not act on the
   * screen under it, and a write under way cannot be taken back half done).
   */
  | { kind: 'running'; format: ExportFormat; out: string }
  /** The scan found secrets in what would be exported: redact them (first, the default), keep them, or cancel. */
  | {
      kind: 'secrets';
      format: ExportFormat;
      out: string;
      findings: SecretFinding[];
      menu: MenuState<'redact' | 'keep' | 'cancel'>;
    };

/** What an export writes: the session's branch to `leaf` (default: its active branch), in `format`, to the new file `out`. */
export type ExportRequestBody = FileExportRequest;

/** How an export ended, as the screens' effects report it (one action shape for every screen). */
export type ExportOutcomeAction =
  | { type: 'exported'; format: ExportFormat; out: string; bytes: number; redacted: number; kept: number }
  /** The scan found secrets and the export was not written: the user chooses. */
  | { type: 'exportStopped'; request: ExportRequestBody; findings: SecretFinding[] }
  | { type: 'exportFailed'; error: string };

/** A key as the dialog understands it (each screen maps its keymap's commands to these). */
export type DialogInput =
  | { kind: 'move'; delta: 1 | -1 }
  /** Enter: take the highlighted choice, or export to the path typed. */
  | { kind: 'confirm' }
  | { kind: 'cancel' }
  /** The path field's editing: typed text, cursor moves, deletions. */
  | { kind: 'edit'; edit: TextInputAction };

/** What is exported: the session's file and id, the branch's last entry (none: the active branch), where a relative path goes. */
export interface ExportTarget {
  path: string;
  sessionId: string;
  leaf?: string;
  here: string;
}

/** What the screen does next. */
export type DialogResult =
  | { kind: 'step'; step: ExportStep }
  | { kind: 'cancelled' }
  /** A path that cannot be exported to: the step stays, the message says why. */
  | { kind: 'refused'; message: string }
  | { kind: 'run'; request: ExportRequestBody; step: ExportStep };

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

export const NOTHING_EXPORTED = 'Nothing was exported';

/**
 * `pi-session-<first 8 of its id>.<format>`, with `-<entry id>` for a branch to an entry: a name
 * that says what it is and is the same for one branch.
 */
export function defaultExportName(id: string, format: ExportFormat, leaf?: string): string {
  const short = id.replace(/[^\w-]/g, '').slice(0, 8) || 'export';
  const entry = leaf === undefined ? '' : leaf.replace(/[^\w-]/g, '').slice(0, 16);
  return `pi-session-${short}${entry === '' ? '' : `-${entry}`}.${format}`;
}

/** The dialog's first step: the format menu. */
export function openExportDialog(): ExportStep {
  return { kind: 'format', menu: openMenu(FORMAT_ITEMS) };
}

function run(request: ExportRequestBody): DialogResult {
  return { kind: 'run', request, step: { kind: 'running', format: request.format, out: request.out } };
}

/** One key in the dialog; undefined when it changes nothing (and while the export runs, every key). */
export function exportDialogInput(
  step: ExportStep,
  input: DialogInput,
  target: ExportTarget,
): DialogResult | undefined {
  if (step.kind === 'running') return undefined;
  if (input.kind === 'cancel') return { kind: 'cancelled' };
  const leaf = target.leaf === undefined ? {} : { leaf: target.leaf };
  if (step.kind === 'path') {
    if (input.kind === 'confirm') {
      const typed = step.input.value.trim();
      if (typed === '') return { kind: 'refused', message: 'Type the path of a new file to export to' };
      const out = isAbsolute(typed) ? typed : join(target.here, typed);
      return run({ path: target.path, format: step.format, out, secrets: 'stop', ...leaf });
    }
    if (input.kind !== 'edit') return undefined;
    const edited = textInputReducer(step.input, input.edit);
    return edited === step.input ? undefined : { kind: 'step', step: { ...step, input: edited } };
  }
  if (input.kind === 'move') {
    if (step.kind === 'format') return { kind: 'step', step: { ...step, menu: moveMenu(step.menu, input.delta) } };
    return { kind: 'step', step: { ...step, menu: moveMenu(step.menu, input.delta) } };
  }
  if (input.kind !== 'confirm') return undefined;
  if (step.kind === 'format') {
    const format = chosenValue(step.menu);
    if (format === undefined || format === 'cancel') return { kind: 'cancelled' };
    const name = defaultExportName(target.sessionId, format, target.leaf);
    return { kind: 'step', step: { kind: 'path', format, input: initialTextInput(name) } };
  }
  const choice = chosenValue(step.menu);
  if (choice === undefined || choice === 'cancel') return { kind: 'cancelled' };
  return run({ path: target.path, format: step.format, out: step.out, secrets: choice, ...leaf });
}

/** The scan found secrets: the step that asks what to do with them. */
export function secretsStep(request: ExportRequestBody, findings: SecretFinding[]): ExportStep {
  return { kind: 'secrets', format: request.format, out: request.out, findings, menu: openMenu(SECRET_ITEMS) };
}

/** The status line once the file is written. */
export function exportedMessage(result: Extract<ExportOutcomeAction, { type: 'exported' }>): string {
  const note =
    result.redacted > 0
      ? `; ${plural(result.redacted, 'secret')} redacted`
      : result.kept > 0
        ? `; ${plural(result.kept, 'secret')} kept as they are`
        : '';
  return `Exported ${result.format} (${formatBytes(result.bytes)}) to ${result.out}${note}`;
}

export function exportFailedMessage(error: string): string {
  return `Not exported: ${error}`;
}

/**
 * The dialog's title for each step (pure; the screen renders it with the menu or the field).
 * `what` says what is exported of `subject` (“the active branch of”), `subject` names it, quoted.
 */
export function exportDialogTitle(step: ExportStep, what: string, subject: string): string {
  if (step.kind === 'format') return `Export ${what} “${subject}” as:`;
  if (step.kind === 'path') return `Export ${step.format} of “${subject}” to a new file:`;
  if (step.kind === 'running') return `Exporting ${step.format} of “${subject}” (scanning it for secrets first)…`;
  const kinds = [...new Set(step.findings.map((f) => f.kind))].map((k) => sanitizeInline(k)).join(', ');
  return `${plural(step.findings.length, 'secret')} in what would be exported (${kinds}): redact them?`;
}
