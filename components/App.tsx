/**
 * The screen router and the single owner of `exit()`: the picker and the tree view report what the
 * user chose; App keeps the picker's state while the tree or the stats screen is open so Esc returns
 * to the same query, scope and cursor, and hands the final result to `run-app.tsx`.
 */
import { join } from 'node:path';
import { useApp } from 'ink';
import React, { useCallback, useMemo, useState } from 'react';
import type { PickerExit, PickerState, Scope } from '../src/picker/reducer.js';
import type { HitFocus } from '../src/picker/text-hit-places.js';
import type { Locations } from '../src/store/index.js';
import { configWarning, screenKeymaps } from '../src/keymap/screen-keymaps.js';
import { readPiConfig } from '../src/store/pi-settings.js';
import { InputRouter } from './common/input-router.js';
import { PickerScreen } from './picker/PickerScreen.js';
import { TreeScreen, type TreeExit } from './tree/TreeScreen.js';
import { StatsScreen } from './stats/StatsScreen.js';
import { statsScopeOf, type StatsScope } from '../src/stats/picker-scope.js';
import { CheckScreen } from './check/CheckScreen.js';
import type { CheckState } from '../src/check/reducer.js';

export type AppResult = PickerExit | TreeExit;

/** `check`: the check view over the picker's scope; a tree opened from it goes back to it (`check` kept). */
type CheckEntry = { pickerState: PickerState; state?: CheckState };
type Screen =
  | { name: 'picker'; state?: PickerState }
  | { name: 'tree'; path: string; pickerState?: PickerState; fromPicker: boolean; check?: CheckEntry; focus?: HitFocus }
  | { name: 'stats'; pickerState: PickerState; scope: StatsScope }
  | ({ name: 'check' } & CheckEntry);

export interface AppProps {
  locations: Locations;
  printMode: boolean;
  initialScope: Scope;
  /** Open this session's tree first (`pi-sessions tree <session>`); Esc then quits. */
  treePath?: string;
  /** `--no-cache`: the picker lists without the session catalogue. */
  noCache?: boolean;
  /** `--current FILE` and `--query TEXT` for the picker. */
  current?: string;
  query?: string;
  /** `npm start`'s generated demo store: the picker says so. */
  demo?: boolean;
  onResult(result: AppResult): void;
}

export function App({ locations, printMode, initialScope, treePath, noCache, current, query, demo, onResult }: AppProps): React.JSX.Element {
  const { exit } = useApp();
  // pi's own settings and keybindings that both tools share (read once: pi reads them at start too).
  const { piConfig, keymaps, warning } = useMemo(() => {
    const config = readPiConfig(locations.agentDir, locations.cwd);
    const remapped = screenKeymaps(config.keybindings, join(locations.agentDir, 'keybindings.json'));
    return { piConfig: config, keymaps: remapped, warning: configWarning([...config.problems, ...remapped.problems]) };
  }, [locations]);
  // The first screen shows pi's configuration problems; the next ones don't repeat them.
  const firstWarning = warning === undefined ? {} : { warning };
  const [screen, setScreen] = useState<Screen>(treePath ? { name: 'tree', path: treePath, fromPicker: false } : { name: 'picker' });

  const finish = useCallback(
    (result: AppResult) => {
      onResult(result);
      exit();
    },
    [exit, onResult],
  );
  const openTree = useCallback(
    (path: string, pickerState: PickerState, focus?: HitFocus) => setScreen({ name: 'tree', path, pickerState, fromPicker: true, ...(focus ? { focus } : {}) }),
    [],
  );
  const openStats = useCallback((pickerState: PickerState) => setScreen({ name: 'stats', pickerState, scope: statsScopeOf(pickerState) }), []);
  const openCheck = useCallback((pickerState: PickerState) => setScreen({ name: 'check', pickerState }), []);

  let content: React.JSX.Element;
  if (screen.name === 'stats') {
    const { pickerState } = screen;
    content = <StatsScreen {...screen.scope} onBack={() => setScreen({ name: 'picker', state: pickerState })} onExit={finish} />;
  } else if (screen.name === 'check') {
    const { pickerState } = screen;
    content = (
      <CheckScreen
        locations={locations}
        scope={pickerState.scope}
        {...(screen.state ? { initialState: screen.state } : {})}
        onOpenTree={(path, state) => setScreen({ name: 'tree', path, pickerState, fromPicker: true, check: { pickerState, state } })}
        onBack={() => setScreen({ name: 'picker', state: pickerState })}
        onQuit={() => finish({ kind: 'quit', code: 130 })}
      />
    );
  } else if (screen.name === 'tree') {
    const back = (): void => {
      if (screen.check) setScreen({ name: 'check', ...screen.check });
      else if (screen.fromPicker) setScreen(screen.pickerState ? { name: 'picker', state: screen.pickerState } : { name: 'picker' });
      else finish({ kind: 'quit', code: 0 });
    };
    content = (
      <TreeScreen
        key={screen.path}
        path={screen.path}
        onBack={back}
        onExit={finish}
        initialFilter={piConfig.treeFilterMode}
        {...(screen.focus ? { focus: screen.focus } : {})}
        here={locations.cwd}
        printMode={printMode}
        bindings={keymaps.tree}
        {...(screen.fromPicker ? {} : firstWarning)}
      />
    );
  } else {
    content = (
      <PickerScreen
        locations={locations}
        printMode={printMode}
        initialScope={initialScope}
        noCache={noCache ?? false}
        demo={demo ?? false}
        {...(current !== undefined ? { current } : {})}
        {...(query !== undefined ? { query } : {})}
        {...(screen.state ? { initialState: screen.state } : firstWarning)}
        bindings={keymaps.picker}
        onOpenTree={openTree}
        onOpenStats={openStats}
        onOpenCheck={openCheck}
        onExit={finish}
      />
    );
  }
  // One router for the app's whole life: keys typed while one screen replaces another are queued
  // for the next one, and raw mode never flickers off.
  return <InputRouter>{content}</InputRouter>;
}
