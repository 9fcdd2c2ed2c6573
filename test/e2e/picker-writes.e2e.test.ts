/**
 * The session picker's writes, end to end in a real pseudo-terminal: an inline rename, the
 * rename and delete prompts cancelled, a delete to the trash under a temporary XDG_DATA_HOME and
 * its undo, and a cleanup of every match of a query. Files are checked afterwards with the store
 * and with the real pi 1.6.0 SessionManager. The store: picker-store.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored, trashedPaths } from './harness.js';
import { CTRL, MARK_ALL, pickerStore, startPicker, typeText } from './picker-store.js';

describe('picker in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('renames inline: the row updates at once, and the store and pi read the new name', async () => {
    const store = pickerStore();
    const pty = await startPicker(store);
    await typeText(pty, 'zebra');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “Zebra crossing plan”');
    // Pre-filled with the current name.
    expect(pty.screen()).toContain('Name: Zebra crossing plan');
    await pty.press(CTRL.u);
    await typeText(pty, 'Zebra plan, renamed');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('✓ Renamed');
    await pty.waitForText('★ Zebra plan, renamed');

    const loaded = readSessionSync(store.named);
    if (!loaded.ok) throw new Error(loaded.message);
    expect(buildTree(loaded).sessionName).toBe('Zebra plan, renamed');
    const pi = await openWithPi(store.named);
    expect(pi.changedOnOpen).toBe(false);
    expect(pi.manager.getSessionName()).toBe('Zebra plan, renamed');

    // Esc cancels a rename without writing.
    const before = readFileSync(store.named);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “Zebra plan, renamed”');
    await typeText(pty, ' never saved');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((text) => !text.includes('Rename “'), 'the rename dialog is closed');
    expect(readFileSync(store.named).equals(before)).toBe(true);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it("Ctrl+C cancels the rename and the delete prompts (pi's escape / ctrl+c cancel), one key at a time and in one write; from the list it quits", async () => {
    const store = pickerStore();
    const before = readFileSync(store.keeper);
    const pty = await startPicker(store);
    await typeText(pty, 'keep this');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “keep this migration work”');
    await typeText(pty, 'xyz');
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForScreen((text) => !text.includes('Rename “'), 'the rename prompt is closed');
    await pty.press(CTRL.d);
    await pty.waitForText('Delete this session?');
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForText('Delete cancelled');
    // The prompt opened and cancelled by one write, as a fast typist's keys arrive together.
    pty.write(`${CTRL.r}abc${PTY_KEYS.ctrlC}${CTRL.d}${PTY_KEYS.ctrlC}`);
    await pty.waitForScreen(
      (text) => !text.includes('Rename “') && !text.includes('Delete this session?') && /Delete cancelled/.test(text),
      'both prompts opened and cancelled',
    );
    // Still running, back in the list: the next Ctrl+R opens a rename again.
    await pty.press(CTRL.r);
    await pty.waitForText('Rename “keep this migration work”');
    expect(pty.screen()).not.toContain('abc');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((text) => !text.includes('Rename “'), 'the rename prompt is closed');
    expect(readFileSync(store.keeper).equals(before)).toBe(true);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectRestored(pty);
  });

  it('deletes to the trash under XDG_DATA_HOME and undo restores the same bytes', async () => {
    const store = pickerStore();
    const target = store.obsolete[0]!;
    const bytes = readFileSync(target);
    const pty = await startPicker(store);
    // A phrase: a plain `one` would also abbreviate "obsolete experiment two" (pi's subsequence tier).
    await typeText(pty, '"experiment one"');
    await pty.waitForText(/1\/5 · this folder/);
    await pty.press(CTRL.d);
    await pty.waitForText('Delete this session?');
    const prompt = pty.screen();
    expect(prompt).toContain('“obsolete experiment one”');
    expect(prompt).toContain('moved to the trash');
    // Esc keeps it.
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText('Delete cancelled');
    expect(existsSync(target)).toBe(true);

    await pty.press(CTRL.d);
    await pty.waitForText('Delete this session?');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Moved 1 session to the trash');
    expect(existsSync(target)).toBe(false);
    expect(trashedPaths(store.home)).toEqual([target]);

    await pty.press(CTRL.z);
    await pty.waitForText('Undid the delete of ');
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(trashedPaths(store.home)).toEqual([]);
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText(/5\/5 · this folder/);
    expect(pty.screen()).toContain('obsolete experiment one');
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
  });

  it('cleans up: marks every match of a query, deletes them in one step after a summary, undoes the batch', async () => {
    const store = pickerStore();
    const pty = await startPicker(store);
    await typeText(pty, 'obsolete');
    await pty.waitForText(/3\/5 · this folder/);
    await pty.press(MARK_ALL);
    await pty.waitForText('Marked 3 shown sessions');
    expect(pty.screen().match(/^.● /gm)).toHaveLength(3);
    await pty.press(CTRL.d);
    await pty.waitForText('Delete 3 marked sessions?');
    expect(pty.screen()).toMatch(/3 sessions · [\d.]+ KB · oldest \d{4}-\d\d-\d\d.* · newest \d{4}-\d\d-\d\d/);
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('Moved 3 sessions to the trash');
    for (const path of store.obsolete) expect(existsSync(path)).toBe(false);
    expect(existsSync(store.keeper)).toBe(true);
    expect(existsSync(store.named)).toBe(true);
    expect(trashedPaths(store.home)).toEqual([...store.obsolete].sort());

    await pty.press(CTRL.z);
    await pty.waitForText('Undid the delete of 3 sessions');
    for (const path of store.obsolete) expect(existsSync(path)).toBe(true);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });
});
