/**
 * The app's one keyboard path: ink's raw input → the tokenizer (src/keymap/tokenize.ts) → the
 * screen on top, in order, so no key is ever lost or merged with its neighbours.
 *
 * - The bytes come from ink's own input events (`internal_eventEmitter` 'input', in read order,
 *   whatever stream ink was given as stdin); ink's own splitting is undone by the tokenizer, which
 *   sees the stream as one sequence of reads. Raw mode is switched on once, for the app's life:
 *   ink reference-counts raw mode, and a screen swap must not switch it off for a millisecond
 *   (keys echoed, Ctrl+C a real SIGINT).
 * - A screen registers a handler with `useKeys`. The handler gets every key not yet taken and
 *   returns how many it took (a prefix): a screen that is being left (Enter opened the tree, Esc
 *   goes back) takes no more, and the rest of the same read waits for the next screen. Keys that
 *   arrive while no screen takes them are queued, and replayed when one registers or more input
 *   arrives, so a key typed during a screen swap reaches the new screen.
 * - Held-back input is resolved after a silence: a lone ESC after `escapeTimeouts().lone`, a
 *   sequence begun (`ESC [` without its final byte) after the longer `.sequence` (the tokenizer's
 *   rule: a slow link's arrow key stays one key); a paste whose end marker never comes ends after
 *   PASTE_TIMEOUT_MS of silence.
 * - `markKeyArrived()` is called for every key, so background work can yield to typing.
 * - When the app ends, the terminal stops being read at once (src/terminal/stop-reading.ts): keys
 *   typed after that wait in the terminal for the next reader (the shell, or pi), none is lost.
 */
import { useStdin } from 'ink';
import type React from 'react';
import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { escapeTimeouts } from '../../src/keymap/escape-timeouts.js';
import { createTokenizer, type Keypress, PASTE_TIMEOUT_MS, type Pending } from '../../src/keymap/tokenize.js';
import { markKeyArrived } from '../../src/terminal/input-activity.js';
import { holdReading, resumeReading, stopReading } from '../../src/terminal/stop-reading.js';

/** Takes keys in order and returns how many it consumed (0 to keys.length). */
export type KeyHandler = (keys: readonly Keypress[]) => number;

interface Router {
  register(handler: KeyHandler): () => void;
  /**
   * The screen on top takes no more keys for now (it is being left): the terminal is not read
   * until a screen registers or `release` is called, so keys typed after the one that left wait in
   * the terminal. When the app ends there, they are the next reader's (the shell, or pi), not lost
   * in the app's queue.
   */
  hold(): void;
  /** The screen takes keys again after all (a failed open): read the terminal again. */
  release(): void;
}

const RouterContext = createContext<Router | null>(null);

/** The router's state and delivery loop, independent of React. */
function createRouter(): Router & {
  input(keys: readonly Keypress[]): void;
  /** How the terminal is held and read again (set while the raw keys are subscribed). */
  reading: { hold(): void; resume(): void } | undefined;
} {
  const handlers: KeyHandler[] = [];
  const queue: Keypress[] = [];
  let delivering = false;
  let held = false;
  const deliver = (): void => {
    // A handler may register or unregister screens while it runs (it dispatches): never re-enter.
    if (delivering) return;
    delivering = true;
    try {
      for (;;) {
        const active = handlers[handlers.length - 1];
        if (!active || queue.length === 0) return;
        const taken = Math.max(0, Math.min(queue.length, active(queue.slice())));
        queue.splice(0, taken);
        if (taken === 0 || handlers[handlers.length - 1] === active) return;
      }
    } finally {
      delivering = false;
    }
  };
  const release = (): void => {
    if (!held) return;
    held = false;
    router.reading?.resume();
  };
  const router = {
    reading: undefined as { hold(): void; resume(): void } | undefined,
    input(keys: readonly Keypress[]) {
      for (const keypress of keys) {
        markKeyArrived();
        queue.push(keypress);
      }
      deliver();
    },
    hold() {
      if (held) return;
      held = true;
      // After the read being handled: the stream's own loop reads once more before it returns.
      queueMicrotask(() => {
        if (held) router.reading?.hold();
      });
    },
    release,
    register(handler: KeyHandler) {
      handlers.push(handler);
      release();
      deliver();
      return () => {
        const at = handlers.lastIndexOf(handler);
        if (at >= 0) handlers.splice(at, 1);
      };
    },
  };
  return router;
}

/** Subscribes to ink's raw input, feeding tokenized keys to `onKeys`. */
function useRawKeys(router: ReturnType<typeof createRouter>): void {
  const onKeys = router.input;
  const { internal_eventEmitter: emitter, setRawMode, isRawModeSupported, stdin } = useStdin();
  const latest = useRef(onKeys);
  latest.current = onKeys;
  useEffect(() => {
    const tokenizer = createTokenizer();
    const timeouts = escapeTimeouts(process.env);
    /** How long held-back escape input waits (undefined: nothing held, or a paste). */
    const waitFor = (pending: Pending | undefined): number | undefined =>
      pending === 'escape' ? timeouts.lone : pending === 'sequence' ? timeouts.sequence : undefined;
    let timer: NodeJS.Timeout | undefined;
    // When the held input last grew: a read that comes later than its wait resolves it first even
    // if the timer has not run yet (a busy event loop may serve the read before the timer).
    let heldSince = 0;
    const flush = (): void => {
      clearTimeout(timer);
      timer = undefined;
      const flushed = tokenizer.flush();
      if (flushed.length > 0) latest.current(flushed);
    };
    const onInput = (chunk: string | Buffer): void => {
      const wait = waitFor(tokenizer.pending());
      if (wait !== undefined && performance.now() - heldSince >= wait) flush();
      clearTimeout(timer);
      timer = undefined;
      const keys = tokenizer.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      const pending = tokenizer.pending();
      const next = waitFor(pending);
      if (next !== undefined) {
        heldSince = performance.now();
        timer = setTimeout(flush, next);
      } else if (pending === 'paste') {
        timer = setTimeout(() => {
          timer = undefined;
          latest.current(tokenizer.endPaste());
        }, PASTE_TIMEOUT_MS);
      }
      if (keys.length > 0) latest.current(keys);
    };
    emitter.on('input', onInput);
    if (isRawModeSupported) setRawMode(true);
    router.reading = { hold: () => holdReading(stdin), resume: () => resumeReading(stdin) };
    return () => {
      router.reading = undefined;
      clearTimeout(timer);
      emitter.off('input', onInput);
      if (isRawModeSupported) setRawMode(false);
      // The app takes no more keys: the ones typed from now on are for whoever reads next.
      stopReading(stdin);
    };
  }, [emitter, setRawMode, isRawModeSupported, stdin, router]);
}

export function InputRouter({ children }: { children: React.ReactNode }): React.JSX.Element {
  const router = useMemo(() => createRouter(), []);
  useRawKeys(router);
  const context = useMemo<Router>(
    () => ({ register: router.register, hold: router.hold, release: router.release }),
    [router],
  );
  return <RouterContext.Provider value={context}>{children}</RouterContext.Provider>;
}

/**
 * A screen's keyboard handler, registered with the app's `InputRouter` (the latest registered,
 * active handler gets the keys). There is no fallback without a router: a screen with a keyboard
 * of its own would lose the keys queued for it whenever it swaps a child (loading → loaded).
 */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean } = {}): { hold(): void; release(): void } {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useKeys needs an <InputRouter> above it');
  const latest = useRef(handler);
  latest.current = handler;
  const active = options.isActive !== false;
  // A layout effect registers in the same commit that first paints the screen (and unregisters
  // the previous one in it), so no key can reach a screen that is no longer shown.
  useLayoutEffect(() => {
    if (!active) return undefined;
    return router.register((keys) => latest.current(keys));
  }, [router, active]);
  return router;
}
