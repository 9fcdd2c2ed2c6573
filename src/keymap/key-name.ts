/**
 * Key names: what the tokenizer (./tokenize.ts) calls a key, what a binding may name, and the
 * label a key shows in hints and help.
 *
 * Canonical key names:
 *   - special keys: up down left right pageup pagedown home end return escape tab backspace space
 *     insert f1…f12
 *   - the mouse (no modifiers): `wheelup`, `wheeldown`, `click`
 *   - with modifiers, always in the order ctrl+meta+shift: `shift+tab`, `ctrl+left`, `meta+left`,
 *     `ctrl+shift+left`, `ctrl+r`, `ctrl+space`, `meta+b`, `meta+backspace`, `ctrl+meta+r`
 *   - printable characters are themselves, case included (Shift is in the case): `u`, `L`, `?`, `/`
 *     and with Alt: `meta+L`, `meta+.`.
 *
 * What terminals send and the tokenizer names (tested in test/keymap/tokenize.test.ts):
 *   - Backspace (DEL 0x7F) and Ctrl+H / Ctrl+Backspace (BS 0x08) are both `backspace`: terminals
 *     disagree on which byte Backspace sends, so never bind Ctrl+Backspace to something distinct.
 *     Forward Delete (ESC[3~) is `delete`; where no binding takes it, it does what Backspace does.
 *   - Ctrl+letter is the C0 byte (`ctrl+r`); Ctrl+Space is NUL (`ctrl+space`). Ctrl+Shift+letter
 *     is the same byte as Ctrl+letter unless the terminal speaks the kitty protocol (CSI-u), so
 *     `ctrl+shift+o` only ever matches under kitty.
 *   - LF (Ctrl+J; some terminals' Shift+Enter) is `ctrl+j`, apart from CR (`return`), so a
 *     keybindings.json that binds Ctrl+J (pi's `"tui.select.down": ["down", "ctrl+j"]`) gets it; where
 *     no binding of the mode names `ctrl+j`, it does what Enter does (pi's rule too: LF is Enter
 *     unless an action claims Ctrl+J first).
 *   - Alt+key is ESC + key (`meta+b`, `meta+.`, `ctrl+meta+r` for ESC + Ctrl+R); Alt+arrows are
 *     ESC[1;3D or ESC ESC[D (`meta+left`).
 */

/** The named keys the tokenizer produces, in the order the help lists them. */
export const SPECIAL_KEYS = [
  'up',
  'down',
  'left',
  'right',
  'pageup',
  'pagedown',
  'home',
  'end',
  'clear',
  'return',
  'escape',
  'tab',
  'backspace',
  'delete',
  'space',
  'insert',
  'f1',
  'f2',
  'f3',
  'f4',
  'f5',
  'f6',
  'f7',
  'f8',
  'f9',
  'f10',
  'f11',
  'f12',
] as const;

export type SpecialKey = (typeof SPECIAL_KEYS)[number];

/**
 * The mouse's "keys" (SGR mouse reporting, see ./mouse-sequence.ts): a wheel notch and a left
 * button press. They take no modifiers (a terminal keeps Shift+click for its own text selection)
 * and pi's keybindings.json cannot name them (not pi's key syntax), so only our own bindings do.
 */
export const MOUSE_KEYS = ['wheelup', 'wheeldown', 'click'] as const;

export type MouseKey = (typeof MOUSE_KEYS)[number];

/** Whether a key the tokenizer handed over is a mouse report (a wheel notch or a click), not a key pressed. */
export function isMouseKey(name: string | undefined): name is MouseKey {
  return name !== undefined && MOUSE.has(name);
}

/** A printable ASCII character other than space (which is `space`): what such a key types. */
type PrintableChar =
  | '!'
  | '"'
  | '#'
  | '$'
  | '%'
  | '&'
  | "'"
  | '('
  | ')'
  | '*'
  | '+'
  | ','
  | '-'
  | '.'
  | '/'
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | ':'
  | ';'
  | '<'
  | '='
  | '>'
  | '?'
  | '@'
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z'
  | '['
  | '\\'
  | ']'
  | '^'
  | '_'
  | '`'
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z'
  | '{'
  | '|'
  | '}'
  | '~';

/** Modifier prefixes, always in the order ctrl+meta+shift. */
type Modifiers = '' | 'ctrl+' | 'meta+' | 'shift+' | 'ctrl+meta+' | 'ctrl+shift+' | 'meta+shift+' | 'ctrl+meta+shift+';

/**
 * A key a binding may name, checked by the compiler: a misspelt key (`ctlr+r`, `pgup`) or a
 * modifier out of order (`shift+ctrl+left`) does not compile. Keys from pi's keybindings.json are
 * checked at run time (`parseBindingKey`, via pi-keybindings.ts) before they become bindings.
 */
export type BindingKey = `${Modifiers}${SpecialKey | PrintableChar}` | MouseKey;

declare const foreign: unique symbol;

/**
 * A key named by a character beyond printable ASCII (`é`, `meta+é`): the tokenizer names such
 * keys, no binding can, and a type cannot list them, so only a checked function makes one
 * (`parseKeyName`, or the tokenizer itself); a plain string never passes for one.
 */
export type ForeignKeyName = string & { readonly [foreign]: true };

/** A key name as the tokenizer hands it over: a canonical name, or a foreign character's. */
export type KeyName = BindingKey | ForeignKeyName;

const SPECIAL = new Set<string>(SPECIAL_KEYS);
const MOUSE = new Set<string>(MOUSE_KEYS);
// Each modifier at most once, in the order ctrl+meta+shift, and a key after them: in `ctrl++` the
// key is `+`, and `ctrl+` alone is no key.
const MODIFIERS = /^(?:ctrl\+)?(?:meta\+)?(?:shift\+)?(?=.)/su;

/** The key after the modifiers. */
const baseOf = (text: string): string => text.slice(MODIFIERS.exec(text)?.[0].length ?? 0);

const isPrintableAscii = (base: string): boolean => /^[\x21-\x7e]$/.test(base);

/** `text` as a key a binding may name, or undefined when it is none (misspelt, out of order, a space). */
export function parseBindingKey(text: string): BindingKey | undefined {
  if (MOUSE.has(text)) return text as MouseKey;
  const base = baseOf(text);
  return SPECIAL.has(base) || isPrintableAscii(base) ? (text as BindingKey) : undefined;
}

/**
 * `text` as a key name the tokenizer could hand over: a binding's key, or one character beyond
 * printable ASCII (no control character) after the modifiers; undefined otherwise.
 */
export function parseKeyName(text: string): KeyName | undefined {
  const binding = parseBindingKey(text);
  if (binding !== undefined) return binding;
  const chars = [...baseOf(text)];
  return chars.length === 1 && chars[0]!.codePointAt(0)! >= 0xa0 ? (text as ForeignKeyName) : undefined;
}

const KEY_LABELS: Record<string, string> = {
  up: '↑',
  down: '↓',
  left: '←',
  right: '→',
  pageup: 'PgUp',
  pagedown: 'PgDn',
  home: 'Home',
  end: 'End',
  return: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  insert: 'Insert',
  space: 'Space',
  wheelup: 'Wheel↑',
  wheeldown: 'Wheel↓',
  click: 'Click',
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i + 1}`, `F${i + 1}`])),
};

const MODIFIER_LABELS: Record<string, string> = { ctrl: 'Ctrl', meta: 'Alt', shift: 'Shift' };

/**
 * Human label for a key name: `ctrl+r` → "Ctrl+R", `up` → "↑", `meta+left` → "Alt+←", `L` → "L".
 * Any text gets a label: a pi key id no terminal sends us as such is shown as pi spells it.
 */
export function formatKey(keyName: string): string {
  // Split modifiers off the front; a bare "+" (or "ctrl++") is a key, not a separator.
  const parts: string[] = [];
  let rest = keyName;
  for (;;) {
    const match = /^(ctrl|meta|shift)\+(.+)$/.exec(rest);
    if (!match?.[1] || match[2] === undefined) break;
    parts.push(MODIFIER_LABELS[match[1]] ?? match[1]);
    rest = match[2];
  }
  const label = KEY_LABELS[rest];
  if (label !== undefined) return [...parts, label].join('+');
  if (parts.length > 0 && rest.length === 1) {
    // "Alt+L" must not be ambiguous between meta+l and meta+L.
    if (/^[A-Z]$/.test(rest) && !parts.includes('Shift')) parts.push('Shift');
    return [...parts, rest.toUpperCase()].join('+');
  }
  return [...parts, rest].join('+');
}
