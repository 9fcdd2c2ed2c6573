/**
 * The keys of complete CSI and SS3 sequences (`ESC[1;5D`, `ESC[5~`, kitty's CSI-u `ESC[97;5u`,
 * rxvt's forms, `ESC OA`): the tokenizer (./tokenize.ts) finds where a sequence ends, this names it.
 */
import type { KeyName } from './key-name.js';
import { type Keypress, key, modifiers, named, textKey } from './keypress.js';

const CSI_LETTER: Readonly<Record<string, KeyName>> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  E: 'clear',
  P: 'f1',
  Q: 'f2',
  R: 'f3',
  S: 'f4',
};

const TILDE_KEYS: Readonly<Record<number, KeyName>> = {
  1: 'home',
  2: 'insert',
  // Forward Delete is its own key: only the bytes of Backspace (DEL, BS) are ambiguous.
  3: 'delete',
  4: 'end',
  5: 'pageup',
  6: 'pagedown',
  7: 'home',
  8: 'end',
  15: 'f5',
  17: 'f6',
  18: 'f7',
  19: 'f8',
  20: 'f9',
  21: 'f10',
  23: 'f11',
  24: 'f12',
};

/** Modifier parameter of CSI / kitty (1 + bitmask: shift 1, alt 2, ctrl 4, meta 8). */
function withModifiers(base: string, param: number | undefined, printable = false): KeyName {
  const bits = param === undefined || Number.isNaN(param) ? 0 : Math.max(0, param - 1);
  const shift = (bits & 1) !== 0;
  const alt = (bits & 2) !== 0 || (bits & 8) !== 0;
  const ctrl = (bits & 4) !== 0;
  // Shift on a printable character is already in its case (`L`), except for Ctrl+Shift+letter.
  return named(modifiers(ctrl, alt, shift && (!printable || ctrl)) + base);
}

/** kitty CSI-u: the key of a Unicode code point (a plain printable one types itself). */
function kittyKey(code: number, param: number | undefined): Keypress | undefined {
  const special: Record<number, KeyName> = {
    13: 'return',
    9: 'tab',
    127: 'backspace',
    8: 'backspace',
    27: 'escape',
    32: 'space',
  };
  const bits = param === undefined || Number.isNaN(param) ? 0 : Math.max(0, param - 1);
  const named = special[code];
  if (named !== undefined) {
    return code === 32 && (bits & ~1) === 0 ? textKey(' ') : key(withModifiers(named, param));
  }
  if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code > 0x10ffff) return undefined;
  // kitty reports the unshifted key (`l` with Shift): canonical names carry the case instead.
  const plain = String.fromCodePoint(code);
  const ch = (bits & 1) !== 0 && (bits & 4) === 0 ? plain.toUpperCase() : plain;
  if ((bits & ~1) === 0) return textKey(ch);
  return key(withModifiers(ch, param, true));
}

/** The key of a complete CSI sequence `ESC [ params intermediates final`, or undefined if unknown. */
export function csiKey(params: string, final: string): Keypress | undefined {
  const fields = params.split(';');
  const numbers = fields.map((f) => Number.parseInt(f.split(':')[0] ?? '', 10));
  const mod = fields.length > 1 ? Number.parseInt(fields[1]!.split(':')[0] ?? '', 10) || 1 : undefined;
  // kitty: release events (`:3` after the modifiers) are not keys.
  const eventType = fields[1]?.split(':')[1];
  if (eventType === '3') return undefined;
  if (final === 'u') return Number.isNaN(numbers[0]!) ? undefined : kittyKey(numbers[0]!, mod);
  if (final === 'Z') return key('shift+tab');
  if (final === '~') {
    const base = TILDE_KEYS[numbers[0]!];
    return base === undefined ? undefined : key(withModifiers(base, mod));
  }
  // rxvt: ESC[a–d are Shift+arrows.
  const rxvt: Record<string, KeyName> = { a: 'shift+up', b: 'shift+down', c: 'shift+right', d: 'shift+left' };
  const rxvtName = params === '' ? rxvt[final] : undefined;
  if (rxvtName !== undefined) return key(rxvtName);
  const base = CSI_LETTER[final];
  if (base === undefined || params.startsWith('?') || params.startsWith('<') || params.startsWith('>'))
    return undefined;
  return key(withModifiers(base, mod));
}

export function ss3Name(final: string): KeyName | undefined {
  // rxvt: ESC Oa–d are Ctrl+arrows; ESC OM is the keypad's Enter.
  const rxvt: Record<string, KeyName> = { a: 'ctrl+up', b: 'ctrl+down', c: 'ctrl+right', d: 'ctrl+left', M: 'return' };
  return rxvt[final] ?? CSI_LETTER[final];
}
