/**
 * The kitty keyboard protocol in a real pty, as pi uses it: the app pushes the disambiguate mode
 * onto the terminal's stack when it starts (so chords such as Shift+Ctrl+O reach it), takes keys
 * the way a terminal speaking the protocol sends them (one at a time and several in one write),
 * and pops the mode again on the way out, so the shell, or pi, gets its own mode back.
 */
import { describe, expect, it } from 'vitest';
import { POP_KITTY_KEYBOARD, PUSH_KITTY_KEYBOARD } from '../../src/terminal/screen.js';
import { SessionBuilder } from '../helpers/factory.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp, writeSession } from './harness.js';

/** What a kitty-protocol terminal sends in disambiguate mode. */
const KITTY = {
  shiftCtrlO: '\u001b[111;6u',
  escape: '\u001b[27u',
  ctrlC: '\u001b[99;5u',
  ctrlK: '\u001b[107;5u',
} as const;

describe('the kitty keyboard protocol', { timeout: E2E_TEST_MS }, () => {
  it('is pushed at start, its Shift+Ctrl+O and Esc work in the tree, and it is popped at exit', async () => {
    const home = makeHome();
    const b = new SessionBuilder();
    b.user('first question');
    b.assistant('first answer');
    b.user('second question');
    b.assistant('last answer');
    const path = writeSession(b, home.projectDir, 'linear.jsonl');
    const pty = startApp(home, ['tree', path], { cols: 80, rows: 30 });
    await pty.waitForText('◆ assistant: last answer');
    expect(pty.rawOutput()).toContain(PUSH_KITTY_KEYBOARD);
    // Shift+Ctrl+O cycles the filter backward (pi's order): default → all.
    await pty.press(KITTY.shiftCtrlO);
    await pty.waitForText('[all]');
    // Two in one write: all → labeled → user.
    pty.write(KITTY.shiftCtrlO + KITTY.shiftCtrlO);
    await pty.waitForText('[user]');
    // Esc as the protocol sends it: no lone-ESC wait, back out of the tree at once.
    await pty.press(KITTY.escape);
    expect(await pty.waitForExit()).toBe(0);
    const out = pty.rawOutput();
    expect(out.lastIndexOf(POP_KITTY_KEYBOARD)).toBeGreaterThan(out.lastIndexOf(PUSH_KITTY_KEYBOARD));
    expectRestored(pty);
  });

  it('in the picker a protocol-encoded Ctrl+C quits with 130, and the mode is popped', async () => {
    const home = makeHome();
    const b = new SessionBuilder({ cwd: home.cwd });
    b.user('a session to look at');
    b.assistant('fine');
    writeSession(b, home.projectDir, '2026-01-02T00-00-00-000Z_a.jsonl');
    const pty = startApp(home, [], { cols: 80, rows: 24 });
    await pty.waitForText('a session to look at');
    // Ctrl+K (pi: delete to the end of the line) then Ctrl+C, in one write.
    pty.write(`ab${KITTY.ctrlK}${KITTY.ctrlC}`);
    expect(await pty.waitForExit()).toBe(130);
    const out = pty.rawOutput();
    expect(out.lastIndexOf(POP_KITTY_KEYBOARD)).toBeGreaterThan(out.lastIndexOf(PUSH_KITTY_KEYBOARD));
    expectRestored(pty);
  });
});
