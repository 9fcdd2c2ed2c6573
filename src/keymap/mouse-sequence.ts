/**
 * Mouse reports as keys (pure). With SGR mouse reporting on (modes 1000 + 1006, which
 * src/terminal/screen.ts turns on), a terminal sends `ESC[<b;x;yM` for a button press or a wheel
 * notch and `ESC[<b;x;ym` for a release; a terminal that knows mode 1000 but not 1006 sends the
 * legacy X10 form instead, `ESC[M` and three bytes (button, column, line, each plus 32). Both
 * become one key each, `wheelup`, `wheeldown` or `click` (a left press) with its cell, or nothing
 * (a release, a drag, another button, horizontal wheels): never text, so a click can never type
 * into a search.
 *
 * The button field `b`: its low two bits are the button (0 left, 1 middle, 2 right; 3 is X10's
 * release), 4/8/16 are Shift/Alt/Ctrl, 32 is motion, 64 a wheel (64 up, 65 down, 66/67 sideways),
 * 128 the extra buttons. Modifiers are ignored: Shift is the terminal's own (text selection) in
 * most terminals, and a Ctrl+click still means that row.
 */
import { type Keypress, key, type MouseEvent } from './keypress.js';

const MOTION = 32;
const WHEEL = 64;
const EXTRA_BUTTONS = 128;

/** The key a press (not a release) of button field `b` at (x, y) is, or undefined when none. */
function pressKey(b: number, x: number, y: number): Keypress | undefined {
  if (!Number.isInteger(b) || b < 0 || x < 1 || y < 1 || (b & (MOTION | EXTRA_BUTTONS)) !== 0) return undefined;
  const button = b & 3;
  let mouse: MouseEvent;
  if ((b & WHEEL) !== 0) {
    if (button > 1) return undefined;
    mouse = { kind: 'wheel', direction: button === 0 ? 'up' : 'down', x, y };
  } else if (button === 0) mouse = { kind: 'click', x, y };
  else return undefined;
  const name = mouse.kind === 'click' ? 'click' : mouse.direction === 'up' ? 'wheelup' : 'wheeldown';
  return { ...key(name), mouse };
}

/** An SGR report: the CSI's parameters after `<` and its final byte (`M` press, `m` release). */
export function sgrMouseKey(params: string, final: string): Keypress | undefined {
  if (final !== 'M') return undefined;
  const fields = params.split(';');
  if (fields.length !== 3 || fields.some((field) => !/^\d{1,6}$/.test(field))) return undefined;
  const [b, x, y] = fields.map(Number) as [number, number, number];
  return pressKey(b, x, y);
}

/** An X10 report's three characters after `ESC[M` (each a value plus 32; 3 as the button is a release). */
export function x10MouseKey(bytes: readonly string[]): Keypress | undefined {
  const [b, x, y] = bytes.map((ch) => ch.codePointAt(0)! - 32) as [number, number, number];
  if ((b & (WHEEL | 3)) === 3) return undefined;
  return pressKey(b, x, y);
}
