/**
 * How long held-back escape input (tokenize.ts `pending`) waits for more bytes before the keyboard
 * path (components/common/input-router.tsx) resolves it with the tokenizer's `flush`. Pure: the
 * caller passes the environment.
 *
 * pi 1.6.0 (pi-tui's StdinBuffer) waits 10 ms after a lone ESC (100 ms over ssh: SSH_CONNECTION or
 * SSH_TTY set; PI_TUI_ESC_TIMEOUT overrides both) and 50 ms for the rest of a sequence begun
 * (`ESC [`, `ESC O`, a CSI without its final byte). A link that delays the second half of an arrow
 * key by 30 ms then still gets it right in pi, but a 10 ms wait here typed it as text.
 *
 * - A lone ESC waits LONE_ESC_MS (pi's ssh wait when pi's is longer, or PI_TUI_ESC_TIMEOUT as pi
 *   reads it): long enough for a cut arrow key on a loaded machine, short enough that Esc feels
 *   instant (a frame is ~16 ms; under 100 ms nobody notices).
 * - A sequence begun waits SEQUENCE_MS (at least as long as a lone ESC): nobody types Esc and then
 *   `[` within a fifth of a second to mean two keys, so waiting is free, and a slow link's arrow key
 *   stays one key.
 */
export const LONE_ESC_MS = 50;
export const SEQUENCE_MS = 150;
const PI_SSH_ESC_MS = 100;

export interface EscapeTimeouts {
  /** After a lone ESC (or ESC ESC). */
  lone: number;
  /** After a sequence begun but not finished. */
  sequence: number;
}

/** The waits for this environment (pure: the caller passes `process.env`). */
export function escapeTimeouts(env: Readonly<Record<string, string | undefined>>): EscapeTimeouts {
  const configured = Number(env['PI_TUI_ESC_TIMEOUT']);
  const overSsh = Boolean(env['SSH_CONNECTION'] || env['SSH_TTY']);
  const lone =
    Number.isFinite(configured) && configured > 0
      ? configured
      : overSsh
        ? Math.max(LONE_ESC_MS, PI_SSH_ESC_MS)
        : LONE_ESC_MS;
  return { lone, sequence: Math.max(SEQUENCE_MS, lone) };
}
