/**
 * pi's `keybindings.json` applied to our keymap data, for the actions both tools share, so a
 * pi user's remapped keys work here and the footer, `?` help and prompts follow them (they are
 * drawn from the same data).
 *
 * What pi 1.6.0 does (core/keybindings.js, pi-tui keybindings.js), and we do alike:
 *   - legacy action names (`selectUp`, `treeEditLabel`, …) are renamed to today's ids; when both
 *     are present the new id wins;
 *   - `$schema` is skipped; a value that is not a key id or a list of key ids (pi's grammar:
 *     lowercase keys, `ctrl`/`shift`/`alt`/`super` each at most once) is ignored, so that action
 *     keeps its defaults;
 *   - a configured value replaces the action's default keys; `[]` disables the action.
 * Where we differ, on purpose: pi gives a key claimed by two actions to whichever handler it
 * checks first (remap `tui.select.up` to Ctrl+D and pi's /resume deletes). Here the remapped key
 * is taken away from our other bindings in the same mode, so the remap always does what it
 * says; two remapped actions on one key in one mode are reported.
 */
import {
  type BindingKey,
  formatKey,
  type KeyBinding,
  type KeyName,
  parseBindingKey,
  resolveCommand,
} from './keymap.js';

/** The base keys of pi's key-id grammar besides [a-z0-9] (pi-tui `Key`). */
const PI_NAMED_KEYS = [
  'escape',
  'esc',
  'enter',
  'return',
  'tab',
  'space',
  'backspace',
  'delete',
  'insert',
  'clear',
  'home',
  'end',
  'pageUp',
  'pageDown',
  'up',
  'down',
  'left',
  'right',
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
];
const PI_SYMBOL_KEYS = "`-=[]\\;',./!@#$%^&*()_+|~{}:<>?";
const PI_MODIFIERS = ['ctrl', 'shift', 'alt', 'super'] as const;

/** Whether `spec` is a key id pi 1.6.0 accepts in keybindings.json (its KeyIdSchema). */
export function isPiKeyId(spec: string): boolean {
  let rest = spec;
  const seen = new Set<string>();
  for (;;) {
    const modifier = PI_MODIFIERS.find((m) => rest.startsWith(`${m}+`) && rest.length > m.length + 1);
    if (modifier === undefined || seen.size === 4) break;
    if (seen.has(modifier)) return false;
    seen.add(modifier);
    rest = rest.slice(modifier.length + 1);
  }
  return (
    /^[a-z0-9]$/.test(rest) || PI_NAMED_KEYS.includes(rest) || (rest.length === 1 && PI_SYMBOL_KEYS.includes(rest))
  );
}

const SPECIAL: Readonly<Record<string, KeyName>> = {
  escape: 'escape',
  esc: 'escape',
  enter: 'return',
  return: 'return',
  delete: 'delete',
  pageup: 'pageup',
  pagedown: 'pagedown',
};

/**
 * A pi key id (`ctrl+shift+x`, `alt+left`, `shift+l`, `pageUp`) as our canonical name
 * (`ctrl+shift+x`, `meta+left`, `L`, `pageup`); undefined when pi would not accept it, or for
 * keys no terminal sends us as such (Super, Shift with a symbol: the terminal sends the symbol).
 */
export function piKeyToName(spec: string): BindingKey | undefined {
  if (!isPiKeyId(spec)) return undefined;
  const parts = spec.split('+');
  // `ctrl++` is Ctrl and the plus key.
  let key = parts.pop()!;
  if (key === '' && parts[parts.length - 1] === '') {
    parts.pop();
    key = '+';
  }
  const mods = new Set(parts);
  if (mods.has('super')) return undefined;
  const ctrl = mods.has('ctrl');
  const meta = mods.has('alt');
  let shift = mods.has('shift');
  let base = SPECIAL[key.toLowerCase()] ?? key.toLowerCase();
  if (shift && !ctrl && base.length === 1) {
    // Shift+letter is the capital letter itself (ctrl+shift+o stays as is); Shift+symbol is
    // whatever symbol the layout gives, which the terminal sends instead.
    if (!/[a-z]/.test(base)) return undefined;
    base = base.toUpperCase();
    shift = false;
  }
  // pi's grammar (isPiKeyId) has no key beyond ASCII, so every name built here is a binding's key;
  // checking it is what lets the text from the file be typed as one.
  return parseBindingKey(`${ctrl ? 'ctrl+' : ''}${meta ? 'meta+' : ''}${shift ? 'shift+' : ''}${base}`);
}

/** pi 1.6.0's legacy names (core/keybindings.js KEYBINDING_NAME_MIGRATIONS) of the actions we share. */
const LEGACY_NAMES: Readonly<Record<string, string>> = {
  cursorLeft: 'tui.editor.cursorLeft',
  cursorRight: 'tui.editor.cursorRight',
  cursorWordLeft: 'tui.editor.cursorWordLeft',
  cursorWordRight: 'tui.editor.cursorWordRight',
  cursorLineStart: 'tui.editor.cursorLineStart',
  cursorLineEnd: 'tui.editor.cursorLineEnd',
  deleteCharBackward: 'tui.editor.deleteCharBackward',
  deleteWordBackward: 'tui.editor.deleteWordBackward',
  deleteToLineStart: 'tui.editor.deleteToLineStart',
  submit: 'tui.input.submit',
  tab: 'tui.input.tab',
  selectUp: 'tui.select.up',
  selectDown: 'tui.select.down',
  selectPageUp: 'tui.select.pageUp',
  selectPageDown: 'tui.select.pageDown',
  selectConfirm: 'tui.select.confirm',
  selectCancel: 'tui.select.cancel',
  toggleSessionNamedFilter: 'app.session.toggleNamedFilter',
  treeFoldOrUp: 'app.tree.foldOrUp',
  treeUnfoldOrDown: 'app.tree.unfoldOrDown',
  treeEditLabel: 'app.tree.editLabel',
  treeToggleLabelTimestamp: 'app.tree.toggleLabelTimestamp',
  toggleSessionPath: 'app.session.togglePath',
  toggleSessionSort: 'app.session.toggleSort',
  renameSession: 'app.session.rename',
  deleteSession: 'app.session.delete',
};

/** keybindings.json as pi reads it: action id → key ids, plus one line per value pi ignores. */
export interface PiKeybindingsConfig {
  keys: Readonly<Record<string, readonly string[]>>;
  problems: string[];
}

/** pi's reading of a parsed keybindings.json object: legacy names renamed, bad values ignored. */
export function piKeybindingsConfig(raw: Readonly<Record<string, unknown>>): PiKeybindingsConfig {
  // A Map, then own properties: a hostile file's `__proto__` or `constructor` is just a name.
  const keys = new Map<string, readonly string[]>();
  const problems: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (name === '$schema') continue;
    const action = Object.hasOwn(LEGACY_NAMES, name) ? LEGACY_NAMES[name]! : name;
    // pi: the legacy name is dropped when the new id is also present.
    if (action !== name && Object.hasOwn(raw, action)) continue;
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
    if (list === undefined || !list.every((k): k is string => typeof k === 'string' && isPiKeyId(k))) {
      problems.push(
        `${name}: ${JSON.stringify(value)?.slice(0, 40) ?? String(value)} is not a pi key or list of keys, ignored`,
      );
      continue;
    }
    keys.set(action, [...new Set(list)]);
  }
  return { keys: Object.fromEntries(keys), problems };
}

export interface SharedAction<C extends string> {
  /** Our commands that do what pi's action does; their bindings holding pi's default key are remapped. */
  commands: readonly C[];
  /** pi 1.6.0's default keys on Linux, in pi's syntax (test/keymap/pi-keybindings.test.ts checks them against pi). */
  piDefaults: readonly string[];
}

/** pi action id → what it drives here, for the actions the two tools share. */
export type SharedActions<C extends string> = Readonly<Record<string, SharedAction<C>>>;

/** pi's select-list moves, as every list screen here follows them (a screen may add its own commands). */
export const SELECT_MOVE_PI_ACTIONS: SharedActions<'up' | 'down' | 'pageUp' | 'pageDown'> = {
  'tui.select.up': { commands: ['up'], piDefaults: ['up'] },
  'tui.select.down': { commands: ['down'], piDefaults: ['down'] },
  'tui.select.pageUp': { commands: ['pageUp'], piDefaults: ['pageUp'] },
  'tui.select.pageDown': { commands: ['pageDown'], piDefaults: ['pageDown'] },
};

function modesOf<M extends string>(binding: KeyBinding<string, M>): readonly M[] | undefined {
  return binding.when === undefined ? undefined : typeof binding.when === 'string' ? [binding.when] : binding.when;
}

/** The bindings a shared action remaps (for the README's table of the pi keys followed). */
export function remappedBindings<C extends string>(
  bindings: readonly KeyBinding<C>[],
  action: SharedAction<C>,
): KeyBinding<C>[] {
  return bindings.filter((binding) => isRemappedBy(binding, action));
}

/** The bindings a shared action remaps: its commands' bindings that hold one of pi's default keys. */
function isRemappedBy<C extends string>(binding: KeyBinding<C>, action: SharedAction<C>): boolean {
  if (!action.commands.includes(binding.command)) return false;
  return action.piDefaults.some((spec) => {
    const name = piKeyToName(spec);
    return name !== undefined && binding.keys.includes(name);
  });
}

export interface Remapped<C extends string, M extends string = string> {
  bindings: KeyBinding<C, M>[];
  /** Keys we cannot receive and keys two remapped actions claim, one line each, for a status line. */
  problems: string[];
}

/**
 * `bindings` with pi's configured keys (from piKeybindingsConfig) for the shared actions. A key a
 * remapped binding takes is removed from our other bindings in the modes they share (a binding
 * that applies to more modes keeps the key in the others); bindings without a mode are left as
 * they are, since a mode's own binding already wins over them (keymap.ts resolveCommand).
 */
export function applyPiKeybindings<C extends string, M extends string>(
  bindings: readonly KeyBinding<C, M>[],
  actions: SharedActions<C>,
  config: Readonly<Record<string, readonly string[]>>,
): Remapped<C, M> {
  const problems: string[] = [];
  /** Index of a remapped binding → its new keys and the pi action that set them. */
  const replaced = new Map<number, { keys: BindingKey[]; action: string }>();
  for (const [action, specs] of Object.entries(config)) {
    if (!Object.hasOwn(actions, action)) continue;
    const shared = actions[action]!;
    const keys: BindingKey[] = [];
    for (const spec of specs) {
      const name = piKeyToName(spec);
      if (name === undefined) problems.push(`${action}: ${spec} cannot be told apart by a terminal here, left out`);
      else if (!keys.includes(name)) keys.push(name);
    }
    bindings.forEach((binding, i) => {
      if (!replaced.has(i) && isRemappedBy(binding, shared)) replaced.set(i, { keys, action });
    });
  }
  if (replaced.size === 0) return { bindings: [...bindings], problems };
  const takenIn = (mode: M): Set<KeyName> => {
    const taken = new Set<KeyName>();
    for (const [i, { keys }] of replaced) if (modesOf(bindings[i]!)?.includes(mode)) for (const k of keys) taken.add(k);
    return taken;
  };
  const result: KeyBinding<C, M>[] = [];
  bindings.forEach((binding, i) => {
    const own = replaced.get(i);
    if (own) {
      result.push({ ...binding, keys: own.keys });
      return;
    }
    const modes = modesOf(binding);
    if (modes === undefined) {
      result.push(binding);
      return;
    }
    // Group the binding's modes by the keys left to it there, keeping one binding when all agree.
    const groups = new Map<string, { keys: BindingKey[]; modes: M[] }>();
    for (const mode of modes) {
      const taken = takenIn(mode);
      const keys = binding.keys.filter((k) => !taken.has(k));
      const signature = keys.join('\u0000');
      const group = groups.get(signature) ?? { keys, modes: [] };
      group.modes.push(mode);
      groups.set(signature, group);
    }
    if (groups.size === 1) {
      const only = [...groups.values()][0]!;
      result.push(only.keys.length === binding.keys.length ? binding : { ...binding, keys: only.keys });
      return;
    }
    for (const group of groups.values())
      result.push({ ...binding, keys: group.keys, when: group.modes.length === 1 ? group.modes[0]! : group.modes });
  });
  problems.push(...conflicts(result, replaced, bindings));
  return { bindings: result, problems };
}

/** Keys two pi actions were given in the same mode: which one works. */
function conflicts<C extends string, M extends string>(
  result: readonly KeyBinding<C, M>[],
  replaced: ReadonlyMap<number, { keys: KeyName[]; action: string }>,
  original: readonly KeyBinding<C, M>[],
): string[] {
  const lines = new Set<string>();
  const entries = [...replaced].map(([i, r]) => ({ ...r, binding: original[i]! }));
  for (const a of entries) {
    for (const b of entries) {
      if (a.action >= b.action) continue;
      for (const mode of modesOf(a.binding) ?? []) {
        if (!modesOf(b.binding)?.includes(mode)) continue;
        for (const key of a.keys) {
          if (!b.keys.includes(key)) continue;
          const winner = resolveCommand(result, key, mode);
          const winnerAction = winner === a.binding.command ? a.action : b.action;
          lines.add(`${formatKey(key)} is set for both ${a.action} and ${b.action}; ${winnerAction} is used`);
        }
      }
    }
  }
  return [...lines];
}
