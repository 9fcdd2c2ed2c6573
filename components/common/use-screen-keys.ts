/**
 * The one way a screen takes keys: each key of a read becomes the screen's key action and goes
 * through its reducer in order, against the state the previous key produced, with one render for
 * the whole read. Once the reducer says the screen is being left (`takesKeys` false: Enter opened
 * the tree, Esc went back, Ctrl+C), the remaining keys are handed back to the router for the next
 * screen, exactly as if they had been typed after the switch; and the terminal is not read
 * until that screen takes keys, so when the app ends there, keys typed after the last one wait in
 * the terminal for the shell, or pi.
 */
import { useEffect } from 'react';
import type { Keypress } from '../../src/keymap/tokenize.js';
import { useKeys } from './input-router.js';
import type { SyncReducer } from './use-sync-reducer.js';

export function useScreenKeys<S, A>(
  machine: SyncReducer<S, A>,
  keyAction: (keypress: Keypress) => A,
  takesKeys: (state: S) => boolean,
): void {
  const router = useKeys((keys) => {
    let taken = 0;
    machine.batch(() => {
      for (const keypress of keys) {
        if (!takesKeys(machine.ref.current)) break;
        machine.dispatch(keyAction(keypress));
        taken++;
      }
    });
    // Being left: keys typed from now on wait in the terminal for whoever reads next.
    if (!takesKeys(machine.ref.current)) router.hold();
    return taken;
  });
  // Left after all (a failed open, an error): read the terminal again.
  const taking = takesKeys(machine.state);
  useEffect(() => {
    if (taking) router.release();
  }, [taking, router]);
}
