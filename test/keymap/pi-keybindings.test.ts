import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECK_BINDINGS, CHECK_PI_ACTIONS } from '../../src/check/keymap.js';
import { type KeyBinding, resolveCommand } from '../../src/keymap/keymap.js';
import {
  applyPiKeybindings,
  isPiKeyId,
  piKeybindingsConfig,
  piKeyToName,
  type SharedActions,
} from '../../src/keymap/pi-keybindings.js';
import { screenKeymaps } from '../../src/keymap/screen-keymaps.js';
import { LABELS_BINDINGS, LABELS_PI_ACTIONS } from '../../src/labels/keymap.js';
import { PICKER_BINDINGS, PICKER_PI_ACTIONS } from '../../src/picker/keymap.js';
import { STATS_BINDINGS, STATS_PI_ACTIONS } from '../../src/stats/keymap.js';
import { TREE_BINDINGS, TREE_PI_ACTIONS } from '../../src/tree/keymap.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';

const keysOf = (bindings: readonly KeyBinding<string>[], command: string) =>
  bindings.filter((b) => b.command === command).map((b) => b.keys);

/** pi 1.6.0's own keybindings module (by path: pi's package index needs Node 22). */
interface PiKeybindingsModule {
  KEYBINDINGS: Record<string, { defaultKeys: string | string[] }>;
  KeybindingsManager: { loadFromFile(path: string): Record<string, string | string[]> };
}
const piModule = (): Promise<PiKeybindingsModule> =>
  import(
    pathToFileURL(join(REPO_ROOT, 'node_modules/@earendil-works/pi-coding-agent/dist/core/keybindings.js')).href
  ) as Promise<PiKeybindingsModule>;
const asList = (v: string | string[]): string[] => (Array.isArray(v) ? v : [v]);

describe("pi's key syntax", () => {
  it.each([
    ['ctrl+x', 'ctrl+x'],
    ['alt+left', 'meta+left'],
    ['shift+l', 'L'],
    ['shift+ctrl+o', 'ctrl+shift+o'],
    ['ctrl+shift+t', 'ctrl+shift+t'],
    ['ctrl+alt+]', 'ctrl+meta+]'],
    ['pageUp', 'pageup'],
    ['escape', 'escape'],
    ['esc', 'escape'],
    ['enter', 'return'],
    ['alt+enter', 'meta+return'],
    ['shift+tab', 'shift+tab'],
    ['ctrl++', 'ctrl++'],
    ['?', '?'],
    ['f5', 'f5'],
    ['insert', 'insert'],
    ['delete', 'delete'],
  ])('%s → %s', (spec, name) => expect(piKeyToName(spec)).toBe(name));

  it.each(['super+k', 'shift+/', 'hyper+x', 'Shift+L', 'meta+x', 'pageup', 'ctrl+ctrl+x', 'ctrl+', ''])(
    '%s: undefined (pi refuses it, or no terminal sends it as such)',
    (spec) => expect(piKeyToName(spec)).toBeUndefined(),
  );

  it("accepts exactly the key ids pi's own schema accepts (pi's loadFromFile is the oracle)", async () => {
    const pi = await piModule();
    const dir = tempDir();
    const specs = [
      'k',
      'K',
      '5',
      'ctrl+k',
      'Ctrl+k',
      'shift+l',
      'shift+L',
      'alt+shift+ctrl+super+x',
      'ctrl+alt+ctrl+x',
      'pageUp',
      'pageup',
      'PageUp',
      'f12',
      'f13',
      'ctrl++',
      '+',
      'ctrl+',
      'meta+x',
      'esc',
      'enter',
      'space',
      'ctrl+space',
      'ctrl+]',
      '?',
      'shift+?',
      'é',
      'ctrl+é',
      'up ',
      ' up',
      'clear',
      'tab+x',
      'ab',
    ];
    for (const spec of specs) {
      const file = join(dir, 'keybindings.json');
      writeFileSync(file, JSON.stringify({ 'tui.select.up': spec }));
      const piTakes = Object.hasOwn(pi.KeybindingsManager.loadFromFile(file), 'tui.select.up');
      expect({ spec, ours: isPiKeyId(spec) }).toEqual({ spec, ours: piTakes });
    }
  });
});

describe('reading keybindings.json as pi 1.6.0 does', () => {
  it("legacy names, both names, bad values, $schema: the same actions and keys as pi's loadFromFile", async () => {
    const pi = await piModule();
    const raw = {
      $schema: 'https://example.com/schema.json',
      selectUp: 'k', // legacy name → tui.select.up
      treeEditLabel: 'ctrl+e', // legacy, and the new id is present too: the new one wins
      'app.tree.editLabel': ['ctrl+l', 'ctrl+l'],
      'tui.select.down': ['j', 'Down'], // one bad key: pi ignores the whole value
      'app.session.delete': [],
      'app.session.rename': 3,
      'app.session.togglePath': null,
      'app.session.toggleSort': { key: 'ctrl+s' },
      'app.message.copy': 'alt+c',
      'some.future.action': 'ctrl+q',
    };
    const file = join(tempDir(), 'keybindings.json');
    writeFileSync(file, `\uFEFF${JSON.stringify(raw)}`);
    const theirs = Object.fromEntries(
      Object.entries(pi.KeybindingsManager.loadFromFile(file)).map(([k, v]) => [k, [...new Set(asList(v))]]),
    );
    const ours = piKeybindingsConfig(raw);
    expect(ours.keys).toEqual(theirs);
    expect(ours.keys['app.tree.editLabel']).toEqual(['ctrl+l']);
    expect(ours.problems).toEqual([
      'tui.select.down: ["j","Down"] is not a pi key or list of keys, ignored',
      'app.session.rename: 3 is not a pi key or list of keys, ignored',
      'app.session.togglePath: null is not a pi key or list of keys, ignored',
      'app.session.toggleSort: {"key":"ctrl+s"} is not a pi key or list of keys, ignored',
    ]);
  });

  it('hostile action names are just names: nothing is remapped, nothing throws', () => {
    const raw = JSON.parse(
      '{"__proto__": ["ctrl+d"], "constructor": "ctrl+d", "toString": ["ctrl+d"], "hasOwnProperty": "x"}',
    ) as Record<string, unknown>;
    const keymaps = screenKeymaps(raw, 'kb.json');
    expect(keymaps.picker).toEqual(PICKER_BINDINGS);
    expect(keymaps.tree).toEqual(TREE_BINDINGS);
    expect(keymaps.problems).toEqual([]);
  });
});

describe("the shared actions match pi 1.6.0's table", () => {
  it.each([
    ['picker', PICKER_BINDINGS, PICKER_PI_ACTIONS],
    ['tree', TREE_BINDINGS, TREE_PI_ACTIONS],
    ['stats', STATS_BINDINGS, STATS_PI_ACTIONS],
    ['check', CHECK_BINDINGS, CHECK_PI_ACTIONS],
    ['labels', LABELS_BINDINGS, LABELS_PI_ACTIONS],
  ] as const)(
    '%s: every action id exists in pi with these defaults (Linux), and reaches each of its commands',
    async (_screen, bindings, actions: SharedActions<string>) => {
      const pi = await piModule();
      for (const [action, shared] of Object.entries(actions)) {
        // Sorted: on macOS pi lists Alt+← before Ctrl+← (same keys).
        expect({ action, defaults: asList(pi.KEYBINDINGS[action]?.defaultKeys ?? 'missing from pi').sort() }).toEqual({
          action,
          defaults: [...shared.piDefaults].sort(),
        });
        // Remap to a key nothing else uses: every command the action names must follow.
        const remapped = applyPiKeybindings(bindings, actions, { [action]: ['f12'] }).bindings;
        for (const command of shared.commands)
          expect({ action, command, keys: keysOf(remapped, command).some((k) => k.includes('f12')) }).toEqual({
            action,
            command,
            keys: true,
          });
      }
    },
  );
});

describe('applyPiKeybindings', () => {
  it('replaces the keys of a shared action; keys no terminal sends are reported and left out', () => {
    const { bindings, problems } = applyPiKeybindings(TREE_BINDINGS, TREE_PI_ACTIONS, {
      'app.tree.editLabel': ['ctrl+e'],
      'app.message.copy': ['alt+c', 'super+c'],
    });
    expect(keysOf(bindings, 'editLabel')).toEqual([['ctrl+e']]);
    expect(keysOf(bindings, 'copy')).toEqual([['meta+c']]);
    expect(problems).toEqual(['app.message.copy: super+c cannot be told apart by a terminal here, left out']);
    expect(resolveCommand(bindings, 'L', 'browse')).toBeUndefined();
    expect(resolveCommand(bindings, 'ctrl+e', 'browse')).toBe('editLabel');
  });

  it('an empty list disables the action; unknown actions and ours alone are untouched', () => {
    const { bindings } = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, {
      'app.session.delete': [],
      'app.model.select': ['ctrl+d'],
    });
    expect(keysOf(bindings, 'delete')).toEqual([[]]);
    expect(resolveCommand(bindings, 'ctrl+d', 'browse')).toBeUndefined();
    expect(keysOf(bindings, 'mark')).toEqual(keysOf(PICKER_BINDINGS, 'mark'));
  });

  it('only the bindings holding pi’s default key follow: the delete prompt keeps n for no', () => {
    const { bindings } = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, { 'tui.select.cancel': ['ctrl+q'] });
    expect(resolveCommand(bindings, 'ctrl+q', 'confirm')).toBe('cancel');
    expect(resolveCommand(bindings, 'n', 'confirm')).toBe('cancel');
    expect(resolveCommand(bindings, 'escape', 'confirm')).toBeUndefined();
    expect(resolveCommand(bindings, 'ctrl+q', 'browse')).toBe('escape');
    expect(resolveCommand(bindings, 'ctrl+q', 'rename')).toBe('cancel');
  });

  it('a remapped key is taken from other bindings in the modes they share only', () => {
    // Insert marks in the picker; give it to "sort" (pi's toggleSort).
    const sorted = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, {
      'app.session.toggleSort': ['insert'],
    }).bindings;
    expect(keysOf(sorted, 'sort')).toEqual([['insert']]);
    expect(keysOf(sorted, 'mark')).toEqual([['ctrl+space', 'shift+down']]);
    // Ctrl+W deletes a word in the search and in the rename field; rename (browse only) takes it
    // in the list, and the rename field keeps it.
    const renamed = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, {
      'app.session.rename': ['ctrl+w'],
    }).bindings;
    expect(resolveCommand(renamed, 'ctrl+w', 'browse')).toBe('rename');
    expect(resolveCommand(renamed, 'ctrl+w', 'rename')).toBe('deleteWord');
    expect(resolveCommand(renamed, 'meta+backspace', 'browse')).toBe('deleteWord');
    // Up in the tree list and its menus is remapped; Up in the detail view is ours and keeps its key,
    // and so does the wheel in the menus (a binding of its own).
    const tree = applyPiKeybindings(TREE_BINDINGS, TREE_PI_ACTIONS, { 'tui.select.up': ['k'] }).bindings;
    expect(keysOf(tree, 'up')).toEqual([['k']]);
    expect(keysOf(tree, 'menuUp')).toEqual([['k'], ['wheelup']]);
    expect(keysOf(tree, 'detailUp')).toEqual([['up']]);
  });

  it('a binding for every mode keeps its key: Ctrl+C still closes the help and quits where no remap claims it', () => {
    const { bindings } = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, {
      'tui.select.cancel': ['escape', 'ctrl+c'],
    });
    expect(resolveCommand(bindings, 'ctrl+c', 'browse')).toBe('escape');
    expect(resolveCommand(bindings, 'ctrl+c', 'help')).toBe('closeHelp');
    const { bindings: plain } = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, {
      'tui.select.cancel': ['escape'],
    });
    expect(resolveCommand(plain, 'ctrl+c', 'browse')).toBe('quit');
    expect(resolveCommand(plain, 'ctrl+c', 'help')).toBe('closeHelp');
  });

  it('two actions given one key in one mode: reported, and the one that works is named', () => {
    const { bindings, problems } = applyPiKeybindings(TREE_BINDINGS, TREE_PI_ACTIONS, {
      'app.tree.editLabel': ['ctrl+e'],
      'app.message.copy': ['ctrl+e'],
    });
    // The first binding in the keymap's order wins where both apply (the list, no search)…
    expect(resolveCommand(bindings, 'ctrl+e', 'browse')).toBe('editLabel');
    // …and while searching, where the label key does not apply, Ctrl+E copies.
    expect(resolveCommand(bindings, 'ctrl+e', 'search')).toBe('copy');
    expect(problems).toEqual([
      'Ctrl+E is set for both app.message.copy and app.tree.editLabel; app.tree.editLabel is used',
    ]);
  });
});

describe('screenKeymaps', () => {
  it('every screen from one file; each problem once, naming the file', () => {
    const keymaps = screenKeymaps(
      { 'tui.select.down': ['j', 'super+j'], 'tui.select.up': 'Up' },
      '/a/keybindings.json',
    );
    expect(resolveCommand(keymaps.picker, 'j', 'browse')).toBe('down');
    expect(resolveCommand(keymaps.tree, 'j', 'browse')).toBe('down');
    expect(resolveCommand(keymaps.stats, 'j', 'view')).toBe('down');
    expect(resolveCommand(keymaps.check, 'j', 'list')).toBe('down');
    expect(resolveCommand(keymaps.labels, 'j', 'browse')).toBe('down');
    expect(keymaps.problems).toEqual([
      '/a/keybindings.json: tui.select.up: "Up" is not a pi key or list of keys, ignored',
      '/a/keybindings.json: tui.select.down: super+j cannot be told apart by a terminal here, left out',
    ]);
  });
});
