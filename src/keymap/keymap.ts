/**
 * The keymap as data (gemini-cli keyBindings/keyMatchers style): screens declare
 * `KeyBinding[]`, the tokenizer (./tokenize.ts) turns the terminal's bytes into canonical
 * `KeyName`s, and the reducers look up the command. The same data drives the footer hints, the
 * `?` help overlay and the README key table, so they can never disagree with the real bindings.
 *
 * Canonical key names:
 *   - special keys: up down left right pageup pagedown home end return escape tab backspace space
 *     insert f1…f12
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
import { displayWidth, truncateToWidth } from '../text/terminal-text.js';

/**
 * A key name as the tokenizer hands it over: a canonical name (`BindingKey`), or a character
 * beyond printable ASCII typed with a modifier (`meta+é`): any string at run time.
 */
export type KeyName = string;

/** The named keys the tokenizer produces (see the top). */
export type SpecialKey =
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pageup'
  | 'pagedown'
  | 'home'
  | 'end'
  | 'clear'
  | 'return'
  | 'escape'
  | 'tab'
  | 'backspace'
  | 'delete'
  | 'space'
  | 'insert'
  | `f${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12}`;

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
 * checked at run time (pi-keybindings.ts) before they become bindings.
 */
export type BindingKey = `${Modifiers}${SpecialKey | PrintableChar}`;

export interface KeyBinding<C extends string, M extends string = string> {
  command: C;
  /** Canonical key names; the first one is shown in footer hints. */
  keys: BindingKey[];
  /** Shown in the help overlay and the README table. */
  description: string;
  /** Short footer label (e.g. "open"); bindings without a hint are not shown in the footer. */
  hint?: string;
  /** The command whose key the hint shows next to this one's (`up` with `down`: `↑↓ move`). */
  hintWith?: C;
  /**
   * The hint's label when the footer had to leave hints out (`? more`): the binding that lists
   * every command then goes last and is never the one dropped, so at any width every command
   * is one key away from what the screen shows.
   */
  hintMore?: string;
  /** Mode(s) in which the binding applies (the screen's key modes, e.g. 'browse', 'search'); absent means every mode. */
  when?: M | readonly M[];
}

function appliesTo(binding: KeyBinding<string>, mode: string | undefined): boolean {
  if (binding.when === undefined) return true;
  if (mode === undefined) return false;
  return typeof binding.when === 'string' ? binding.when === mode : binding.when.includes(mode);
}

/**
 * The command bound to `keyName` in `mode`. Mode-specific bindings win over global ones
 * (no `when`); within each group the first binding in the list wins.
 */
export function resolveCommand<C extends string>(
  bindings: readonly KeyBinding<C>[],
  keyName: KeyName | undefined,
  mode?: string,
): C | undefined {
  if (keyName === undefined) return undefined;
  const own = boundCommand(bindings, keyName, mode);
  const stand = own === undefined ? KEY_STAND_INS[keyName] : undefined;
  return stand === undefined ? own : boundCommand(bindings, stand, mode);
}

/**
 * Keys that mean another key unless something binds them: LF is Ctrl+J, and Enter where Ctrl+J
 * is unbound (terminals that send LF for Enter or Shift+Enter keep working); forward Delete is
 * Backspace where nothing deletes forward (a search without a text cursor).
 */
const KEY_STAND_INS: Readonly<Record<string, KeyName>> = { 'ctrl+j': 'return', delete: 'backspace' };

function boundCommand<C extends string>(
  bindings: readonly KeyBinding<C>[],
  keyName: KeyName,
  mode: string | undefined,
): C | undefined {
  let global: C | undefined;
  for (const binding of bindings) {
    if (!(binding.keys as readonly KeyName[]).includes(keyName) || !appliesTo(binding, mode)) continue;
    if (binding.when !== undefined) return binding.command;
    global ??= binding.command;
  }
  return global;
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
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i + 1}`, `F${i + 1}`])),
};

const MODIFIER_LABELS: Record<string, string> = { ctrl: 'Ctrl', meta: 'Alt', shift: 'Shift' };

/** Human label for a key name: `ctrl+r` → "Ctrl+R", `up` → "↑", `meta+left` → "Alt+←", `L` → "L". */
export function formatKey(keyName: KeyName): string {
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

export interface HintItem {
  /** Formatted key, e.g. "↑" or "Ctrl+R". */
  key: string;
  /** The binding's hint label, e.g. "search". */
  label: string;
}

/** Separator between footer hints; exported so views render exactly what was measured. */
export const HINT_SEPARATOR = '  ';

/**
 * Footer hints for `mode` that fit in `maxWidth` columns when rendered as
 * `key label` joined by HINT_SEPARATOR. Bindings are taken in list order (put the important ones
 * first); one that doesn't fit is skipped so shorter later ones can still be shown. Bindings
 * whose keys are all shadowed by a mode-specific binding are left out.
 */
export function footerHints<C extends string>(
  bindings: readonly KeyBinding<C>[],
  mode: string | undefined,
  maxWidth: number,
): HintItem[] {
  const candidates: { binding: KeyBinding<C>; item: HintItem }[] = [];
  for (const binding of bindings) {
    if (binding.hint === undefined || !appliesTo(binding, mode)) continue;
    const reachable = reachableKey(bindings, binding, mode);
    if (reachable === undefined) continue;
    candidates.push({ binding, item: { key: hintKey(bindings, binding, reachable, mode), label: binding.hint } });
  }
  const fitted = fitHints(
    candidates.map((c) => c.item),
    maxWidth,
  );
  const more = candidates.find((c) => c.binding.hintMore !== undefined);
  if (fitted.length === candidates.length || more === undefined) return fitted;
  const moreItem: HintItem = { key: more.item.key, label: more.binding.hintMore! };
  const room = maxWidth - displayWidth(`${moreItem.key} ${moreItem.label}`) - HINT_SEPARATOR.length;
  if (room < 0) return fitted;
  const rest = fitHints(
    candidates.filter((c) => c !== more).map((c) => c.item),
    room,
  );
  // Too narrow for `? more` beside the first hint: the first hints win.
  return rest.length === 0 ? fitted : [...rest, moreItem];
}

/** Hints in order that fit in `maxWidth`; one that doesn't fit is skipped so shorter later ones can still be shown. */
function fitHints(items: readonly HintItem[], maxWidth: number): HintItem[] {
  const out: HintItem[] = [];
  let used = 0;
  for (const item of items) {
    const width = displayWidth(`${item.key} ${item.label}`) + (out.length > 0 ? HINT_SEPARATOR.length : 0);
    if (used + width > maxWidth) continue;
    out.push(item);
    used += width;
  }
  return out;
}

/**
 * The formatted key that runs `command` in `mode` (what a prompt or message tells the user to
 * press, so it follows a remapped keymap), or undefined when no key reaches it.
 */
export function keyFor<C extends string>(
  bindings: readonly KeyBinding<C>[],
  command: C,
  mode: string | undefined,
): string | undefined {
  for (const binding of bindings) {
    if (binding.command !== command || !appliesTo(binding, mode)) continue;
    const key = reachableKey(bindings, binding, mode);
    if (key !== undefined) return formatKey(key);
  }
  return undefined;
}

/** `Enter save · Esc cancel` from [command, label] pairs; a command no key reaches is left out. */
export function keyPrompt<C extends string>(
  bindings: readonly KeyBinding<C>[],
  mode: string,
  pairs: readonly (readonly [C, string])[],
  separator = ' · ',
): string {
  return pairs
    .flatMap(([command, label]) => {
      const key = keyFor(bindings, command, mode);
      return key === undefined ? [] : [`${key} ${label}`];
    })
    .join(separator);
}

const ARROW_GLYPH = /^[←↑→↓]$/;

function reachableKey<C extends string>(
  bindings: readonly KeyBinding<C>[],
  binding: KeyBinding<C>,
  mode: string | undefined,
): KeyName | undefined {
  return binding.keys.find((k) => resolveCommand(bindings, k, mode) === binding.command);
}

/** The hint's key: this binding's, then its `hintWith` partner's (arrows run together, `↑↓`; others take a slash, `k/j`, `Ctrl+P/Ctrl+N`). */
function hintKey<C extends string>(
  bindings: readonly KeyBinding<C>[],
  binding: KeyBinding<C>,
  key: KeyName,
  mode: string | undefined,
): string {
  const own = formatKey(key);
  if (binding.hintWith === undefined) return own;
  const partner = bindings.find((b) => b.command === binding.hintWith && appliesTo(b, mode));
  const partnerKey = partner === undefined ? undefined : reachableKey(bindings, partner, mode);
  if (partnerKey === undefined) return own;
  const other = formatKey(partnerKey);
  return ARROW_GLYPH.test(own) && ARROW_GLYPH.test(other) ? own + other : `${own}/${other}`;
}

/** Renders hint items as one plain line (what KeyHints shows, minus styling). */
export function formatHints(items: readonly HintItem[], maxWidth = Number.POSITIVE_INFINITY): string {
  return truncateToWidth(items.map((item) => `${item.key} ${item.label}`).join(HINT_SEPARATOR), maxWidth);
}

export interface HelpRow {
  /** Formatted keys joined by " / ", e.g. "↓ / j". */
  keys: string;
  description: string;
}

export interface HelpSection {
  /** The mode name, or undefined for bindings that apply everywhere. */
  mode: string | undefined;
  rows: HelpRow[];
}

function modesOf(binding: KeyBinding<string>): (string | undefined)[] {
  if (binding.when === undefined) return [undefined];
  return typeof binding.when === 'string' ? [binding.when] : [...binding.when];
}

/**
 * Rows for the `?` overlay, grouped by mode in first-appearance order; global bindings first.
 * A binding that applies to several modes appears in each of their sections.
 */
export function helpRows<C extends string>(bindings: readonly KeyBinding<C>[]): HelpSection[] {
  const sections = new Map<string | undefined, HelpRow[]>();
  if (bindings.some((b) => b.when === undefined)) sections.set(undefined, []);
  for (const binding of bindings) {
    const row: HelpRow = { keys: binding.keys.map(formatKey).join(' / '), description: binding.description };
    for (const mode of modesOf(binding)) {
      const rows = sections.get(mode) ?? [];
      rows.push(row);
      sections.set(mode, rows);
    }
  }
  return [...sections].map(([mode, rows]) => ({ mode, rows }));
}

function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** A GitHub-flavoured Markdown table of all bindings, for the README. */
export function markdownKeyTable<C extends string>(
  bindings: readonly KeyBinding<C>[],
  modeTitles: Readonly<Record<string, string>> = {},
): string {
  const lines = ['| Keys | Action | Where |', '| --- | --- | --- |'];
  for (const binding of bindings) {
    const keys = binding.keys.map((k) => `\`${markdownCell(formatKey(k))}\``).join(', ');
    const where = modesOf(binding)
      .map((mode) => (mode === undefined ? 'everywhere' : (modeTitles[mode] ?? mode)))
      .join(', ');
    lines.push(`| ${keys} | ${markdownCell(binding.description)} | ${markdownCell(where)} |`);
  }
  return `${lines.join('\n')}\n`;
}
