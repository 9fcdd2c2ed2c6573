import { describe, expect, it } from 'vitest';
import {
  footerHints,
  formatHints,
  formatKey,
  helpRows,
  type KeyBinding,
  markdownKeyTable,
  resolveCommand,
} from '../../src/keymap/keymap.js';
import { PICKER_BINDINGS } from '../../src/picker/keymap.js';

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

  it('Ctrl+J (LF) does what Enter does unless a binding of the mode takes it', () => {
    expect(resolveCommand(BINDINGS, 'ctrl+j', 'browse')).toBe('open');
    const remapped: KeyBinding<Cmd>[] = [
      { command: 'down', keys: ['down', 'ctrl+j'], description: 'Move down', when: 'browse' },
      ...BINDINGS,
    ];
    expect(resolveCommand(remapped, 'ctrl+j', 'browse')).toBe('down');
    expect(resolveCommand(remapped, 'ctrl+j', 'search')).toBe('open');
    expect(resolveCommand(remapped, 'return', 'browse')).toBe('open');
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
    expect(formatHints(footerHints(BINDINGS, 'browse', 200))).toBe(
      '↑ move  Enter open  / search  q quit  Ctrl+D trash  ? help',
    );
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

describe('footer: every command one key away', () => {
  it('when hints are left out, the help goes last as `? more`; when all fit, it stays `? help` in its place', () => {
    for (const width of [72, 120, 160]) {
      const line = formatHints(footerHints(PICKER_BINDINGS, 'browse', width));
      expect(line.length).toBeLessThanOrEqual(width);
      expect(line.endsWith('? more')).toBe(true);
      expect(line.startsWith('→ tree  Enter resume')).toBe(true);
    }
    const wide = formatHints(footerHints(PICKER_BINDINGS, 'browse', 160));
    expect(wide).toContain('Ctrl+L labels  Ctrl+N named  Ctrl+P paths');
    const all = formatHints(footerHints(PICKER_BINDINGS, 'browse', 1000));
    expect(all).toContain('? help');
    expect(all).not.toContain('more');
  });
});
