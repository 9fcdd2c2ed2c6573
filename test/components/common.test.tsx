import { Box, Text } from 'ink';
import { describe, expect, it } from 'vitest';
import { HelpOverlay, helpLines } from '../../components/common/HelpOverlay.js';
import { KeyHints } from '../../components/common/KeyHints.js';
import { StatusLine } from '../../components/common/StatusLine.js';
import { layoutTextInput, TextInputView } from '../../components/common/TextInputView.js';
import { useTerminalSize } from '../../components/common/use-terminal-size.js';
import type { KeyBinding } from '../../src/keymap/keymap.js';
import { initialTextInput, type TextInputState } from '../../src/state/text-input.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { renderInk } from '../helpers/ink.js';

type Cmd = 'up' | 'down' | 'open' | 'search' | 'quit' | 'cancel' | 'help';
const BINDINGS: KeyBinding<Cmd>[] = [
  { command: 'up', keys: ['up', 'k'], description: 'Move up', hint: 'up', when: 'browse' },
  { command: 'down', keys: ['down', 'j'], description: 'Move down', hint: 'down', when: 'browse' },
  { command: 'open', keys: ['return'], description: 'Open the selected session', hint: 'open' },
  { command: 'search', keys: ['/'], description: 'Search', hint: 'search', when: 'browse' },
  { command: 'cancel', keys: ['escape'], description: 'Leave search', hint: 'back', when: 'search' },
  { command: 'quit', keys: ['q', 'ctrl+c'], description: 'Quit', hint: 'quit' },
  { command: 'help', keys: ['?'], description: 'Show this help', hint: 'help' },
];

const rows = (frame: string): string[] => frame.split('\n');

describe('KeyHints', () => {
  it('renders the hints of the mode on one line', async () => {
    const app = renderInk(<KeyHints bindings={BINDINGS} mode="browse" width={80} />);
    expect(await app.waitFor('help')).toBe('↑ up  ↓ down  Enter open  / search  q quit  ? help');
  });

  it('fits narrow widths without wrapping', async () => {
    const app = renderInk(<KeyHints bindings={BINDINGS} mode="search" width={20} />, { columns: 20 });
    const frame = await app.waitFor('Enter');
    expect(rows(frame)).toHaveLength(1);
    expect(frame).toBe('Enter open  Esc back');
  });
});

describe('StatusLine', () => {
  it.each([
    ['error', '✗ could not read file'],
    ['info', '· 12 sessions'],
    ['success', '✓ could not read file'],
    ['warning', '! could not read file'],
  ] as const)('prefixes %s messages with a symbol', async (kind, expected) => {
    const text = kind === 'info' ? '12 sessions' : 'could not read file';
    const app = renderInk(<StatusLine message={{ kind, text }} width={40} />);
    expect(await app.waitFor(expected)).toBe(expected);
  });

  it('is one sanitized, truncated line', async () => {
    const app = renderInk(
      <StatusLine message={{ kind: 'error', text: 'bad\nname\u001b[2J in a long message' }} width={20} />,
      { columns: 40 },
    );
    const frame = await app.waitFor('✗');
    expect(frame).toBe('✗ bad ⏎ name␛[2J in…');
  });

  it('keeps its row when empty', async () => {
    const app = renderInk(
      <Box flexDirection="column">
        <StatusLine width={20} />
        <Text>below</Text>
      </Box>,
    );
    expect(rows(await app.waitFor('below'))).toEqual(['', 'below']);
  });

  it('colours errors red when colour is on', async () => {
    // ink colours through chalk, whose level was fixed at import from FORCE_COLOR=0 (test/setup.ts).
    const { default: chalk } = await import('chalk');
    chalk.level = 1;
    try {
      const app = renderInk(<StatusLine message={{ kind: 'error', text: 'x' }} width={10} />);
      await app.waitFor('✗ x');
      expect(app.stdout.output()).toContain('\u001b[31m✗ x');
    } finally {
      chalk.level = 0;
    }
  });
});

describe('layoutTextInput', () => {
  const at = (value: string, cursor: number): TextInputState => ({ value, cursor });
  it.each([
    ['fits, cursor at end', at('abc', 3), 10, { before: 'abc', cursor: ' ', after: '' }],
    ['fits, cursor in middle', at('abc', 1), 10, { before: 'a', cursor: 'b', after: 'c' }],
    ['scrolls to keep the cursor visible', at('abcdefghij', 10), 5, { before: 'ghij', cursor: ' ', after: '' }],
    ['cursor at start of a long value', at('abcdefghij', 0), 5, { before: '', cursor: 'a', after: 'bcde' }],
    ['surrogate pair under the cursor', at('a😀b', 1), 10, { before: 'a', cursor: '😀', after: 'b' }],
    ['wide chars split at the left edge', at('日本語テ', 8), 4, { before: ' テ', cursor: ' ', after: '' }],
    ['zero width', at('abc', 1), 0, { before: '', cursor: '', after: '' }],
  ])('%s', (_label, state, width, expected) => {
    const layout = layoutTextInput(state, width);
    expect(layout).toEqual(expected);
    expect(displayWidth(layout.before + layout.cursor + layout.after)).toBeLessThanOrEqual(width);
  });
});

describe('TextInputView', () => {
  it('renders prompt, value and cursor', async () => {
    const app = renderInk(<TextInputView state={initialTextInput('hello', false)} prompt="/ " width={20} />);
    expect(await app.waitFor('hello')).toBe('/ hello');
  });

  it('renders the cursor cell inverse', async () => {
    const { default: chalk } = await import('chalk');
    chalk.level = 1;
    try {
      const app = renderInk(<TextInputView state={{ value: 'abc', cursor: 1 }} width={20} />);
      await app.waitFor('abc');
      expect(app.stdout.output()).toContain('a\u001b[7mb\u001b[27mc');
    } finally {
      chalk.level = 0;
    }
  });

  it('scrolls long values horizontally within the width', async () => {
    const value = 'the quick brown fox jumps over the lazy dog';
    const app = renderInk(<TextInputView state={initialTextInput(value)} prompt="> " width={12} />, { columns: 30 });
    const frame = await app.waitFor('dog');
    // 10 text columns: the last 9 characters, then the cursor cell (a trailing space, trimmed by ink).
    expect(frame).toBe('>  lazy dog');
  });

  it('shows a placeholder when empty', async () => {
    const app = renderInk(
      <TextInputView state={initialTextInput('')} prompt="/ " placeholder="type to search" width={30} />,
    );
    expect(await app.waitFor('type to search')).toBe('/  type to search');
  });

  it('truncates without a cursor when inactive', async () => {
    const app = renderInk(<TextInputView state={initialTextInput('abcdefghijkl')} width={6} showCursor={false} />);
    expect(await app.waitFor('abc')).toBe('abcde…');
  });
});

describe('HelpOverlay', () => {
  it('builds lines grouped by mode', () => {
    const lines = helpLines(BINDINGS, { browse: 'Session list' }, [], 80);
    expect(lines.filter((l) => l.kind === 'section').map((l) => (l.kind === 'section' ? l.text : ''))).toEqual([
      'Everywhere',
      'Session list',
      'search',
    ]);
  });

  it('renders every row on one line within the size', async () => {
    const app = renderInk(
      <HelpOverlay bindings={BINDINGS} width={40} height={20} modeTitles={{ browse: 'Browse', search: 'Search' }} />,
      {
        columns: 40,
        rows: 21,
      },
    );
    const frame = await app.waitFor('Esc / ? close');
    const lines = rows(frame);
    expect(lines).toHaveLength(20);
    expect(lines[0]).toBe('Keyboard shortcuts');
    expect(lines[1]).toBe('Everywhere');
    expect(lines[2]).toBe('  Enter       Open the selected session');
    expect(lines[3]).toBe('  q / Ctrl+C  Quit');
    expect(frame).toContain('  ↑ / k       Move up');
    expect(frame).toContain('Search');
    expect(lines.at(-1)).toBe('Esc / ? close');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });

  it('says which lines it shows of how many, and scrolls with offset', async () => {
    const app = renderInk(<HelpOverlay bindings={BINDINGS} width={40} height={6} />, { columns: 40, rows: 7 });
    const frame = await app.waitFor('of 12');
    // 12 lines of content, 4 body rows: 3 shown + the position line.
    expect(rows(frame)).toEqual([
      'Keyboard shortcuts',
      'Everywhere',
      '  Enter       Open the selected session',
      '  q / Ctrl+C  Quit',
      '1–3 of 12 · ↑↓ PgUp PgDn scroll',
      'Esc / ? close',
    ]);
    app.rerender(<HelpOverlay bindings={BINDINGS} width={40} height={6} offset={100} />);
    const end = await app.waitFor('10–12 of 12');
    expect(rows(end)).toHaveLength(6);
    expect(end).toContain('Leave search');
  });
});

function Size() {
  const { columns, rows: r } = useTerminalSize();
  return <Text>{`${columns}x${r}`}</Text>;
}

describe('useTerminalSize', () => {
  it('falls back to 80x24 when the stream has no size', async () => {
    const app = renderInk(<Size />, { columns: 0, rows: 0 });
    await app.waitFor('80x24');
  });
});

describe('HelpOverlay narrow', () => {
  it('wraps long descriptions at words under their column', async () => {
    const app = renderInk(<HelpOverlay bindings={BINDINGS} width={30} height={20} />, { columns: 30, rows: 21 });
    const frame = await app.waitFor('close');
    expect(rows(frame)[2]).toBe('  Enter       Open the');
    expect(rows(frame)[3]).toBe('              selected session');
    for (const line of rows(frame)) expect(displayWidth(line)).toBeLessThanOrEqual(30);
  });
});
