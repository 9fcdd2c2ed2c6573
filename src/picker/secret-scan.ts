/**
 * The secret scan's results coming back to the picker (`has:secret`): progress for the header,
 * then the findings by path, which the search filters on. A result for another scope, or for a
 * scan that a newer one replaced, is kept only if it is still the scope's latest.
 */

import { derive } from './rows.js';
import { type PickerState, type Scope, withStatus } from './state.js';

export function secretsProgress(state: PickerState, scope: Scope, scanned: number, total: number): PickerState {
  const scan = state.secrets;
  if (!scan || scan.scope !== scope || !scan.running) return state;
  return { ...state, secrets: { ...scan, scanned, total } };
}

export function secretsScanned(
  state: PickerState,
  scope: Scope,
  counts: ReadonlyMap<string, number>,
  problem: string | undefined,
): PickerState {
  const scan = state.secrets;
  if (!scan || scan.scope !== scope) return state;
  const done: PickerState = {
    ...state,
    secrets: {
      ...scan,
      counts: problem === undefined ? counts : scan.counts,
      running: false,
      scanned: scan.total,
      ...(problem !== undefined ? { problem } : {}),
    },
  };
  const next = derive(done);
  return problem === undefined ? next : withStatus(next, `The secret scan failed: ${problem}`, 'error');
}

/** The list of `scope` was loaded again: its files may have changed, so the next ask scans again. */
export function secretsStale(state: PickerState, scope: Scope): PickerState {
  const scan = state.secrets;
  if (!scan || scan.scope !== scope || scan.stale) return state;
  return { ...state, secrets: { ...scan, stale: true } };
}
