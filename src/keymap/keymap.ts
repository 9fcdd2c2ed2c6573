/**
 * The keymap as data (gemini-cli keyBindings/keyMatchers style): screens declare
 * `KeyBinding[]`, turn each Ink keypress into a canonical `KeyName`, and look up the command.
 * The same data drives the footer hints, the `?` help overlay and the README key table, so they
 * can never disagree with the real bindings.
 *
 * Canonical key names:
 *   - special keys: up down left right pageup pagedown home end return escape tab backspace space
 *   - with modifiers, always in the order ctrl+meta+shift: `shift+tab`, `ctrl+left`, `meta+left`,
 *     `ctrl+shift+left`, `ctrl+r`, `ctrl+space`, `meta+b`, `meta+backspace`, `ctrl+meta+r`
 *   - printable characters are themselves, case included (Shift is in the case): `u`, `L`, `?`, `/`
 *     and with Alt: `meta+L`.
 *
 * What ink 6.8 delivers (verified in test/keymap/ink-keys.test.tsx through ink's real stdin path):
 *   - Backspace (0x7F) arrives as `key.delete`; Ctrl+H / Ctrl+Backspace (0x08) as `key.backspace`;
 *     forward Delete (ESC[3~) also as `key.delete`. All three → `backspace`: they cannot be told
 *     apart reliably, so never bind forward-delete or Ctrl+Backspace to something distinct.
 *   - Escape sets `key.escape` AND `key.meta`: meta is ignored for escape.
 *   - Ctrl+letter: input is the letter, `key.ctrl` set. Ctrl+Space (NUL) arrives as input '`' + ctrl.
 *     Ctrl+Shift+letter is indistinguishable from Ctrl+letter unless the kitty keyboard protocol is
 *     enabled (we don't), so `ctrl+shift+o` only ever matches under kitty.
 *   - Ctrl+arrows (ESC[1;5D) → arrow + `key.ctrl`; Alt+arrows (ESC[1;3D, or ESC ESC[D) → arrow +
 *     `key.meta`; Shift+arrows (ESC[1;2A) → arrow + `key.shift`; rxvt forms (ESC Od, ESC[d) too.
 *   - Home/End (ESC[H, ESC[F, ESC[1~, ESC[4~, ESC OH) → `key.home` / `key.end`; PageUp/PageDown
 *     (ESC[5~, ESC[6~) → `key.pageUp` / `key.pageDown`; modifiers are reported as for arrows.
 *   - Shift+Tab (ESC[Z) → `key.tab` + `key.shift`.
 *   - Shift+letter → the uppercase letter with `key.shift` set.
 *   - Alt+letter/digit (ESC x) → the character + `key.meta`. Alt+punctuation (ESC .) loses the meta
 *     flag in ink 6 and arrives as the plain character, so don't bind `meta+.` and friends.
 *   - Ctrl+Alt+letter (ESC 0x12) arrives as the raw control character with no flags → `ctrl+meta+r`.
 *   - LF (0x0A, Ctrl+J; some terminals' Shift+Enter) arrives as input '\n' with no flags → `return`.
 *   - F1–F12 and Insert arrive with empty input and no flags: not representable (undefined).
 *   - Several keys in one read are split on escape sequences (two Down keys → two events), but a
 *     run of plain characters ("jj", a paste) arrives as ONE event: use `keyNamesFromInk` to get
 *     one name per character, and feed the raw input to text fields instead.
 */
import type { Key } from 'ink';
import { displayWidth, truncateToWidth } from '../text/terminal-text.js';

/** A canonical key name, e.g. `up`, `shift+tab`, `ctrl+r`, `meta+left`, `?`, `L`. */
export type KeyName = string;

export interface KeyBinding<C extends string> {
  command: C;
  /** Canonical key names; the first one is shown in footer hints. */
  keys: KeyName[];
  /** Shown in the help overlay and the README table. */
  description: string;
  /** Short footer label (e.g. "open"); bindings without a hint are not shown in the footer. */
  hint?: string;
  /** The command whose key the hint shows next to this one's (`up` with `down`: `↑↓ move`). */
  hintWith?: C;
  /** Mode(s) in which the binding applies (e.g. 'browse', 'search'); absent means every mode. */
  when?: string | readonly string[];
}

/** The subset of Ink's `Key` this module reads (so tests can pass partial objects). */
export type InkKey = Pick<
  Key,
  | 'upArrow'
  | 'downArrow'
  | 'leftArrow'
  | 'rightArrow'
  | 'pageUp'
  | 'pageDown'
  | 'home'
  | 'end'
  | 'return'
  | 'escape'
  | 'ctrl'
  | 'shift'
  | 'tab'
  | 'backspace'
  | 'delete'
  | 'meta'
>;

function modifierPrefix(ctrl: boolean, meta: boolean, shift: boolean): string {
  return `${ctrl ? 'ctrl+' : ''}${meta ? 'meta+' : ''}${shift ? 'shift+' : ''}`;
}

function specialKeyName(key: InkKey): string | undefined {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.return) return 'return';
  if (key.tab) return 'tab';
  if (key.backspace || key.delete) return 'backspace';
  return undefined;
}

// One printable code point: not a C0/C1 control or DEL.
const SINGLE_PRINTABLE_RE = /^[^\u0000-\u001f\u007f-\u009f]$/u;

/**
 * Converts Ink 6.8 `useInput` arguments into a canonical key name, or undefined for input that
 * is not a single key (multi-character chunks, unknown sequences, F-keys).
 */
export function keyNameFromInk(input: string, key: InkKey): KeyName | undefined {
  if (key.escape) return 'escape';
  const special = specialKeyName(key);
  if (special) return modifierPrefix(key.ctrl, key.meta, key.shift) + special;
  if (input === '') return undefined;
  if (key.ctrl) {
    // Ctrl+Space sends NUL, which ink names after the character before 'a'.
    const name = input === '`' ? 'space' : input.toLowerCase();
    return modifierPrefix(true, key.meta, key.shift) + name;
  }
  if (input === ' ') return `${key.meta ? 'meta+' : ''}space`;
  if (input === '\n') return 'return';
  if (input.length === 1) {
    const code = input.charCodeAt(0);
    // A C0 control without `key.ctrl` only arrives as ESC + Ctrl+letter (Ctrl+Alt+letter).
    if (code >= 1 && code <= 26) return `ctrl+meta+${String.fromCharCode(code + 96)}`;
  }
  if (SINGLE_PRINTABLE_RE.test(input)) return `${key.meta ? 'meta+' : ''}${input}`;
  return undefined;
}

/**
 * Like `keyNameFromInk`, but a multi-character chunk of plain text (fast typing, paste) yields one
 * name per character, so "jj" moves twice. Control characters inside the chunk are skipped,
 * except CR/LF (`return`) and TAB (`tab`).
 */
export function keyNamesFromInk(input: string, key: InkKey): KeyName[] {
  const single = keyNameFromInk(input, key);
  if (single !== undefined) return [single];
  if (key.ctrl || key.meta || key.escape || specialKeyName(key) !== undefined) return [];
  const names: KeyName[] = [];
  for (const ch of input) {
    if (ch === '\r' || ch === '\n') names.push('return');
    else if (ch === '\t') names.push('tab');
    else if (ch === ' ') names.push('space');
    else if (SINGLE_PRINTABLE_RE.test(ch)) names.push(ch);
  }
  return names;
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
  let global: C | undefined;
  for (const binding of bindings) {
    if (!binding.keys.includes(keyName) || !appliesTo(binding, mode)) continue;
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
  space: 'Space',
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
  const items: HintItem[] = [];
  let used = 0;
  for (const binding of bindings) {
    if (binding.hint === undefined || !appliesTo(binding, mode)) continue;
    const reachable = reachableKey(bindings, binding, mode);
    if (reachable === undefined) continue;
    const item: HintItem = { key: hintKey(bindings, binding, reachable, mode), label: binding.hint };
    const width = displayWidth(`${item.key} ${item.label}`) + (items.length > 0 ? HINT_SEPARATOR.length : 0);
    if (used + width > maxWidth) continue;
    items.push(item);
    used += width;
  }
  return items;
}

function reachableKey<C extends string>(bindings: readonly KeyBinding<C>[], binding: KeyBinding<C>, mode: string | undefined): KeyName | undefined {
  return binding.keys.find((k) => resolveCommand(bindings, k, mode) === binding.command);
}

/** The hint's key: this binding's, then its `hintWith` partner's (`↑↓`; `k/j` when either is longer than one glyph). */
function hintKey<C extends string>(bindings: readonly KeyBinding<C>[], binding: KeyBinding<C>, key: KeyName, mode: string | undefined): string {
  const own = formatKey(key);
  if (binding.hintWith === undefined) return own;
  const partner = bindings.find((b) => b.command === binding.hintWith && appliesTo(b, mode));
  const partnerKey = partner === undefined ? undefined : reachableKey(bindings, partner, mode);
  if (partnerKey === undefined) return own;
  const other = formatKey(partnerKey);
  return displayWidth(own) === 1 && displayWidth(other) === 1 ? own + other : `${own}/${other}`;
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
