/**
 * Runs the tree screen's queued effects (the effect protocol of every screen): reading the file,
 * watching it, looking up its lineage, the store's writes, the clipboard and leaving. Each
 * outcome goes back to the reducer as an action; nothing here decides what the screen shows.
 */
import { useStdout } from 'ink';
import { useCallback, useEffect, useRef } from 'react';
import { findOnPath, folderExists, type PiLaunch } from '../../src/pi-launch.js';
import { goneMessage } from '../../src/state/session-gone.js';
import {
  cutLineOf,
  describeTooLarge,
  firstLineOf,
  type LiveWatcher,
  type Locations,
  localCwd,
  resolveLocations,
  watchSession,
} from '../../src/store/index.js';
import { copyMessage, copyText } from '../../src/terminal/clipboard-copy.js';
import { keyPauseMs } from '../../src/terminal/key-pause.js';
import { entryFullText } from '../../src/tree/entry-display.js';
import type { TreeScreenAction, TreeScreenState, TreeSnapshot } from '../../src/tree/screen.js';
import { screenEffects } from '../../src/tree/screen.js';
import type { TreeEffect } from '../../src/tree/state.js';
import type { LineageFinder, TreeOpen, TreeStore } from '../../src/tree/tree-store.js';
import { runExport } from '../common/export-effect.js';
import { useEffectRunner } from '../common/use-effect-runner.js';
import type { SyncReducer } from '../common/use-sync-reducer.js';
import { runTreeWrite } from './tree-writes.js';

/** How the tree was left; `navigate`: Resume from here handed back to pi (`--print-entry`), nothing written. */
export type TreeExit =
  | { kind: 'quit'; code: number }
  | { kind: 'navigate'; entryId: string }
  | ({ kind: 'resume' } & PiLaunch);

/** What the effects reach outside the reducer: the store, the app, the terminal. */
export interface TreeEffectContext {
  path: string;
  store: TreeStore;
  onBack(): void;
  onExit(result: TreeExit): void;
  onOpenSession?(open: TreeOpen, snapshot: TreeSnapshot): void;
  findLineage?: LineageFinder;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
  here?: string;
  printMode?: boolean;
  probe?: { piFound(): boolean; folderExists(cwd: string): boolean };
  locations?: Locations;
}

const REAL_PROBE = { piFound: (): boolean => findOnPath('pi') !== undefined, folderExists };
const CALLER_OPENS = { piFound: (): boolean => true, folderExists: (): boolean => true };

export function useTreeEffects(machine: SyncReducer<TreeScreenState, TreeScreenAction>, context: TreeEffectContext) {
  const { stdout } = useStdout();
  const { dispatch } = machine;
  const watcher = useRef<LiveWatcher | null>(null);
  // Timers and answers that must not reach a screen that is gone.
  const alive = useRef(true);
  const lineageTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  useEffect(
    () => () => {
      alive.current = false;
      clearTimeout(lineageTimer.current);
      watcher.current?.close();
    },
    [],
  );
  const latest = useRef(context);
  latest.current = context;

  const run = useCallback(
    async (effect: TreeEffect): Promise<void> => {
      const ctx = latest.current;
      const { store, path } = ctx;
      const current = machine.ref.current;
      const open = current.kind === 'open' ? current : undefined;
      const recorded = typeof open?.session.header.cwd === 'string' ? open.session.header.cwd : process.cwd();
      // A folder recorded on another machine: pi starts where the path map puts it here.
      const cwd = ctx.locations ? localCwd(ctx.locations, recorded) : recorded;
      const safeDispatch = (action: TreeScreenAction): void => {
        if (alive.current) dispatch(action);
      };
      try {
        switch (effect.kind) {
          case 'load': {
            const result = await store.readSession(path);
            // Opened from a list (picker, labels, check view, a fork row) that showed it a moment ago.
            if (!result.ok && result.reason === 'not-found')
              safeDispatch({ type: 'openFailed', text: goneMessage([path], stdout.columns ?? 80) });
            else if (!result.ok)
              safeDispatch({ type: 'openFailed', text: `Cannot open the session: ${result.message}` });
            else safeDispatch({ type: 'loaded', session: result });
            return;
          }
          case 'watch': {
            if (!open || !alive.current) return;
            watcher.current?.close();
            watcher.current = watchSession(path, {
              from: open.session,
              onEvent(event) {
                if (event.kind === 'reload') safeDispatch({ type: 'changed', reason: event.reason });
                else if (event.kind === 'error')
                  safeDispatch({ type: 'status', status: { text: event.message, tone: 'error' } });
                else
                  safeDispatch({
                    type: 'appended',
                    entries: event.entries,
                    entryLines: event.entryLines,
                    problems: event.problems,
                  });
              },
            });
            return;
          }
          case 'reread': {
            const result = await store.readSession(path);
            if (!result.ok) {
              safeDispatch({ type: 'failed', message: `Reload failed: ${result.message}` });
              return;
            }
            watcher.current?.reset(result);
            safeDispatch({ type: 'reloaded', session: result, reason: effect.reason });
            return;
          }
          case 'findLineage': {
            const find = ctx.findLineage;
            if (!find || !open) return;
            // Once the tree is drawn and the user has paused typing: reading a big catalogue's
            // records takes a moment of the event loop, keys first.
            const start = (): void => {
              const wait = keyPauseMs();
              if (wait > 0) {
                lineageTimer.current = setTimeout(start, wait);
                return;
              }
              find(path, open.session, open.nav.index.tree)
                .then((lineage) => safeDispatch({ type: 'lineage', lineage }))
                .catch(() => {
                  // Lineage is a help, not the session: a failure leaves the tree as it is.
                });
            };
            lineageTimer.current = setTimeout(start, 0);
            return;
          }
          case 'label':
          case 'branch':
          case 'branchSummary':
          case 'fork':
          case 'undo':
          case 'redo':
            await runTreeWrite(effect, {
              store,
              path,
              dispatch: safeDispatch,
              pollLive: async () => {
                await watcher.current?.poll();
              },
              // Resolved when needed (pi's settings may name a custom sessions folder).
              scope: () => ({ locations: ctx.locations ?? resolveLocations({ cwd: ctx.here ?? process.cwd() }) }),
              now: ctx.now ?? Date.now,
            });
            return;
          case 'copy': {
            if (!open) return;
            // By row key: a retained message's row copies the message it stands for.
            const index = open.nav.index;
            const num = index.numOf.get(effect.entryId);
            const entry = num === undefined ? undefined : index.entries[num]!;
            const cut = entry && cutLineOf(entry);
            if (cut) {
              // Only the start of its text was read: a cut copy would pass for the whole of it.
              safeDispatch({
                type: 'failed',
                message: `Not copied: ${describeTooLarge(cut)}, too large to read whole`,
              });
              return;
            }
            const text = entry && entryFullText(entry);
            if (text === undefined || text === '') {
              safeDispatch({ type: 'failed', message: 'Selected entry has no text to copy' });
              return;
            }
            const copied = await copyText(text, {
              env: ctx.env ?? process.env,
              writeToTerminal: (sequence) => stdout.write(sequence),
            });
            safeDispatch({ type: 'copied', message: copyMessage(copied) });
            return;
          }
          case 'checkOpen': {
            if (store.isGone?.(path)) {
              safeDispatch({ type: 'failed', message: goneMessage([path], stdout.columns ?? 80, 'it was opened') });
              return;
            }
            // Before anything is written: a failure here leaves the file as it was.
            const probe = ctx.probe ?? (ctx.printMode ? CALLER_OPENS : REAL_PROBE);
            safeDispatch({
              type: 'openChecked',
              target: effect.target,
              piFound: probe.piFound(),
              cwdExists: probe.folderExists(cwd),
              path,
              sessionCwd: cwd,
              here: ctx.here ?? process.cwd(),
            });
            return;
          }
          case 'handBack':
            ctx.onExit({ kind: 'navigate', entryId: effect.entryId });
            return;
          case 'openInPi': {
            const { target } = effect;
            const fork = effect.fork ? { fork: true } : {};
            if (target.kind === 'file') {
              ctx.onExit({ kind: 'resume', path: target.path, cwd: effect.cwd, ...fork });
              return;
            }
            const index = open?.nav.index;
            const leafId = !index || index.leaf === -1 ? null : index.entries[index.leaf]!.id;
            if (target.id !== leafId) await store.branchInPlace(path, target.id, {});
            ctx.onExit({ kind: 'resume', path, cwd: effect.cwd, ...fork });
            return;
          }
          case 'openSession':
            if (!ctx.onOpenSession || !open) {
              safeDispatch({ type: 'failed', message: 'Cannot open another session from here' });
              return;
            }
            ctx.onOpenSession(
              { path: effect.path, ...(effect.focusId !== undefined ? { focusId: effect.focusId } : {}) },
              open,
            );
            return;
          case 'export': {
            const { id: _id, kind: _kind, ...request } = effect;
            runExport(store.exportSession?.bind(store), request, safeDispatch);
            return;
          }
          case 'back':
            ctx.onBack();
            return;
          case 'quit':
            // Ctrl+C: 130 (128 + SIGINT) as in the picker, whichever screen it is pressed on.
            ctx.onExit({ kind: 'quit', code: 130 });
            return;
        }
      } catch (error) {
        if (effect.kind === 'load') {
          safeDispatch({ type: 'openFailed', text: `Cannot open the session: ${firstLineOf(error)}` });
          return;
        }
        // A write on a file deleted or moved since the tree was opened says so, not how it failed.
        const gone = store.isGone?.(path) === true;
        safeDispatch({
          type: 'failed',
          message: gone ? goneMessage([path], stdout.columns ?? 80, 'it was opened') : firstLineOf(error),
        });
      }
    },
    [machine, dispatch, stdout],
  );

  useEffectRunner(
    screenEffects(machine.state),
    (effect) => effect.id,
    (effect) => void run(effect),
    (upTo) => dispatch({ type: 'effectsTaken', upTo }),
  );
}
