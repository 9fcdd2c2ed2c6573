import { describe, expect, it } from 'vitest';
import { applyPiKeybindings, piKeyToName } from '../../src/keymap/pi-keybindings.js';
import { PICKER_BINDINGS, PICKER_PI_ACTIONS } from '../../src/picker/keymap.js';
import { TREE_BINDINGS, TREE_PI_ACTIONS } from '../../src/tree/keymap.js';

const keysOf = (bindings: readonly { command: string; keys: string[]; when?: unknown }[], command: string) =>
  bindings.filter((b) => b.command === command).map((b) => b.keys);

describe("pi's key syntax", () => {
  it.each([
    ['ctrl+x', 'ctrl+x'],
    ['alt+left', 'meta+left'],
    ['shift+l', 'L'],
    ['shift+ctrl+o', 'ctrl+shift+o'],
    ['ctrl+shift+t', 'ctrl+shift+t'],
    ['pageUp', 'pageup'],
    ['escape', 'escape'],
    ['esc', 'escape'],
    ['enter', 'return'],
    ['shift+tab', 'shift+tab'],
    ['ctrl++', 'ctrl++'],
    ['?', '?'],
  ])('%s → %s', (spec, name) => expect(piKeyToName(spec)).toBe(name));

  it.each(['f5', 'super+k', 'insert', 'hyper+x'])('%s cannot be received: undefined', (spec) => expect(piKeyToName(spec)).toBeUndefined());
});

describe('applyPiKeybindings', () => {
  it('replaces the keys of a shared action, and the hints follow (same data)', () => {
    const { bindings, ignored } = applyPiKeybindings(TREE_BINDINGS, TREE_PI_ACTIONS, { 'app.tree.editLabel': ['ctrl+e'], 'app.message.copy': ['alt+c', 'f9'] });
    expect(keysOf(bindings, 'editLabel')).toEqual([['ctrl+e']]);
    expect(keysOf(bindings, 'copy')).toEqual([['meta+c']]);
    expect(ignored).toEqual(['app.message.copy: f9']);
  });

  it('an empty list disables the action; unknown actions and ours alone are untouched', () => {
    const { bindings } = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, { 'app.session.delete': [], 'app.model.select': ['ctrl+d'] });
    expect(keysOf(bindings, 'delete')).toEqual([[]]);
    expect(keysOf(bindings, 'mark')).toEqual(keysOf(PICKER_BINDINGS, 'mark'));
  });

  it('a remapped key is taken away from other bindings in the same mode only', () => {
    // Ctrl+T marks in the picker; give it to "sort" (pi's toggleSort).
    const { bindings } = applyPiKeybindings(PICKER_BINDINGS, PICKER_PI_ACTIONS, { 'app.session.toggleSort': 'ctrl+t'.split(' ') });
    expect(keysOf(bindings, 'sort')).toEqual([['ctrl+t']]);
    expect(keysOf(bindings, 'mark')).toEqual([['ctrl+space']]);
    // Up in the tree list is remapped; Up in the detail view is another mode and keeps its key.
    const tree = applyPiKeybindings(TREE_BINDINGS, TREE_PI_ACTIONS, { 'tui.select.up': ['k'] }).bindings;
    expect(keysOf(tree, 'up')).toEqual([['k']]);
    expect(keysOf(tree, 'detailUp')).toEqual([['up']]);
  });
});
