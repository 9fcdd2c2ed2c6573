/** The run-time check of key names from outside: it accepts what the types accept, nothing else. */
import { describe, expect, it } from 'vitest';
import { parseBindingKey, parseKeyName, SPECIAL_KEYS } from '../../src/keymap/key-name.js';
import { createTokenizer } from '../../src/keymap/tokenize.js';

const PRINTABLE = Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i));
const MODIFIERS = ['', 'ctrl+', 'meta+', 'shift+', 'ctrl+meta+', 'ctrl+shift+', 'meta+shift+', 'ctrl+meta+shift+'];

describe('parseBindingKey', () => {
  it('accepts every special key and printable character, under every modifier prefix in order', () => {
    for (const prefix of MODIFIERS)
      for (const base of [...SPECIAL_KEYS, ...PRINTABLE]) expect(parseBindingKey(prefix + base)).toBe(prefix + base);
  });

  it('refuses misspelt keys and modifiers, modifiers out of order or twice, a raw space, empty bases', () => {
    for (const text of [
      'ctrl+shfit+x',
      'ctlr+r',
      'pgup',
      'shift+ctrl+left',
      'meta+ctrl+x',
      'ctrl+ctrl+x',
      ' ',
      'ctrl+ ',
      '',
      'ctrl+',
      'Up',
      'F1',
      'é',
      'ab',
      'ctrl+\u0001',
    ])
      expect(parseBindingKey(text), JSON.stringify(text)).toBeUndefined();
  });

  it('reads a plus after the modifiers as the plus key', () => {
    expect(parseBindingKey('+')).toBe('+');
    expect(parseBindingKey('ctrl++')).toBe('ctrl++');
    expect(parseBindingKey('ctrl+meta++')).toBe('ctrl+meta++');
  });
});

describe('parseKeyName', () => {
  it('adds one character beyond ASCII, with or without modifiers', () => {
    for (const text of ['é', 'meta+é', 'ctrl+meta+ж', '中', 'meta+🙂']) expect(parseKeyName(text)).toBe(text);
    expect(parseKeyName('ctrl+r')).toBe('ctrl+r');
  });

  it('refuses C1 controls, two characters, misspellings', () => {
    for (const text of ['\u0085', 'meta+\u009b', 'éé', 'meta+ée', 'ctrl+shfit+x', 'shift+ctrl+é'])
      expect(parseKeyName(text), JSON.stringify(text)).toBeUndefined();
  });

  it('accepts the names the tokenizer hands over for what a user types', () => {
    const bytes = [
      ['a', 'a'],
      ['L', 'L'],
      [' ', 'space'],
      ['é', 'é'],
      ['\u001bé', 'meta+é'],
      ['\u0012', 'ctrl+r'],
      ['\u001b[1;5D', 'ctrl+left'],
      ['\u001b[Z', 'shift+tab'],
      ['\u001b\u001b[A', 'meta+up'],
      ['\u001b[3~', 'delete'],
      ['\u001b[108;6u', 'ctrl+shift+l'],
      ['\u001b[233;3u', 'meta+é'],
      ['\u001b', 'escape'],
    ] as const;
    for (const [input, name] of bytes) {
      const tokenizer = createTokenizer();
      const [keypress] = [...tokenizer.push(input), ...tokenizer.flush()];
      expect(keypress?.name, JSON.stringify(input)).toBe(name);
      expect(parseKeyName(name)).toBe(name);
    }
  });
});
