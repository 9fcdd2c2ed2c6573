/** Key sequences shared by the fake-terminal (ink.tsx) and real-pty (pty.ts) harnesses. */
/** Terminal input sequences as a real xterm-compatible terminal sends them (normal cursor-key mode). */
export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  pageUp: '\u001b[5~',
  pageDown: '\u001b[6~',
  home: '\u001b[H',
  end: '\u001b[F',
  enter: '\r',
  escape: '\u001b',
  tab: '\t',
  shiftTab: '\u001b[Z',
  backspace: '\u007f',
  /** Forward delete (ESC[3~): ink 6 reports it as `key.delete`, the same as Backspace. */
  delete: '\u001b[3~',
  space: ' ',
  ctrlC: '\u0003',
  ctrlLeft: '\u001b[1;5D',
  ctrlRight: '\u001b[1;5C',
  altLeft: '\u001b[1;3D',
  altRight: '\u001b[1;3C',
  shiftUp: '\u001b[1;2A',
  shiftDown: '\u001b[1;2B',
} as const;
