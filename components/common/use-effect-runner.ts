/**
 * The effect protocol of both screens: a reducer appends effects (each with an increasing id) to
 * its state; this hook runs each new one once, after the render that produced it, and tells the
 * reducer which ids were taken so it can drop them. Results come back as ordinary actions.
 */
import { useEffect, useRef } from 'react';

export function useEffectRunner<E>(
  effects: readonly E[],
  idOf: (effect: E) => number,
  run: (effect: E) => void,
  taken: (upTo: number) => void,
): void {
  const done = useRef(0);
  const latest = useRef({ idOf, run, taken });
  latest.current = { idOf, run, taken };
  useEffect(() => {
    const { idOf: id, run: runOne, taken: markTaken } = latest.current;
    const pending = effects.filter((effect) => id(effect) > done.current);
    if (pending.length === 0) return;
    done.current = Math.max(...pending.map(id));
    markTaken(done.current);
    for (const effect of pending) runOne(effect);
  }, [effects]);
}
