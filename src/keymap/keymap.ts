/**
 * The keymap as data (gemini-cli keyBindings/keyMatchers style): screens declare
 * `KeyBinding[]`, the tokenizer (./tokenize.ts) turns the terminal's bytes into canonical
 * `KeyName`s, and the reducers look up the command. The same data drives the footer hints, the
 * `?` help overlay and the README key table, so they can never disagree with the real bindings.
 *
 * Key names, the types the compiler checks them by and their labels: ./key-name.ts.
 */
import { displayWidth, truncateToWidth } from '../text/terminal-text.js';
import { type BindingKey, formatKey, type KeyName } from './key-name.js';

export {
  type BindingKey,
  type ForeignKeyName,
  formatKey,
  type KeyName,
  parseBindingKey,
  parseKeyName,
  type SpecialKey,
} from './key-name.js';

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
 * (no `when`); within each group the first binding in the list wins. `mode` is one of the
 * table's own modes; any string may be looked up as a key (one no binding names finds nothing).
 */
export function resolveCommand<C extends string, M extends string = string>(
  bindings: readonly KeyBinding<C, M>[],
  keyName: string | undefined,
  mode?: NoInfer<M>,
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
  keyName: string,
  mode: string | undefined,
): C | undefined {
  let global: C | undefined;
  for (const binding of bindings) {
    if (!(binding.keys as readonly string[]).includes(keyName) || !appliesTo(binding, mode)) continue;
    if (binding.when !== undefined) return binding.command;
    global ??= binding.command;
  }
  return global;
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
export function footerHints<C extends string, M extends string = string>(
  bindings: readonly KeyBinding<C, M>[],
  mode: NoInfer<M> | undefined,
  maxWidth: number,
): HintItem[] {
  const candidates: { binding: KeyBinding<C, M>; item: HintItem }[] = [];
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
export function keyFor<C extends string, M extends string = string>(
  bindings: readonly KeyBinding<C, M>[],
  command: C,
  mode: NoInfer<M> | undefined,
): string | undefined {
  for (const binding of bindings) {
    if (binding.command !== command || !appliesTo(binding, mode)) continue;
    const key = reachableKey(bindings, binding, mode);
    if (key !== undefined) return formatKey(key);
  }
  return undefined;
}

/** `Enter save · Esc cancel` from [command, label] pairs; a command no key reaches is left out. */
export function keyPrompt<C extends string, M extends string = string>(
  bindings: readonly KeyBinding<C, M>[],
  mode: NoInfer<M>,
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
