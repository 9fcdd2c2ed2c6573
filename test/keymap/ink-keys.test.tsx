/**
 * The keyboard path end to end through ink's real stdin path (the fake terminal): raw sequences
 * → ink's input events → the router's tokenizer → the screen's handler, with the documented
 * canonical names, in order, whatever a read holds.
 */
import { Text } from 'ink';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { InputRouter, useKeys } from '../../components/common/input-router.js';
import type { Keypress } from '../../src/keymap/tokenize.js';
import { alt, ctrl, KEYS, renderInk } from '../helpers/ink.js';

function label(k: Keypress): string {
  return k.paste ? `paste:${k.text}` : (k.name ?? `text:${k.text}`);
}

function Recorder({ seen, take }: { seen: string[]; take?: (keys: readonly Keypress[]) => number }) {
  useKeys((keys) => {
    const n = take ? take(keys) : keys.length;
    for (const k of keys.slice(0, n)) seen.push(label(k));
    return n;
  });
  return <Text>ready</Text>;
}

async function waitForCount(seen: string[], count: number): Promise<void> {
  const until = Date.now() + 2000;
  while (seen.length < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
}

const CASES: [string, string, string | undefined][] = [
  ['Up', KEYS.up, 'up'],
  ['Down (SS3 application mode)', '\u001bOB', 'down'],
  ['PageUp', KEYS.pageUp, 'pageup'],
  ['PageDown', KEYS.pageDown, 'pagedown'],
  ['Home ESC[H', KEYS.home, 'home'],
  ['Home ESC[1~', '\u001b[1~', 'home'],
  ['Home ESC OH', '\u001bOH', 'home'],
  ['End ESC[F', KEYS.end, 'end'],
  ['End ESC[4~', '\u001b[4~', 'end'],
  ['Ctrl+Home', '\u001b[1;5H', 'ctrl+home'],
  ['Ctrl+PageDown', '\u001b[6;5~', 'ctrl+pagedown'],
  ['Enter', KEYS.enter, 'return'],
  ['LF / Ctrl+J', '\n', 'ctrl+j'],
  ['Alt+Enter', '\u001b\r', 'meta+return'],
  ['Escape (lone, after the timeout)', KEYS.escape, 'escape'],
  ['Tab', KEYS.tab, 'tab'],
  ['Shift+Tab', KEYS.shiftTab, 'shift+tab'],
  ['Backspace 0x7f', KEYS.backspace, 'backspace'],
  ['Ctrl+Backspace / Ctrl+H 0x08', '\b', 'backspace'],
  ['Forward Delete ESC[3~', KEYS.delete, 'delete'],
  ['Alt+Backspace', '\u001b\u007f', 'meta+backspace'],
  ['Space', ' ', 'space'],
  ['Ctrl+Space (NUL)', '\u0000', 'ctrl+space'],
  ['Ctrl+R', ctrl('r'), 'ctrl+r'],
  ['Ctrl+C (exitOnCtrlC off)', KEYS.ctrlC, 'ctrl+c'],
  ['Ctrl+Alt+R', alt(ctrl('r')), 'ctrl+meta+r'],
  ['Ctrl+Left', KEYS.ctrlLeft, 'ctrl+left'],
  ['Ctrl+Right', KEYS.ctrlRight, 'ctrl+right'],
  ['Ctrl+Left (rxvt ESC Od)', '\u001bOd', 'ctrl+left'],
  ['Ctrl+Shift+Left', '\u001b[1;6D', 'ctrl+shift+left'],
  ['Alt+Left', KEYS.altLeft, 'meta+left'],
  ['Alt+Left (ESC ESC[D)', '\u001b\u001b[D', 'meta+left'],
  ['Shift+Up', KEYS.shiftUp, 'shift+up'],
  ['Shift+letter', 'L', 'L'],
  ['Alt+b', alt('b'), 'meta+b'],
  ['Alt+Shift+B', alt('B'), 'meta+B'],
  ['Alt+.', alt('.'), 'meta+.'],
  ['?', '?', '?'],
  ['Emoji', '😀', '😀'],
  ['Kitty Ctrl+Shift+O', '\u001b[111;6u', 'ctrl+shift+o'],
  ['F1', '\u001bOP', 'f1'],
  ['F5', '\u001b[15~', 'f5'],
  ['Insert', '\u001b[2~', 'insert'],
];

describe('raw sequence → router → canonical key name', () => {
  it.each(CASES)('%s', async (_label, sequence, expected) => {
    const seen: string[] = [];
    const app = renderInk(
      <InputRouter>
        <Recorder seen={seen} />
      </InputRouter>,
    );
    await app.waitFor('ready');
    await app.write(sequence);
    await waitForCount(seen, 1);
    await app.settle();
    expect(seen).toEqual([expected]);
  });

  it('delivers every key of one read, in order, text runs whole', async () => {
    const seen: string[] = [];
    const app = renderInk(
      <InputRouter>
        <Recorder seen={seen} />
      </InputRouter>,
    );
    await app.waitFor('ready');
    await app.write(`${KEYS.down}${KEYS.down}jjk\u007f\u007f\r\u0014\u0014\u001b\u001b`);
    await waitForCount(seen, 9);
    expect(seen).toEqual([
      'down',
      'down',
      'text:jjk',
      'backspace',
      'backspace',
      'return',
      'ctrl+t',
      'ctrl+t',
      'escape',
      'escape',
    ]);
  });

  it('Esc then a key in separate reads is Esc + key; a sequence split across reads is one key', async () => {
    const seen: string[] = [];
    const app = renderInk(
      <InputRouter>
        <Recorder seen={seen} />
      </InputRouter>,
    );
    await app.waitFor('ready');
    await app.press(KEYS.escape, 'j', '\u001b', '[B');
    await waitForCount(seen, 3);
    await app.settle();
    expect(seen).toEqual(['escape', 'j', 'down']);
  });

  it('a bracketed paste is one text key, even split across reads', async () => {
    const seen: string[] = [];
    const app = renderInk(
      <InputRouter>
        <Recorder seen={seen} />
      </InputRouter>,
    );
    await app.waitFor('ready');
    await app.press('\u001b[200~a\r', 'b\u0003\u001b[2', '01~\r');
    await waitForCount(seen, 2);
    expect(seen).toEqual(['paste:a\rb\u0003', 'return']);
  });

  it('a paste whose end marker never comes ends after a second of silence; Ctrl+C then works', async () => {
    const seen: string[] = [];
    const app = renderInk(
      <InputRouter>
        <Recorder seen={seen} />
      </InputRouter>,
    );
    await app.waitFor('ready');
    await app.write('\u001b[200~lost end');
    await waitForCount(seen, 1);
    await app.write(KEYS.ctrlC);
    await waitForCount(seen, 2);
    expect(seen).toEqual(['paste:lost end', 'ctrl+c']);
  });

  it('keys a screen does not take wait for the next screen, in order', async () => {
    const first: string[] = [];
    const second: string[] = [];
    let swap: () => void = () => undefined;
    // biome-ignore lint/correctness/noComponentHookFactories: defined once per test, not per render, so React keeps its state; it closes over this test's first/second recorders and swap
    function Screens() {
      const [which, setWhich] = useState<'first' | 'second'>('first');
      swap = () => setWhich('second');
      // The first screen takes keys up to and including Enter, then leaves.
      const take = (keys: readonly Keypress[]): number => {
        if (first.includes('return')) return 0;
        const at = keys.findIndex((k) => k.name === 'return');
        if (at >= 0) queueMicrotask(swap);
        return at >= 0 ? at + 1 : keys.length;
      };
      return which === 'first' ? (
        <Recorder key="first" seen={first} take={take} />
      ) : (
        <Recorder key="second" seen={second} />
      );
    }
    const app = renderInk(
      <InputRouter>
        <Screens />
      </InputRouter>,
    );
    await app.waitFor('ready');
    await app.write(`ab\r${KEYS.down}x`);
    await waitForCount(second, 2);
    expect(first).toEqual(['text:ab', 'return']);
    expect(second).toEqual(['down', 'x']);
  });
});
