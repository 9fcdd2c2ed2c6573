/**
 * The screen router and the single owner of `exit()`: the picker and the tree view report what the
 * user chose; App keeps the picker's state while the tree is open so Esc returns to the same query,
 * scope and cursor, and hands the final result to `run-app.tsx`.
 */
import { useApp, useInput } from 'ink';
import React, { useCallback, useState } from 'react';
import type { PickerExit, PickerState, Scope } from '../src/picker/reducer.js';
import type { Locations } from '../src/store/index.js';
import { PickerScreen } from './picker/PickerScreen.js';
import { TreeScreen, type TreeExit } from './tree/TreeScreen.js';

export type AppResult = PickerExit | TreeExit;

type Screen = { name: 'picker'; state?: PickerState } | { name: 'tree'; path: string; pickerState?: PickerState; fromPicker: boolean };

export interface AppProps {
  locations: Locations;
  printMode: boolean;
  initialScope: Scope;
  /** Open this session's tree first (`pi-sessions tree <session>`); Esc then quits. */
  treePath?: string;
  /** `--no-cache`: the picker lists without the session catalogue. */
  noCache?: boolean;
  onResult(result: AppResult): void;
}

const ignoreInput = (): void => {};

export function App({ locations, printMode, initialScope, treePath, noCache, onResult }: AppProps): React.JSX.Element {
  const { exit } = useApp();
  // Raw mode is reference-counted by ink's useInput: when one screen unmounts and the next mounts,
  // the count would drop to 0 for the ~1–2 ms between their effects, and the terminal would be in
  // cooked mode: a key typed then is echoed onto the screen, Enter arrives as \n (ICRNL) and is
  // lost, Ctrl+C becomes SIGINT. This always-mounted no-op subscription keeps raw mode on across
  // the swaps (picker ↔ tree, tree loading → tree); each screen still handles its own keys.
  useInput(ignoreInput);
  const [screen, setScreen] = useState<Screen>(treePath ? { name: 'tree', path: treePath, fromPicker: false } : { name: 'picker' });

  const finish = useCallback(
    (result: AppResult) => {
      onResult(result);
      exit();
    },
    [exit, onResult],
  );
  const openTree = useCallback((path: string, pickerState: PickerState) => setScreen({ name: 'tree', path, pickerState, fromPicker: true }), []);

  if (screen.name === 'tree') {
    const back = (): void => {
      if (screen.fromPicker) setScreen(screen.pickerState ? { name: 'picker', state: screen.pickerState } : { name: 'picker' });
      else finish({ kind: 'quit', code: 0 });
    };
    return <TreeScreen key={screen.path} path={screen.path} onBack={back} onExit={finish} />;
  }
  return (
    <PickerScreen
      locations={locations}
      printMode={printMode}
      initialScope={initialScope}
      noCache={noCache ?? false}
      {...(screen.state ? { initialState: screen.state } : {})}
      onOpenTree={openTree}
      onExit={finish}
    />
  );
}
