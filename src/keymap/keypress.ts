/**
 * What the tokenizer (./tokenize.ts) hands over: one key, a run of typed text, a paste, or a
 * mouse event, and the constructors of canonical key names it and its sequence tables
 * (./csi-keys.ts, ./mouse-sequence.ts) share.
 */
import type { KeyName } from './key-name.js';

/**
 * A left-button press (`click`) or a wheel notch, at a 1-based terminal cell (x: column, y: line),
 * as SGR mouse reporting (mode 1006) or the legacy X10 encoding says (./mouse-sequence.ts).
 * Releases, drags and the other buttons are never events: the screens act on the press, as fzf does.
 */
export type MouseEvent =
  | { readonly kind: 'wheel'; readonly direction: 'up' | 'down'; readonly x: number; readonly y: number }
  | { readonly kind: 'click'; readonly x: number; readonly y: number };

export interface Keypress {
  /**
   * The canonical key name (see keymap.ts): `down`, `ctrl+r`, `meta+left`, `a`, `space`; for a
   * mouse event `wheelup`, `wheeldown` or `click` (a left press); for a run of several characters
   * and for a paste, undefined.
   */
  readonly name: KeyName | undefined;
  /** What the key types: the run's characters or the pasted text ('' for keys that type nothing, mouse events included). */
  readonly text: string;
  /** A bracketed paste: insert as text where text goes, never a command. */
  readonly paste: boolean;
  /** Where a mouse event happened (only on mouse events). */
  readonly mouse?: MouseEvent;
}

/**
 * The names built here are canonical by construction: a base from the tokenizer's tables or the
 * one character a key types, modifiers added in ctrl+meta+shift order by `modifiers` and
 * `withMeta`. Checking each one again (`parseKeyName`) would cost a regex per key for nothing, so
 * this is the one place a built string is taken as a name.
 */
export const named = (text: string): KeyName => text as KeyName;

export function charName(ch: string): KeyName {
  return ch === ' ' ? 'space' : named(ch);
}

export function modifiers(ctrl: boolean, meta: boolean, shift: boolean): string {
  return `${ctrl ? 'ctrl+' : ''}${meta ? 'meta+' : ''}${shift ? 'shift+' : ''}`;
}

export function key(name: KeyName): Keypress {
  return { name, text: '', paste: false };
}

/** A run of typed text as one key; a single character is also named (`a`, `L`, `space`). */
export function textKey(text: string): Keypress {
  const chars = [...text];
  return { name: chars.length === 1 ? charName(text) : undefined, text, paste: false };
}
