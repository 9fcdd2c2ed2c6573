/**
 * Background work stands aside while the user types: for KEY_QUIET_MS after each key (marked by
 * the keyboard entry point, see input-activity.ts), catalogue revalidation and writes and the
 * search-text preparation wait, so a key's frame never queues behind a slice of them. Holding a
 * key down pauses them for as long; they resume KEY_QUIET_MS after the last key.
 */
import { msSinceLastKey } from './input-activity.js';

export const KEY_QUIET_MS = 100;

/** How long background work should still wait (0: go on); a `PauseFn` for the store's slicer. */
export function keyPauseMs(now = performance.now()): number {
  return Math.max(0, KEY_QUIET_MS - msSinceLastKey(now));
}
