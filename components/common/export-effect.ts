/**
 * Runs an export a screen asked for (the effect of the export dialog, src/state/export-dialog.ts):
 * written, stopped by a secret (the user then chooses), or failed as one line. The picker and the
 * tree both run it; the outcome goes back to the screen's reducer as an action.
 */
import type { ExportOutcome } from '../../src/export/run.js';
import type { ExportOutcomeAction, ExportRequestBody } from '../../src/state/export-dialog.js';
import { firstLineOf } from '../../src/store/index.js';

/** What exports (the app's: src/export/run.ts exportToFile); a screen without one cannot export. */
export type ExportToFile = (request: ExportRequestBody) => Promise<ExportOutcome>;

export function runExport(
  exportToFile: ExportToFile | undefined,
  request: ExportRequestBody,
  dispatch: (action: ExportOutcomeAction) => void,
): void {
  if (!exportToFile) {
    dispatch({ type: 'exportFailed', error: 'this screen cannot export' });
    return;
  }
  exportToFile(request)
    .then((outcome) => {
      if (outcome.done)
        dispatch({
          type: 'exported',
          format: outcome.format,
          out: request.out,
          bytes: outcome.bytes,
          redacted: outcome.redacted,
          kept: outcome.kept,
        });
      else dispatch({ type: 'exportStopped', request, findings: outcome.findings });
    })
    .catch((error: unknown) => dispatch({ type: 'exportFailed', error: firstLineOf(error) }));
}
