/**
 * A binding's keys and modes are types the compiler checks (`npm run check` type-checks the
 * tests): each `@ts-expect-error` below fails the check if the mistake it marks ever compiles.
 */
import { describe, expect, it } from 'vitest';
import type { BindingKey, KeyBinding } from '../../src/keymap/keymap.js';
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

describe('binding types', () => {
  it("the tables are typed with their screen's modes", () => {
    const modes: readonly (TreeKeyMode | undefined)[] = TREE_BINDINGS.flatMap((b) =>
      b.when === undefined ? [undefined] : typeof b.when === 'string' ? [b.when] : [...b.when],
    );
    expect(modes.length).toBeGreaterThan(0);
    expect(good.keys).toHaveLength(8);
    expect([misspeltModifier, misspeltKey, outOfOrder, rawSpace, misspeltMode.when]).toHaveLength(5);
  });
});
