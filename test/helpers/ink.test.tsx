import { Box, Text, useApp, useInput } from 'ink';
import { useReducer, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useTerminalSize } from '../../components/common/use-terminal-size.js';
import { alt, ctrl, FakeStdout, KEYS, renderInk, stripAnsi } from './ink.js';

type Action = { type: 'move'; delta: number } | { type: 'key'; name: string };
interface State {
  index: number;
  log: string[];
}
function reducer(state: State, action: Action): State {
  if (action.type === 'move') return { ...state, index: Math.max(0, Math.min(9, state.index + action.delta)) };
  return { ...state, log: [...state.log, action.name] };
}

/** A list driven by a reducer: one dispatch per keypress, so keys in one read all count. */
function List() {
  const [state, dispatch] = useReducer(reducer, { index: 0, log: [] });
  const { exit } = useApp();
  useInput((input, key) => {
    if (key.downArrow) dispatch({ type: 'move', delta: 1 });
    else if (key.upArrow) dispatch({ type: 'move', delta: -1 });
    else if (key.escape) dispatch({ type: 'key', name: 'esc' });
    else if (key.ctrl && input === 'r') dispatch({ type: 'key', name: 'ctrl+r' });
    else if (key.meta && input === 'x') dispatch({ type: 'key', name: 'alt+x' });
    else if (input === 'q') exit('bye');
    else dispatch({ type: 'key', name: JSON.stringify(input) });
  });
  return (
    <Box flexDirection="column">
      <Text>index {state.index}</Text>
      <Text>log {state.log.join(',')}</Text>
    </Box>
  );
}

function SizeView() {
  const { columns, rows } = useTerminalSize();
  return (
    <Text>
      size {columns}x{rows}
    </Text>
  );
}

function Counter() {
  const [n, setN] = useState(0);
  useInput((input) => {
    if (input === '+') setN((v) => v + 1);
  });
  return <Text>n={n}</Text>;
}

describe('renderInk', () => {
  it('renders the first frame', async () => {
    const app = renderInk(<Text>hello harness</Text>, { columns: 40, rows: 5 });
    expect(await app.waitFor('hello harness')).toBe('hello harness');
    expect(app.frames.length).toBeGreaterThan(0);
  });

  it('receives separate key presses', async () => {
    const app = renderInk(<List />);
    await app.waitFor('index 0');
    await app.press(KEYS.down, KEYS.down, KEYS.down, KEYS.up);
    await app.waitFor('index 2');
  });

  it('moves twice for two Down keys in ONE read (reducer, no stale closure)', async () => {
    const app = renderInk(<List />);
    await app.waitFor('index 0');
    await app.write(KEYS.down + KEYS.down);
    expect(await app.waitFor('index 2')).toContain('index 2');
  });

  it('delivers a lone ESC after a tick, plus ctrl and alt keys', async () => {
    const app = renderInk(<List />);
    await app.waitFor('index 0');
    await app.press(KEYS.escape, ctrl('r'), alt('x'));
    await app.waitFor('log esc,ctrl+r,alt+x');
  });

  it('types one character per read and writes pastes as one chunk', async () => {
    const app = renderInk(<List />);
    await app.waitFor('index 0');
    await app.type('ab');
    await app.waitFor('log "a","b"');
    await app.write('xyz');
    await app.waitFor('log "a","b","xyz"');
  });

  it('resizes: useTerminalSize re-renders from the stdout resize event', async () => {
    const app = renderInk(<SizeView />, { columns: 50, rows: 10 });
    await app.waitFor('size 50x10');
    app.resize(100, 30);
    await app.waitFor('size 100x30');
    app.resize(30, 8);
    await app.waitFor('size 30x8');
  });

  it('lays out to the fake terminal width', async () => {
    const app = renderInk(
      <Box width="100%" justifyContent="flex-end">
        <Text>right</Text>
      </Box>,
      { columns: 20, rows: 5 },
    );
    expect(await app.waitFor('right')).toBe(`${' '.repeat(15)}right`);
  });

  it('times out with the last frame in the message', async () => {
    const app = renderInk(<Text>actual content</Text>);
    await app.waitFor('actual content');
    await expect(app.waitFor('never shown', 50)).rejects.toThrow(/never shown[\s\S]*Last frame[\s\S]*actual content/);
  });

  it('supports predicates and regexps', async () => {
    const app = renderInk(<List />);
    await app.waitFor(/index \d/);
    await app.press(KEYS.down);
    await app.waitFor(function movedOnce(frame) {
      return frame.startsWith('index 1');
    });
  });

  it('settle() lets pending work finish so "nothing changed" can be asserted', async () => {
    const app = renderInk(<Counter />);
    await app.waitFor('n=0');
    await app.press('-');
    await app.settle();
    expect(app.lastFrame()).toBe('n=0');
    await app.press('+');
    await app.settle();
    expect(app.lastFrame()).toBe('n=1');
  });

  it('resolves waitUntilExit with the exit value', async () => {
    const app = renderInk(<List />);
    await app.waitFor('index 0');
    const exited = app.waitUntilExit();
    await app.press('q');
    await expect(exited).resolves.toBe('bye');
  });

  it('rerenders with new props', async () => {
    const app = renderInk(<Text>one</Text>);
    await app.waitFor('one');
    app.rerender(<Text>two</Text>);
    await app.waitFor('two');
  });
});

describe('FakeStdout', () => {
  it('ignores bare newlines and pure control writes, strips ANSI from frames', () => {
    const out = new FakeStdout(10, 5);
    out.write('\n');
    out.write('\u001b[?25l');
    out.write('\u001b[2K\u001b[1A\u001b[G\u001b[31mred\u001b[39m\n');
    out.write('\u001b]0;title\u0007x');
    expect(out.frames).toEqual(['red', 'x']);
    expect(out.lastFrame()).toBe('x');
    expect(out.output()).toContain('\u001b[?25l');
  });

  it('stripAnsi removes CSI, OSC and two-byte escapes', () => {
    expect(stripAnsi('\u001b[1;31ma\u001b]8;;http://x\u001b\\b\u001b7c\u001b8')).toBe('abc');
  });
});

describe('KEYS', () => {
  it('builds control characters', () => {
    expect(ctrl('r')).toBe('\u0012');
    expect(ctrl('A')).toBe('\u0001');
    expect(() => ctrl('1')).toThrow();
    expect(alt('b')).toBe('\u001bb');
  });
});
