/**
 * pi's `keybindings.json` applied to our keymap data, for the actions both tools share, so a
 * pi user's remapped keys work here and the footer, `?` help and hints follow them (they are
 * drawn from the same data). pi's rule: a configured value replaces the action's default keys;
 * an empty list disables the action. A key taken by a remapped action is removed from any other
 * binding active in the same mode, so the remap always wins.
 */
import type { KeyBinding, KeyName } from './keymap.js';

const SPECIAL: Readonly<Record<string, string>> = {
  escape: 'escape',
  esc: 'escape',
  enter: 'return',
  return: 'return',
  tab: 'tab',
  space: 'space',
  backspace: 'backspace',
  delete: 'backspace', // ink cannot tell forward Delete from Backspace (see keymap.ts)
  home: 'home',
  end: 'end',
  pageup: 'pageup',
  pagedown: 'pagedown',
  up: 'up',
  down: 'down',
  left: 'left',
  right: 'right',
};

/**
 * pi's key syntax (`ctrl+shift+x`, `alt+left`, `shift+l`, `pageUp`) as our canonical name
 * (`ctrl+shift+x`, `meta+left`, `L`, `pageup`); undefined for keys we cannot receive (F-keys,
 * insert, super).
 */
export function piKeyToName(spec: string): KeyName | undefined {
  const parts = spec.split('+');
  // `ctrl++` is Ctrl and the plus key.
  let key = parts.pop()!;
  if (key === '' && parts[parts.length - 1] === '') {
    parts.pop();
    key = '+';
  }
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  if (mods.has('super') || [...mods].some((m) => !['ctrl', 'alt', 'shift', 'meta'].includes(m))) return undefined;
  const ctrl = mods.has('ctrl');
  const meta = mods.has('alt') || mods.has('meta');
  let shift = mods.has('shift');
  let base: string;
  const special = SPECIAL[key.toLowerCase()];
  if (special) base = special;
  else if ([...key].length === 1) {
    base = key.toLowerCase();
    // Shift+letter is the capital letter itself unless Ctrl is held (ctrl+shift+o stays as is).
    if (shift && !ctrl && /[a-z]/.test(base)) {
      base = base.toUpperCase();
      shift = false;
    }
  } else return undefined;
  return `${ctrl ? 'ctrl+' : ''}${meta ? 'meta+' : ''}${shift ? 'shift+' : ''}${base}`;
}

/** pi action id → our command, for the actions the two tools share. */
export type SharedActions<C extends string> = Readonly<Record<string, C>>;

function modesOf(binding: KeyBinding<string>): readonly string[] | undefined {
  return binding.when === undefined ? undefined : typeof binding.when === 'string' ? [binding.when] : binding.when;
}

function sharesMode(a: KeyBinding<string>, b: KeyBinding<string>): boolean {
  const ma = modesOf(a);
  const mb = modesOf(b);
  return ma === undefined || mb === undefined || ma.some((m) => mb.includes(m));
}

export interface Remapped<C extends string> {
  bindings: KeyBinding<C>[];
  /** Keys in keybindings.json we cannot receive, for a status line. */
  ignored: string[];
}

export function applyPiKeybindings<C extends string>(
  bindings: readonly KeyBinding<C>[],
  actions: SharedActions<C>,
  config: Readonly<Record<string, readonly string[]>>,
): Remapped<C> {
  const ignored: string[] = [];
  const replacement = new Map<C, KeyName[]>();
  for (const [action, specs] of Object.entries(config)) {
    const command = actions[action];
    if (command === undefined) continue;
    const keys: KeyName[] = [];
    for (const spec of specs) {
      const name = piKeyToName(spec);
      if (name === undefined) ignored.push(`${action}: ${spec}`);
      else if (!keys.includes(name)) keys.push(name);
    }
    replacement.set(command, keys);
  }
  if (replacement.size === 0) return { bindings: [...bindings], ignored };
  const remapped = bindings.map((b) => (replacement.has(b.command) ? { ...b, keys: replacement.get(b.command)! } : b));
  const result = remapped.map((b) => {
    if (replacement.has(b.command)) return b;
    const taken = remapped.filter((o) => replacement.has(o.command) && sharesMode(o, b)).flatMap((o) => o.keys);
    return taken.length === 0 ? b : { ...b, keys: b.keys.filter((k) => !taken.includes(k)) };
  });
  return { bindings: result, ignored };
}
