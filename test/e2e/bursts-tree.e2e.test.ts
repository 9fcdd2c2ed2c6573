/**
 * Keys that arrive in one read mean in the tree exactly what the same keys typed one by one mean:
 * each scenario runs twice on the same store, the burst in one write and a key per write, and
 * both screens must be identical (bursts-store.ts). What was written is checked with the real
 * pi 1.6.0 SessionManager.
 */
import { describe, expect, it } from 'vitest';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { BS, CTRL_T, expectSame, LIST_READY, typeText } from './bursts-store.js';
import { E2E_TEST_MS } from './harness.js';

const { down, enter, escape: esc, right } = PTY_KEYS;

/** The row under the cursor in the tree (`›` in the first column). */
function cursorRow(screen: string): string {
  return screen.split('\n').find((line) => line.startsWith('›')) ?? '';
}

describe('bursts in the tree', { timeout: E2E_TEST_MS }, () => {
  // The parser session is the newest: the first row (Home: the probe search may have left the
  // cursor elsewhere). Opened from a full-text hit the tree would start on that hit with its
  // search typed in; these bursts start from the plain tree.
  const toParserRow = async (pty: PtySession): Promise<void> => {
    await pty.waitForText(LIST_READY);
    await pty.press(PTY_KEYS.ctrlHome);
    await pty.waitForScreen(
      (s) => cursorRow(s).includes('parser cache invalidation'),
      'the cursor is on the parser session',
    );
  };
  const openTree = async (pty: PtySession): Promise<void> => {
    await toParserRow(pty);
    await pty.press(right);
    await pty.waitForText('Type to search');
  };

  it('ten Backspaces in one read delete ten characters of the tree search', async () => {
    await expectSame({
      before: async (pty) => {
        await openTree(pty);
        await typeText(pty, 'parser cache');
        await pty.waitForText('Search: parser cache');
      },
      keys: Array.from({ length: 10 }, () => BS),
      done: (s) => s.includes('Search: pa') && !s.includes('Search: par'),
      what: 'the tree search reads "pa"',
    });
  });

  it('a burst through the menu: Enter, ↓↓↓, Enter opens the label prompt', async () => {
    await expectSame({
      before: openTree,
      keys: [enter, down, down, down, enter],
      done: (s) => s.includes('Label (empty to remove):'),
      what: 'the label prompt is open',
    });
  });

  it('40 Backspaces in one read empty the label prompt; the new label is what pi reads', async () => {
    await expectSame({
      before: async (pty) => {
        await openTree(pty);
        await pty.press('L');
        await pty.waitForText('Label (empty to remove):');
        await typeText(pty, 'first label');
        await pty.press(enter);
        // Both the write's acknowledgement (the status) and its read-back (the row; the prompt is
        // pre-filled from it), in whichever order they come: the file watcher may show the row
        // before the write returns, and a status that lands after the next L covers the prompt's hints.
        await pty.waitForScreen(
          (s) => s.includes('◆ [first label] assistant') && s.includes('✓ Labeled [first label]'),
          'the first label is written and shown',
        );
        await pty.press('L');
        await pty.waitForText('Label (empty to remove): first label');
      },
      keys: Array.from({ length: 40 }, () => BS),
      done: (s) => /Label \(empty to remove\): *$/m.test(s),
      what: 'the label prompt is empty',
      after: async (pty, store) => {
        const row = cursorRow(pty.screen());
        await typeText(pty, 'second');
        await pty.press(enter);
        await pty.waitForText('Labeled [second]');
        const loaded = readSessionSync(store.parser);
        if (!loaded.ok) throw new Error(loaded.message);
        const labels = [...buildTree(loaded).labels.values()];
        expect(labels).toEqual(['second']);
        const pi = await openWithPi(store.parser);
        expect(
          pi.manager
            .getEntries()
            .map((e) => pi.manager.getLabel(e.id))
            .filter((l) => l !== undefined),
        ).toEqual(['second']);
        expect(row).not.toBe('');
      },
    });
  });

  it('a burst in the help: ? opens it, q closes it, x starts a search', async () => {
    await expectSame({
      before: openTree,
      keys: ['?', 'q', 'x'],
      done: (s) => s.includes('Search: x'),
      what: 'help closed and "x" searched',
    });
  });

  it('Ctrl+T ×3 toggles the filter three times', async () => {
    await expectSame({
      before: openTree,
      keys: [CTRL_T, CTRL_T, CTRL_T],
      done: (s) => s.includes('[no-tools]'),
      what: 'the no-tools filter is on',
    });
  });

  it('Esc Esc with a search: the first clears it, the second goes back to the list', async () => {
    await expectSame({
      before: async (pty) => {
        await openTree(pty);
        await typeText(pty, 'cache');
        await pty.waitForText('Search: cache');
      },
      keys: [esc, esc],
      done: (s) => LIST_READY.test(s) && !s.includes('Session Tree'),
      what: 'back on the session list',
    });
  });

  it('→ then keys in the same read: the keys reach the tree', async () => {
    await expectSame({
      before: toParserRow,
      keys: [right, 'x', 'y'],
      done: (s) => s.includes('Session Tree') && s.includes('Search: xy'),
      what: 'the tree is open with the search "xy"',
    });
  });
});
