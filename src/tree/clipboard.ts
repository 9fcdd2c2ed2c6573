/**
 * Clipboard through OSC 52: the terminal itself sets the clipboard, so copying works over ssh
 * and without xclip/pbcopy. Pure: returns the bytes; the screen writes them to stdout.
 *
 *   OSC 52:          ESC ] 52 ; c ; <base64> BEL
 *   inside tmux:     ESC P tmux; <OSC with every ESC doubled> ESC \
 *                    (tmux forwards DCS passthrough only with `set -g allow-passthrough on`;
 *                    with tmux's own `set-clipboard on`, the plain sequence also works)
 *   inside screen:   ESC P <OSC> ESC \
 */

export interface ClipboardEnv {
  TMUX?: string | undefined;
  TERM?: string | undefined;
  STY?: string | undefined;
}

/** Many terminals drop OSC 52 payloads above ~100 kB (xterm's default limit is 100,000 bytes). */
export const OSC52_MAX_BASE64 = 100_000;

export interface Osc52 {
  /** The bytes to write to the terminal. */
  sequence: string;
  /** Whether the text had to be cut to fit OSC52_MAX_BASE64. */
  truncated: boolean;
  /** Characters of the text actually copied. */
  copiedChars: number;
}

/** Largest prefix (whole code points) whose UTF-8 base64 fits `maxBase64` characters. */
function fitText(text: string, maxBase64: number): string {
  const maxBytes = Math.floor(maxBase64 / 4) * 3;
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > maxBytes) break;
    bytes += n;
    end += ch.length;
  }
  return text.slice(0, end);
}

export function osc52(text: string, env: ClipboardEnv = {}, maxBase64 = OSC52_MAX_BASE64): Osc52 {
  const fitted = fitText(text, maxBase64);
  const payload = Buffer.from(fitted, 'utf8').toString('base64');
  const osc = `\u001b]52;c;${payload}\u0007`;
  let sequence = osc;
  if (env.TMUX) sequence = `\u001bPtmux;${osc.replace(/\u001b/g, '\u001b\u001b')}\u001b\\`;
  else if (env.STY || env.TERM?.startsWith('screen')) sequence = `\u001bP${osc}\u001b\\`;
  return { sequence, truncated: fitted.length < text.length, copiedChars: fitted.length };
}
