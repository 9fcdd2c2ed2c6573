import { describe, expect, test } from 'vitest';
import { footerHints, type KeyBinding } from '../../src/keymap/keymap.js';

type C = 'up' | 'down' | 'open';

describe('footer hints that pair two commands’ keys (hintWith)', () => {
  test('two one-glyph keys run together: ↑↓ move', () => {
    const bindings: KeyBinding<C>[] = [
      { command: 'up', keys: ['up'], description: 'Up', hint: 'move', hintWith: 'down' },
      { command: 'down', keys: ['down'], description: 'Down' },
    ];
    expect(footerHints(bindings, undefined, 80)).toEqual([{ key: '↑↓', label: 'move' }]);
  });

  test('letters (a keybindings.json remap) take a slash: k/j move', () => {
    const bindings: KeyBinding<C>[] = [
      { command: 'up', keys: ['k'], description: 'Up', hint: 'move', hintWith: 'down' },
      { command: 'down', keys: ['j'], description: 'Down' },
    ];
    expect(footerHints(bindings, undefined, 80)).toEqual([{ key: 'k/j', label: 'move' }]);
  });

  test('longer keys are separated by a slash', () => {
    const bindings: KeyBinding<C>[] = [
      { command: 'up', keys: ['ctrl+p'], description: 'Up', hint: 'move', hintWith: 'down' },
      { command: 'down', keys: ['ctrl+n'], description: 'Down' },
    ];
    expect(footerHints(bindings, undefined, 80)).toEqual([{ key: 'Ctrl+P/Ctrl+N', label: 'move' }]);
  });

  test('a partner that has no binding in the mode, or only shadowed keys, leaves the hint alone', () => {
    const bindings: KeyBinding<C>[] = [
      { command: 'up', keys: ['up'], description: 'Up', hint: 'move', hintWith: 'down', when: 'list' },
      { command: 'open', keys: ['down'], description: 'Open', when: 'list' },
      { command: 'down', keys: ['down'], description: 'Down', when: 'list' },
    ];
    expect(footerHints(bindings, 'list', 80)).toEqual([{ key: '↑', label: 'move' }]);
    expect(footerHints(bindings.slice(0, 1), 'list', 80)).toEqual([{ key: '↑', label: 'move' }]);
  });
});
