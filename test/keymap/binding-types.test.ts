/**
 * A binding's keys and modes are types the compiler checks (`npm run check` type-checks the
 * tests): each `@ts-expect-error` below fails the check if the mistake it marks ever compiles.
 */
import { describe, expect, it } from 'vitest';
import {
  type BindingKey,
  footerHints,
  type KeyBinding,
  type KeyName,
  keyFor,
  parseKeyName,
  resolveCommand,
} from '../../src/keymap/keymap.js';
import { key } from '../../src/keymap/tokenize.js';
import { LABELS_BINDINGS, type LabelsCommand, type LabelsKeyMode } from '../../src/labels/keymap.js';
import { textEditBindings } from '../../src/state/text-input-keys.js';
import { TREE_BINDINGS, type TreeCommand, type TreeKeyMode } from '../../src/tree/keymap.js';

const good: KeyBinding<TreeCommand, TreeKeyMode> = {
  command: 'copy',
  keys: ['ctrl+r', 'shift+tab', 'ctrl+meta+shift+left', 'meta+.', 'L', '?', 'f12', 'space'],
  description: 'every kind of key name',
  when: ['browse', 'search'],
};

// @ts-expect-error a misspelt modifier
const misspeltModifier: BindingKey = 'ctlr+r';
// @ts-expect-error a misspelt key
const misspeltKey: BindingKey = 'pgup';
// @ts-expect-error modifiers out of the canonical order ctrl+meta+shift
const outOfOrder: BindingKey = 'shift+ctrl+left';
// @ts-expect-error a space is the key `space`, never ' '
const rawSpace: BindingKey = ' ';

const misspeltMode: KeyBinding<TreeCommand, TreeKeyMode> = {
  command: 'copy',
  keys: ['y'],
  description: 'a mode the tree does not have',
  // @ts-expect-error 'serach' is no mode of the tree
  when: 'serach',
};

// @ts-expect-error a key name is checked like a binding's key: the misspelt modifier fails
const misspeltName: KeyName = 'ctrl+shfit+x';
// @ts-expect-error a keypress made in code names a real key
const misspeltKeypress = key('pgdn');
const fromOutside: string = 'é';
// @ts-expect-error a string from outside is a key name only once it is checked (parseKeyName)
const unchecked: KeyName = fromOutside;
const checked: KeyName | undefined = parseKeyName(fromOutside);

// Shared bindings built for a mode the table does not have do not fit in it.
// @ts-expect-error the labels view has no 'search' mode
const sharedForAnotherMode: readonly KeyBinding<LabelsCommand, LabelsKeyMode>[] = textEditBindings('search');

// A lookup by mode takes only the table's own modes.
// @ts-expect-error 'brwose' is no mode of the labels view
const lookedUp = resolveCommand(LABELS_BINDINGS, 'return', 'brwose');
// @ts-expect-error the footer of a mode the labels view does not have
const hints = footerHints(LABELS_BINDINGS, 'serach', 80);
// @ts-expect-error the prompt key of a mode the labels view does not have
const prompt = keyFor(LABELS_BINDINGS, 'open', 'menu');

describe('binding types', () => {
  it("the tables are typed with their screen's modes", () => {
    const modes: readonly (TreeKeyMode | undefined)[] = TREE_BINDINGS.flatMap((b) =>
      b.when === undefined ? [undefined] : typeof b.when === 'string' ? [b.when] : [...b.when],
    );
    expect(modes.length).toBeGreaterThan(0);
    expect(good.keys).toHaveLength(8);
    expect([misspeltModifier, misspeltKey, outOfOrder, rawSpace, misspeltMode.when]).toHaveLength(5);
  });

  it('key names and mode lookups are checked too, and a checked string is a key name', () => {
    expect([misspeltName, misspeltKeypress.name, unchecked]).toEqual(['ctrl+shfit+x', 'pgdn', 'é']);
    expect(checked).toBe('é');
    expect([lookedUp, hints, prompt]).toEqual([undefined, [], undefined]);
    expect(sharedForAnotherMode.length).toBeGreaterThan(0);
    expect(resolveCommand(LABELS_BINDINGS, 'return', 'browse')).toBe('open');
  });
});
