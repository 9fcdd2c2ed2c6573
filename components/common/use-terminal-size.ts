/**
 * Terminal size from Ink's stdout (ink 6 has no useWindowSize; that is ink 7 only).
 * Reads `useStdout().stdout` rather than `process.stdout` so tests can drive it with a fake
 * stream, and re-renders on the stream's 'resize' event.
 */

import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** Used when the stream reports no size (e.g. not a TTY). */
export const FALLBACK_SIZE: TerminalSize = { columns: 80, rows: 24 };

function readSize(stdout: NodeJS.WriteStream): TerminalSize {
  return {
    columns: stdout.columns > 0 ? stdout.columns : FALLBACK_SIZE.columns,
    rows: stdout.rows > 0 ? stdout.rows : FALLBACK_SIZE.rows,
  };
}

export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState<TerminalSize>(() => readSize(stdout));

  useEffect(() => {
    const onResize = (): void => {
      const next = readSize(stdout);
      // Same object when unchanged so consumers don't re-render on spurious events.
      setSize((prev) => (prev.columns === next.columns && prev.rows === next.rows ? prev : next));
    };
    onResize(); // the size may have changed between the first render and this effect
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);

  return size;
}
