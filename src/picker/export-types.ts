/**
 * The shapes of the picker's export dialog (its steps) and of the export it asks for, apart from
 * the picker's state so the source and the dialog can name them without it. Transitions are in
 * export.ts.
 */
import type { ExportFormat, SecretChoice } from '../export/run.js';
import type { MenuState } from '../state/menu.js';
import type { TextInputState } from '../state/text-input.js';
import type { SecretFinding } from '../store/index.js';

/** The export dialog's steps (src/picker/export.ts). */
export type ExportStep =
  | { kind: 'format'; menu: MenuState<ExportFormat | 'cancel'> }
  | { kind: 'path'; format: ExportFormat; input: TextInputState }
  /**
   * Scanning and writing (one session read, a moment): keys that arrive meanwhile are swallowed,
   * Esc and Ctrl+C too (they were meant for this dialog: an Enter typed ahead must not resume the
   * session under it, and a write under way cannot be taken back half done).
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

/** What an export writes: the session's active branch, in `format`, to the new file `out`. */
export interface ExportRequestBody {
  path: string;
  format: ExportFormat;
  out: string;
  secrets: SecretChoice;
}
