/**
 * Verifies what ink 6.8 actually delivers for raw terminal sequences, end to end through ink's
 * stdin parsing, and that keyNameFromInk maps it to the documented canonical names.
 */
import { describe, expect, it } from 'vitest';
import { Text, useInput } from 'ink';
import { keyNameFromInk, keyNamesFromInk } from '../../src/keymap/keymap.js';
import { alt, ctrl, KEYS, renderInk } from '../helpers/ink.js';

function Recorder({ names, batches }: { names: (string | undefined)[]; batches: string[][] }) {
  useInput((input, key) => {
    names.push(keyNameFromInk(input, key));
    batches.push(keyNamesFromInk(input, key));
  });
  return <Text>ready</Text>;
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
  ['LF / Ctrl+J', '\n', 'return'],
  ['Alt+Enter', '\u001b\r', 'meta+return'],
  ['Escape (lone, flushed after a tick)', KEYS.escape, 'escape'],
  ['Tab', KEYS.tab, 'tab'],
  ['Shift+Tab', KEYS.shiftTab, 'shift+tab'],
  ['Backspace 0x7f', KEYS.backspace, 'backspace'],
  ['Ctrl+Backspace / Ctrl+H 0x08', '\b', 'backspace'],
  ['Forward Delete ESC[3~', KEYS.delete, 'backspace'],
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
  ['Alt+. loses meta on ink 6', alt('.'), '.'],
  ['?', '?', '?'],
  ['Emoji', '😀', '😀'],
  ['Kitty Ctrl+Shift+O', '\u001b[111;6u', 'ctrl+shift+o'],
  ['F1', '\u001bOP', undefined],
  ['F5', '\u001b[15~', undefined],
  ['Insert', '\u001b[2~', undefined],
];

describe('ink 6.8 raw sequence → keyNameFromInk', () => {
  it.each(CASES)('%s', async (_label, sequence, expected) => {
    const names: (string | undefined)[] = [];
    const app = renderInk(<Recorder names={names} batches={[]} />);
    await app.waitFor('ready');
    await app.write(sequence);
    expect(names).toEqual([expected]);
  });

  it('splits escape sequences in one read into separate events', async () => {
    const names: (string | undefined)[] = [];
    const app = renderInk(<Recorder names={names} batches={[]} />);
    await app.waitFor('ready');
    await app.write(KEYS.down + KEYS.down + KEYS.pageUp);
    expect(names).toEqual(['down', 'down', 'pageup']);
  });

  it('delivers a run of plain characters as one event; keyNamesFromInk splits it', async () => {
    const names: (string | undefined)[] = [];
    const batches: string[][] = [];
    const app = renderInk(<Recorder names={names} batches={batches} />);
    await app.waitFor('ready');
    await app.write('jjk');
    expect(names).toEqual([undefined]);
    expect(batches).toEqual([['j', 'j', 'k']]);
  });
});
