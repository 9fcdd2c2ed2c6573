/**
 * The picker's effects for sharing a session safely: the secret scan of a scope (`has:secret`),
 * its progress drawn a few times a second, and the export of a session (components/common/export-effect.ts,
 * shared with the tree). Each result, or its failure as one line, comes back to the reducer as an action.
 */
import type { PickerAction, PickerEffect, Scope } from '../../src/picker/reducer.js';
import type { SessionSource } from '../../src/picker/session-source.js';
import { firstLineOf } from '../../src/store/index.js';
import { runExport } from '../common/export-effect.js';

/** How often the secret scan's progress is drawn. */
const SECRET_PROGRESS_MS = 200;

/** Scans `scope` for secrets until `signal` aborts it (a newer scan, the screen going away). */
export function runSecretScan(
  source: SessionSource,
  scope: Scope,
  dispatch: (action: PickerAction) => void,
  signal: AbortSignal,
): void {
  if (!source.scanSecrets) {
    dispatch({ type: 'secretsScanned', scope, counts: new Map() });
    return;
  }
  let shownAt = 0;
  source
    .scanSecrets(
      scope,
      (scanned, total) => {
        const at = Date.now();
        if (at - shownAt < SECRET_PROGRESS_MS && scanned < total) return;
        shownAt = at;
        dispatch({ type: 'secretsProgress', scope, scanned, total });
      },
      signal,
    )
    .then((counts) => {
      if (!signal.aborted) dispatch({ type: 'secretsScanned', scope, counts });
    })
    .catch((error: unknown) => {
      if (!signal.aborted) dispatch({ type: 'secretsScanned', scope, counts: new Map(), problem: firstLineOf(error) });
    });
}

/** Runs an export: written, stopped by a secret (the user then chooses), or failed. */
export function runPickerExport(
  source: SessionSource,
  effect: Extract<PickerEffect, { kind: 'export' }>,
  dispatch: (action: PickerAction) => void,
): void {
  const { id: _id, kind: _kind, ...request } = effect;
  runExport(source.exportSession?.bind(source), request, dispatch);
}
