/**
 * Ctrl+C in the session picker, in a real pseudo-terminal under a shell that runs stty after it:
 * from every screen and prompt the terminal comes back as it was (main screen, cursor, echo and
 * canonical mode). The store: picker-store.ts.
 */
import { describe, expect, it } from 'vitest';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored, startAppThenStty, sttyFlags } from './harness.js';
import { CTRL, pickerStore } from './picker-store.js';

describe('Ctrl+C restores the terminal wherever it is pressed', { timeout: E2E_TEST_MS }, () => {
  // Each step's keys are pressed once the previous step's screen is shown. In a dialog, prompt or
  // menu (`closes`: its text) the first Ctrl+C cancels it, as pi's do, and the next one quits.
  const states: { name: string; steps: { keys: string[]; shows: string | RegExp }[]; closes?: string | RegExp }[] = [
    { name: 'the list', steps: [] },
    { name: 'a search', steps: [{ keys: ['o', 'b', 's'], shows: /3\/5 · this folder/ }] },
    { name: 'the preview', steps: [{ keys: [CTRL.o], shows: /Id\s+e+[0-9a-f]+-/ }] },
    { name: 'the rename dialog', steps: [{ keys: [CTRL.r], shows: 'Rename “' }], closes: 'Rename “' },
    {
      name: 'the delete prompt',
      steps: [{ keys: [CTRL.d], shows: 'Delete this session?' }],
      closes: 'Delete this session?',
    },
    { name: 'the key help', steps: [{ keys: ['?'], shows: 'pi-sessions · keys' }], closes: 'pi-sessions · keys' },
    { name: 'the tree view', steps: [{ keys: [PTY_KEYS.right], shows: '◆ assistant: Answer about keep' }] },
    {
      name: 'the tree action menu',
      steps: [
        { keys: [PTY_KEYS.right], shows: '◆ assistant: Answer about keep' },
        { keys: [PTY_KEYS.enter], shows: 'Resume from here' },
      ],
      closes: 'Resume from here',
    },
    {
      name: 'the tree label input',
      steps: [
        { keys: [PTY_KEYS.right], shows: '◆ assistant: Answer about keep' },
        { keys: ['L'], shows: /Label/ },
      ],
      closes: 'Label (empty to remove)',
    },
  ];
  for (const state of states) {
    it(`in ${state.name}: main screen, cursor shown, echo and canonical mode back on`, async () => {
      const store = pickerStore();
      const pty = startAppThenStty(store.home, [], { cols: 110, rows: 40 });
      await pty.waitForText(/pi sessions 5\/5 · this folder/);
      await pty.waitForText('keep this migration work');
      for (const step of state.steps) {
        await pty.press(...step.keys);
        await pty.waitForText(step.shows);
      }
      if (state.closes !== undefined) {
        const closes = state.closes;
        await pty.press(PTY_KEYS.ctrlC);
        await pty.waitForScreen(
          (text) => (typeof closes === 'string' ? !text.includes(closes) : !closes.test(text)),
          `${state.name} cancelled by Ctrl+C`,
        );
        expect(pty.exitCode()).toBeUndefined();
      }
      await pty.press(PTY_KEYS.ctrlC);
      const after = await pty.waitForText('stty-done');
      expect(after).toMatch(/cli-exit=130\b/);
      expect(after).not.toContain('sh-saw-sigint');
      expectRestored(pty, sttyFlags(after));
      expect(after).not.toMatch(/\n\s+at /);
    });
  }
});
