let last = -Infinity;
export function markKeyArrived(now = performance.now()): void {
  last = now;
}
export function msSinceLastKey(now = performance.now()): number {
  return now - last;
}
