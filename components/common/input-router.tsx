/**
 * One keyboard subscription for the whole app, so no key is ever lost.
 *
 * ink's `useInput` subscribes in an effect: a key that arrives between a screen's first paint and
 * that effect (a new screen, a menu that just opened) reaches nobody and is dropped. Under load
 * that window is long enough for a fast typist or a paste to lose keys. The router subscribes
 * once, delivers each key to the most recently registered handler, and queues keys while no
 * handler is registered, replaying them to the next one that registers.
 *
 * It also keeps raw mode on across screen swaps: ink reference-counts raw mode by subscription,
 * and a swap would otherwise switch it off for a millisecond (keys echoed, Ctrl+C a real SIGINT).
 */
import { useInput, type Key } from 'ink';
import React, { createContext, useCallback, useContext, useLayoutEffect, useMemo, useRef } from 'react';

export type KeyHandler = (input: string, key: Key) => void;

interface Router {
  register(handler: KeyHandler): () => void;
}

const RouterContext = createContext<Router | null>(null);

export function InputRouter({ children }: { children: React.ReactNode }): React.JSX.Element {
  const handlers = useRef<KeyHandler[]>([]);
  const queue = useRef<[string, Key][]>([]);

  useInput((input, key) => {
    const active = handlers.current[handlers.current.length - 1];
    if (active) active(input, key);
    else queue.current.push([input, key]);
  });

  const register = useCallback((handler: KeyHandler) => {
    handlers.current.push(handler);
    for (const [input, key] of queue.current.splice(0)) handler(input, key);
    return () => {
      const at = handlers.current.lastIndexOf(handler);
      if (at >= 0) handlers.current.splice(at, 1);
    };
  }, []);
  const router = useMemo(() => ({ register }), [register]);
  return <RouterContext.Provider value={router}>{children}</RouterContext.Provider>;
}

/**
 * A screen's keyboard handler. Inside an `InputRouter` it is registered with the router (the
 * latest registered, active handler gets the keys); outside one (component tests) it falls back
 * to ink's `useInput`.
 */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean } = {}): void {
  const router = useContext(RouterContext);
  const latest = useRef(handler);
  latest.current = handler;
  const active = options.isActive !== false;
  // A layout effect registers in the same commit that first paints the screen (and unregisters
  // the previous one in it), so no key can reach a screen that is no longer shown.
  useLayoutEffect(() => {
    if (!router || !active) return undefined;
    return router.register((input, key) => latest.current(input, key));
  }, [router, active]);
  useInput(handler, { isActive: router === null && active });
}
