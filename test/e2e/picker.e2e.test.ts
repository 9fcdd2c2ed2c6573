/**
 * The session picker, end to end: the built CLI in a real pseudo-terminal (node-pty) whose output
 * is parsed by a headless xterm, so every assertion is about what a person would see. Here what
 * it shows: search, sort, scope and preview, a resize, and --print. Its writes (rename, delete,
 * undo) are in picker-writes.e2e.test.ts, Ctrl+C in every state in picker-ctrl-c.e2e.test.ts, the
 * store they share in picker-store.ts.
 */
import { describe, expect, it } from 'vitest';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored } from './harness.js';
import { CTRL, pickerStore, startPicker, typeText } from './picker-store.js';

describe('picker in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('starts on this folder; search narrows the list; sort, scope and preview change the view', async () => {
    const store = pickerStore();
    const pty = await startPicker(store);
    expect(pty.isAlternateScreen()).toBe(true);
    expect(pty.cursorHidden()).toBe(true);
    // The whole first frame: ink may write it in more than one chunk.
    const titles = [
      'Zebra crossing plan',
      'obsolete experiment one',
      'obsolete experiment three',
      'keep this migration work',
    ];
    const first = await pty.waitForScreen(
      (s) => titles.every((title) => s.includes(title)),
      'every row of this folder',
    );
    expect(first).not.toContain('nested folder session');

    await typeText(pty, 'obsolete');
    await pty.waitForText(/3\/5 · this folder/);
    const screen = pty.screen();
    expect(screen).toContain('obsolete experiment two');
    expect(screen).not.toContain('keep this migration work');
    expect(screen).not.toContain('Zebra crossing plan');
    // A token that matches nothing: a distinct empty state, not a blank screen.
    await typeText(pty, ' qqqzzz');
    await pty.waitForText(/0\/5 · this folder/);
    // Esc clears the whole query first (it does not quit).
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText(/5\/5 · this folder/);

    await pty.press(CTRL.s);
    await pty.waitForText('sort: recent');
    await pty.press(CTRL.s);
    await pty.waitForText('sort: relevance');

    await pty.press(PTY_KEYS.tab);
    await pty.waitForText(/6\/6 · this folder and sub-folders/);
    expect(pty.screen()).toContain('nested folder session');
    await pty.press(PTY_KEYS.tab);
    await pty.waitForText(/18\/18 · all projects/);
    await pty.press(PTY_KEYS.shiftTab, PTY_KEYS.shiftTab);
    await pty.waitForText(/5\/5 · this folder/);

    // Preview follows the cursor: the selected session's id and absolute dates.
    await pty.press(PTY_KEYS.ctrlHome, CTRL.o);
    const firstId = /Id\s+(e+[0-9a-f]+)-/.exec(await pty.waitForText(/Id\s+e+[0-9a-f]+-/))?.[1];
    await pty.press(PTY_KEYS.down);
    await pty.waitForScreen(
      (text) => /Id\s+e+[0-9a-f]+-/.test(text) && !text.includes(`${firstId}-`),
      'the preview shows the next session',
    );
    expect(pty.screen()).toMatch(/Modified\s+\d{4}-\d\d-\d\d/);
    await pty.press(CTRL.o);
    await pty.waitForScreen((text) => !/Id\s+e+[0-9a-f]+-/.test(text), 'the preview is closed');

    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });

  it('re-lays out at 40×12 and back', async () => {
    const store = pickerStore();
    const pty = await startPicker(store, [], { cols: 110, rows: 30 });
    pty.resize(40, 12);
    // Narrow: the header drops its "pi sessions" prefix, rows are truncated with an ellipsis.
    // Wait for the whole frame (header to footer): ink may write it in more than one chunk.
    const narrow = await pty.waitForScreen(
      (s) => /^5\/5 · this folder/m.test(s) && /Enter resume/.test(s),
      'the narrow frame with its footer',
    );
    const lines = narrow.split('\n');
    expect(lines.length).toBeLessThanOrEqual(12);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(narrow).toContain('…');
    expect(narrow).toMatch(/→ tree {2}Enter resume/);
    pty.resize(110, 30);
    const wide = await pty.waitForText(/pi sessions 5\/5 · this folder/);
    expect(wide).toContain('keep this migration work');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });

  it('--print: Enter prints the chosen path and exits 0; Esc exits 1', async () => {
    const store = pickerStore();
    const pty = await startPicker(store, ['--print']);
    await typeText(pty, 'keep this');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
    // The path is printed on the main screen, after the alternate screen is left.
    const raw = pty.rawOutput();
    const afterLeave = raw.slice(raw.lastIndexOf('\u001b[?1049l'));
    expect(afterLeave).toContain(`${store.keeper}\r\n`);

    const esc = await startPicker(store, ['--print']);
    await esc.press(PTY_KEYS.escape);
    expect(await esc.waitForExit()).toBe(1);
    expectRestored(esc);
  });
});
