/**
 * The screen router and the single owner of `exit()`: the picker, the labels view, the stats
 * screen, the check view and the tree view report what the user chose. Screens form a stack: each screen opened
 * from another keeps the one it came from (`back`, with that screen's state), so Esc returns to
 * the same query, scope and cursor, the same labels filter, or the same tree (a fork's tree
 * opened from its parent). App hands the final result to `run-app.tsx`.
 */
import { join } from 'node:path';
import { useApp } from 'ink';
import type React from 'react';
import { useCallback, useMemo, useRef, useState } from 'react';
import {
  catalogueSessions,
  findLineage,
  type LineageSession,
  lineageOf,
  mergeSessions,
} from '../src/catalog/lineage.js';
import { listSessionsCached } from '../src/catalog/list.js';
import type { CheckState } from '../src/check/reducer.js';
import { configWarning, screenKeymaps } from '../src/keymap/screen-keymaps.js';
import type { LabelsState } from '../src/labels/reducer.js';
import type { PickerExit, PickerState, Scope } from '../src/picker/reducer.js';
import type { HitFocus } from '../src/picker/text-hit-places.js';
import { type StatsScope, statsScopeOf } from '../src/stats/picker-scope.js';
import type { StatsScreenState } from '../src/stats/screen-state.js';
import type { Locations, PiConfig, SessionInfo } from '../src/store/index.js';
import { keyPauseMs } from '../src/terminal/key-pause.js';
import { CheckScreen } from './check/CheckScreen.js';
import { InputRouter } from './common/input-router.js';
import { LabelsScreen } from './labels/LabelsScreen.js';
import { PickerScreen } from './picker/PickerScreen.js';
import { StatsScreen } from './stats/StatsScreen.js';
import { type LineageFinder, type TreeExit, type TreeOpen, TreeScreen, type TreeSnapshot } from './tree/TreeScreen.js';

export type AppResult = PickerExit | TreeExit;

/** `check`: the check view over the picker's scope; a tree opened from it goes back to it (its `back`). */
type CheckEntry = { pickerState: PickerState; state?: CheckState };
type Screen =
  | { name: 'picker'; state?: PickerState }
  /** `stats`: the stats of the picker's scope; a tree opened from a row goes back to it (its `state`). */
  | { name: 'stats'; pickerState: PickerState; scope: StatsScope; state?: StatsScreenState }
  | ({ name: 'check' } & CheckEntry)
  | { name: 'labels'; sessions: SessionInfo[]; pickerState: PickerState; state?: LabelsState }
  /** `back`: the screen Esc returns to (none: `pi-sessions tree`, Esc quits). */
  /** `focus`: a picker hit to open on (the search pre-filled); `focusId`: an entry (a label, a parent link). */
  | {
      name: 'tree';
      serial: number;
      path: string;
      focus?: HitFocus;
      focusId?: string;
      snapshot?: TreeSnapshot;
      back?: Screen;
    };

export interface AppProps {
  locations: Locations;
  /** pi's settings and keybindings that both tools share, read at start-up (pi reads them at start too). */
  piConfig: PiConfig;
  printMode: boolean;
  initialScope: Scope;
  /** Open this session's tree first (`pi-sessions tree <session>`); Esc then quits. */
  treePath?: string;
  /** `--print-entry`: on `treePath`'s tree, Resume from here is handed back (the pi extension's pi moves there). */
  printEntry?: boolean;
  /** `--no-cache`: the picker lists without the session catalogue. */
  noCache?: boolean;
  /** `--current FILE` and `--query TEXT` for the picker. */
  current?: string;
  query?: string;
  /** `npm start`'s generated demo store: the picker says so. */
  demo?: boolean;
  onResult(result: AppResult): void;
}

export function App({
  locations,
  piConfig,
  printMode,
  initialScope,
  treePath,
  printEntry,
  noCache,
  current,
  query,
  demo,
  onResult,
}: AppProps): React.JSX.Element {
  const { exit } = useApp();
  // The screens' keymaps with pi's keybindings applied (pure, from the config read at start-up).
  const { keymaps, warning } = useMemo(() => {
    const remapped = screenKeymaps(piConfig.keybindings, join(locations.agentDir, 'keybindings.json'));
    return { keymaps: remapped, warning: configWarning([...piConfig.problems, ...remapped.problems]) };
  }, [piConfig, locations]);
  // The first screen shows pi's configuration problems; the next ones don't repeat them.
  const firstWarning = warning === undefined ? {} : { warning };
  const serial = useRef(0);
  const [screen, setScreen] = useState<Screen>(
    treePath ? { name: 'tree', serial: 0, path: treePath } : { name: 'picker' },
  );

  const finish = useCallback(
    (result: AppResult) => {
      onResult(result);
      exit();
    },
    [exit, onResult],
  );
  // Lineage (forks, parent) comes from the picker's rows when it listed every project, else from
  // those and a listing of every project (once, when a tree first asks, after its first paint):
  // through the catalogue, so warm it reads no session file, and cold (`tree FILE` before any
  // listing) it still finds the forks, in other projects too, and leaves the catalogue built.
  const pickerRows = useRef<{ sessions: LineageSession[]; complete: boolean }>({ sessions: [], complete: false });
  const storeRows = useRef<Promise<LineageSession[]> | undefined>(undefined);
  const notePicker = (state: PickerState): void => {
    const lists = Object.values(state.lists);
    pickerRows.current = {
      sessions: mergeSessions(...lists.map((l) => l.sessions.map(lineageOf))),
      complete: state.lists.all?.done === true,
    };
  };
  const lineage = useCallback<LineageFinder>(
    async (path, session, tree) => {
      const known = pickerRows.current;
      if (known.complete) return findLineage(path, session, tree, known.sessions);
      storeRows.current ??= listSessionsCached(locations, { scope: 'all', cache: !noCache, pause: keyPauseMs }).then(
        (listed) => listed.sessions.map(lineageOf),
        // A store that cannot be listed whole: what the picker listed, and the catalogue's records.
        () => (noCache ? [] : catalogueSessions(locations)),
      );
      return findLineage(path, session, tree, mergeSessions(known.sessions, await storeRows.current));
    },
    [locations, noCache],
  );
  const openTree = useCallback((open: TreeOpen, back: Screen, focus?: HitFocus) => {
    serial.current++;
    setScreen({
      name: 'tree',
      serial: serial.current,
      path: open.path,
      ...(open.focusId !== undefined ? { focusId: open.focusId } : {}),
      ...(focus ? { focus } : {}),
      back,
    });
  }, []);
  const openStats = useCallback(
    (pickerState: PickerState) => setScreen({ name: 'stats', pickerState, scope: statsScopeOf(pickerState) }),
    [],
  );
  const openCheck = useCallback((pickerState: PickerState) => setScreen({ name: 'check', pickerState }), []);

  let content: React.JSX.Element;
  if (screen.name === 'stats') {
    const { pickerState } = screen;
    content = (
      <StatsScreen
        {...screen.scope}
        bindings={keymaps.stats}
        {...(screen.state ? { initialState: screen.state } : {})}
        onOpenTree={(target, state) => {
          notePicker(pickerState);
          openTree(
            { path: target.path, ...(target.leafId !== undefined ? { focusId: target.leafId } : {}) },
            { ...screen, state },
          );
        }}
        onBack={() => setScreen({ name: 'picker', state: pickerState })}
        onExit={finish}
      />
    );
  } else if (screen.name === 'check') {
    const { pickerState } = screen;
    content = (
      <CheckScreen
        locations={locations}
        scope={pickerState.scope}
        bindings={keymaps.check}
        noCache={noCache ?? false}
        {...(screen.state ? { initialState: screen.state } : {})}
        onOpenTree={(path, state) => openTree({ path }, { name: 'check', pickerState, state })}
        onBack={() => setScreen({ name: 'picker', state: pickerState })}
        onQuit={() => finish({ kind: 'quit', code: 130 })}
      />
    );
  } else if (screen.name === 'tree') {
    const back = (): void => {
      if (screen.back) setScreen(screen.back);
      else finish({ kind: 'quit', code: 0 });
    };
    content = (
      <TreeScreen
        key={screen.serial}
        path={screen.path}
        {...(screen.focusId !== undefined ? { focusId: screen.focusId } : {})}
        {...(screen.snapshot ? { snapshot: screen.snapshot } : {})}
        onBack={back}
        onExit={finish}
        onOpenSession={(open, snapshot) => openTree(open, { ...screen, snapshot })}
        findLineage={lineage}
        initialFilter={piConfig.treeFilterMode}
        {...(screen.focus ? { focus: screen.focus } : {})}
        here={locations.cwd}
        locations={locations}
        printMode={printMode}
        // pi's own session only: another session's tree (a fork's, the parent's) is not pi's to move.
        handsBackResume={printEntry === true && screen.path === treePath}
        bindings={keymaps.tree}
        {...(screen.back ? {} : firstWarning)}
      />
    );
  } else if (screen.name === 'labels') {
    content = (
      <LabelsScreen
        sessions={screen.sessions}
        bindings={keymaps.labels}
        {...(screen.state ? { initialState: screen.state } : {})}
        onOpen={(row, state) => openTree({ path: row.session.path, focusId: row.entryId }, { ...screen, state })}
        onBack={() => setScreen({ name: 'picker', state: screen.pickerState })}
        onExit={finish}
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
        onOpenTree={(path, pickerState, focus) => {
          notePicker(pickerState);
          openTree({ path }, { name: 'picker', state: pickerState }, focus);
        }}
        onOpenStats={openStats}
        onOpenCheck={openCheck}
        onOpenLabels={(sessions, pickerState) => {
          notePicker(pickerState);
          setScreen({ name: 'labels', sessions, pickerState });
        }}
        onExit={finish}
      />
    );
  }
  // One router for the app's whole life: keys typed while one screen replaces another are queued
  // for the next one, and raw mode never flickers off.
  return <InputRouter>{content}</InputRouter>;
}
