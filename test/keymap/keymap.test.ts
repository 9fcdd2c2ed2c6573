import { describe, expect, it } from 'vitest';
import {
  footerHints,
  formatHints,
  formatKey,
  helpRows,
  keyNameFromInk,
  keyNamesFromInk,
  markdownKeyTable,
  resolveCommand,
  type InkKey,
  type KeyBinding,
} from '../../src/keymap/keymap.js';

const NONE: InkKey = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageUp: false,
  pageDown: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
};
const k = (flags: Partial<InkKey>): InkKey => ({ ...NONE, ...flags });

describe('keyNameFromInk (ink 6.8 key objects)', () => {
  it.each<[string, string, Partial<InkKey>, string | undefined]>([
    ['arrow up', '', { upArrow: true }, 'up'],
    ['arrow down', '', { downArrow: true }, 'down'],
    ['page up', '', { pageUp: true }, 'pageup'],
    ['page down', '', { pageDown: true }, 'pagedown'],
    ['home', '', { home: true }, 'home'],
    ['end', '', { end: true }, 'end'],
    ['enter', '\r', { return: true }, 'return'],
    ['alt+enter', '\r', { return: true, meta: true }, 'meta+return'],
    ['escape (ink 6 also sets meta)', '', { escape: true, meta: true }, 'escape'],
    ['alt+escape', '\u001b', { escape: true, meta: true }, 'escape'],
    ['tab', '', { tab: true }, 'tab'],
    ['shift+tab', '', { tab: true, shift: true }, 'shift+tab'],
    ['backspace 0x7f arrives as delete', '', { delete: true }, 'backspace'],
    ['ctrl+h / 0x08 arrives as backspace', '', { backspace: true }, 'backspace'],
    ['alt+backspace', '', { delete: true, meta: true }, 'meta+backspace'],
    ['space', ' ', {}, 'space'],
    ['alt+space', ' ', { meta: true }, 'meta+space'],
    ['ctrl+space (NUL)', '`', { ctrl: true }, 'ctrl+space'],
    ['ctrl+r', 'r', { ctrl: true }, 'ctrl+r'],
    ['ctrl+c', 'c', { ctrl: true }, 'ctrl+c'],
    ['kitty ctrl+shift+o', 'o', { ctrl: true, shift: true }, 'ctrl+shift+o'],
    ['ctrl+alt+r (ESC 0x12)', '\u0012', {}, 'ctrl+meta+r'],
    ['ctrl+left', '', { leftArrow: true, ctrl: true }, 'ctrl+left'],
    ['ctrl+shift+left', '', { leftArrow: true, ctrl: true, shift: true }, 'ctrl+shift+left'],
    ['alt+left', '', { leftArrow: true, meta: true }, 'meta+left'],
    ['alt+shift+left', '', { leftArrow: true, meta: true, shift: true }, 'meta+shift+left'],
    ['shift+up', '', { upArrow: true, shift: true }, 'shift+up'],
    ['ctrl+home', '', { home: true, ctrl: true }, 'ctrl+home'],
    ['lowercase letter', 'u', {}, 'u'],
    ['shift+letter', 'L', { shift: true }, 'L'],
    ['alt+letter', 'b', { meta: true }, 'meta+b'],
    ['alt+shift+letter', 'B', { meta: true, shift: true }, 'meta+B'],
    ['question mark', '?', {}, '?'],
    ['slash', '/', {}, '/'],
    ['digit', '3', {}, '3'],
    ['non-BMP char', '😀', {}, '😀'],
    ['linefeed', '\n', {}, 'return'],
    ['paste chunk', 'hello', {}, undefined],
    ['empty (F-key, Insert)', '', {}, undefined],
    ['unknown control char', '\u001c', {}, undefined],
  ])('%s', (_label, input, flags, expected) => {
    expect(keyNameFromInk(input, k(flags))).toBe(expected);
  });
});

describe('keyNamesFromInk', () => {
  it('splits plain multi-character chunks into keys', () => {
    expect(keyNamesFromInk('jj', NONE)).toEqual(['j', 'j']);
    expect(keyNamesFromInk('a b\r', NONE)).toEqual(['a', 'space', 'b', 'return']);
    expect(keyNamesFromInk('x\u0007y\tz', NONE)).toEqual(['x', 'y', 'tab', 'z']);
  });
  it('returns single keys as-is and nothing for unrepresentable input', () => {
    expect(keyNamesFromInk('', k({ downArrow: true }))).toEqual(['down']);
    expect(keyNamesFromInk('', NONE)).toEqual([]);
    expect(keyNamesFromInk('ab', k({ meta: true }))).toEqual([]);
  });
});

type Cmd = 'up' | 'down' | 'open' | 'search' | 'quit' | 'cancel' | 'help' | 'trash' | 'clear';
const BINDINGS: KeyBinding<Cmd>[] = [
  { command: 'up', keys: ['up', 'k'], description: 'Move up', hint: 'move', when: 'browse' },
  { command: 'up', keys: ['up', 'ctrl+p'], description: 'Move up', when: 'search' },
  { command: 'down', keys: ['down', 'j'], description: 'Move down', when: ['browse'] },
  { command: 'open', keys: ['return'], description: 'Open session', hint: 'open' },
  { command: 'search', keys: ['/'], description: 'Search', hint: 'search', when: 'browse' },
  { command: 'cancel', keys: ['escape'], description: 'Leave search', hint: 'back', when: 'search' },
  { command: 'quit', keys: ['q', 'escape'], description: 'Quit', hint: 'quit' },
  { command: 'trash', keys: ['ctrl+d'], description: 'Move to trash | confirm', hint: 'trash', when: 'browse' },
  { command: 'help', keys: ['?'], description: 'Help', hint: 'help', when: ['browse', 'search'] },
  { command: 'clear', keys: ['ctrl+u'], description: 'Clear query', when: 'search' },
];

describe('resolveCommand', () => {
  it.each<[string, string | undefined, Cmd | undefined]>([
    ['k', 'browse', 'up'],
    ['k', 'search', undefined],
    ['ctrl+p', 'search', 'up'],
    ['down', 'browse', 'down'],
    ['return', 'browse', 'open'],
    ['return', 'search', 'open'],
    ['escape', 'search', 'cancel'], // mode-specific beats global
    ['escape', 'browse', 'quit'],
    ['escape', undefined, 'quit'],
    ['/', undefined, undefined],
    ['?', 'search', 'help'],
    ['x', 'browse', undefined],
  ])('%s in %s → %s', (key, mode, expected) => {
    expect(resolveCommand(BINDINGS, key, mode)).toBe(expected);
  });

  it('treats an undefined key as no command', () => {
    expect(resolveCommand(BINDINGS, undefined, 'browse')).toBeUndefined();
  });

  it('resolves straight from ink key objects', () => {
    expect(resolveCommand(BINDINGS, keyNameFromInk('', k({ escape: true, meta: true })), 'search')).toBe('cancel');
    expect(resolveCommand(BINDINGS, keyNameFromInk('d', k({ ctrl: true })), 'browse')).toBe('trash');
  });
});

describe('formatKey', () => {
  it.each([
    ['ctrl+r', 'Ctrl+R'],
    ['up', '↑'],
    ['down', '↓'],
    ['left', '←'],
    ['right', '→'],
    ['pageup', 'PgUp'],
    ['pagedown', 'PgDn'],
    ['home', 'Home'],
    ['end', 'End'],
    ['escape', 'Esc'],
    ['return', 'Enter'],
    ['tab', 'Tab'],
    ['shift+tab', 'Shift+Tab'],
    ['backspace', 'Backspace'],
    ['space', 'Space'],
    ['ctrl+space', 'Ctrl+Space'],
    ['meta+left', 'Alt+←'],
    ['ctrl+shift+o', 'Ctrl+Shift+O'],
    ['meta+b', 'Alt+B'],
    ['meta+B', 'Alt+Shift+B'],
    ['u', 'u'],
    ['L', 'L'],
    ['?', '?'],
    ['+', '+'],
    ['ctrl++', 'Ctrl++'],
  ])('%s → %s', (name, label) => {
    expect(formatKey(name)).toBe(label);
  });
});

describe('footerHints', () => {
  it('lists the hints of the mode in binding order', () => {
    expect(formatHints(footerHints(BINDINGS, 'browse', 200))).toBe('↑ move  Enter open  / search  q quit  Ctrl+D trash  ? help');
  });

  it('uses a key that is not shadowed in the mode', () => {
    // escape belongs to "cancel" in search, so "quit" is shown with q.
    expect(footerHints(BINDINGS, 'search', 200)).toEqual([
      { key: 'Enter', label: 'open' },
      { key: 'Esc', label: 'back' },
      { key: 'q', label: 'quit' },
      { key: '?', label: 'help' },
    ]);
  });

  it('skips hints that do not fit and keeps later shorter ones', () => {
    // "/ search" (10 columns with separator) doesn't fit in 26, "q quit" (8) does.
    const items = footerHints(BINDINGS, 'browse', 26);
    expect(formatHints(items)).toBe('↑ move  Enter open  q quit');
    expect(formatHints(items).length).toBeLessThanOrEqual(26);
  });

  it('returns nothing when nothing fits', () => {
    expect(footerHints(BINDINGS, 'browse', 3)).toEqual([]);
  });
});

describe('helpRows', () => {
  it('groups by mode, global first, multi-mode bindings in each', () => {
    const sections = helpRows(BINDINGS);
    expect(sections.map((s) => s.mode)).toEqual([undefined, 'browse', 'search']);
    expect(sections[0]?.rows).toEqual([
      { keys: 'Enter', description: 'Open session' },
      { keys: 'q / Esc', description: 'Quit' },
    ]);
    expect(sections[1]?.rows.map((r) => r.keys)).toEqual(['↑ / k', '↓ / j', '/', 'Ctrl+D', '?']);
    expect(sections[2]?.rows.map((r) => r.description)).toEqual(['Move up', 'Leave search', 'Help', 'Clear query']);
  });
});

describe('markdownKeyTable', () => {
  it('renders a GFM table with escaped pipes', () => {
    const table = markdownKeyTable(BINDINGS.slice(0, 8), { browse: 'Session list' });
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toBe('| Keys | Action | Where |');
    expect(lines[1]).toBe('| --- | --- | --- |');
    expect(lines[2]).toBe('| `↑`, `k` | Move up | Session list |');
    expect(lines[5]).toBe('| `Enter` | Open session | everywhere |');
    expect(lines[9]).toBe('| `Ctrl+D` | Move to trash \\| confirm | Session list |');
    expect(lines).toHaveLength(10);
  });
});
