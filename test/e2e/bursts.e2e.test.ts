/**
 * Keys that arrive in one read (a held key, a fast typist, a slow link) mean exactly what the same
 * keys typed one by one mean. Every scenario runs twice, each time in a fresh app on its
 * own copy of the same store: once with the burst written to the pty in ONE write, once a key per
 * write; both must reach the expected screen, and the two screens must be identical. Stores are
 * hand-made (bursts-store.ts), and what was written is checked with the real pi 1.6.0
 * SessionManager. Here the picker and bracketed paste; the tree in bursts-tree.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { BS, CTRL, expectSame, MARK, makeStore, typeText, waitForSearchable } from './bursts-store.js';
import { E2E_TEST_MS, expectRestored, startAppThenStty, sttyFlags } from './harness.js';

const { enter, escape: esc, right, tab } = PTY_KEYS;

describe('bursts in the picker', { timeout: E2E_TEST_MS }, () => {
  it('three Backspaces in one read delete three characters of the search', async () => {
    await expectSame({
      before: (pty) => typeText(pty, 'parser'),
      keys: [BS, BS, BS],
      done: (s) => s.includes('> par') && !s.includes('> pars') && s.includes('parser cache invalidation'),
      what: 'the search reads "par"',
    });
  });

  it('"abc→" searches, then → (at the end of the search) opens the best match\'s tree', async () => {
    await expectSame({
      keys: ['a', 'b', 'c', right],
      done: (s) => s.includes('Session Tree') && s.includes('user: abc search target'),
      what: 'the tree of "abc search target" is open',
    });
  });

  it('"Draft\\x12" searches, then Ctrl+R renames the match', async () => {
    await expectSame({
      keys: [...'Draft', CTRL.r],
      done: (s) => s.includes('Rename “Draft release notes”') && s.includes('Name: Draft release notes'),
      what: 'the rename prompt of "Draft release notes" is open',
    });
  });

  it('40 Backspaces in one read empty the rename prompt; the new name is what pi reads', async () => {
    await expectSame({
      before: async (pty) => {
        await typeText(pty, 'Draft');
        await pty.waitForText(/1\/4 · this folder/);
        await pty.press(CTRL.r);
        await pty.waitForText('Name: Draft release notes');
      },
      keys: Array.from({ length: 40 }, () => BS),
      done: (s) => s.includes('Name:  (no name)'),
      what: 'the rename prompt is empty',
      after: async (pty, store) => {
        await typeText(pty, 'E2E renamed session');
        await pty.press(enter);
        // The renamed row no longer matches "Draft": the list empties once the name is saved.
        await pty.waitForText('✓ Renamed');
        const loaded = readSessionSync(store.draft);
        if (!loaded.ok) throw new Error(loaded.message);
        expect(buildTree(loaded).sessionName).toBe('E2E renamed session');
        expect((await openWithPi(store.draft)).manager.getSessionName()).toBe('E2E renamed session');
      },
    });
  });

  it('Tab Tab, Ctrl+S Ctrl+S and Insert (mark) ×3 each act as many times as pressed', async () => {
    await expectSame({
      keys: [tab, tab],
      done: (s) => /4\/4 · all projects/.test(s),
      what: 'the scope is all projects',
    });
    await expectSame({
      keys: [CTRL.s, CTRL.s],
      done: (s) => s.includes('sort: relevance'),
      what: 'the sort is relevance',
    });
    await expectSame({
      keys: [MARK, MARK, MARK],
      done: (s) => s.includes('● 3 marked'),
      what: 'three sessions are marked',
    });
  });

  it('a burst in the help: ? opens it, q closes it, x is typed into the search', async () => {
    // "x" is found in message text: both runs are compared once that text is indexed (the header
    // says "text indexed n/N" until then), or one may be caught before it and one after.
    await expectSame({
      keys: ['?', 'q', 'x'],
      done: (s) => s.includes('> x') && !s.includes('pi-sessions · keys') && !s.includes('text indexed'),
      what: 'help closed and "x" searched',
    });
  });

  it('Ctrl+C Ctrl+C and Esc Esc quit as they do one by one, and the terminal is restored', async () => {
    for (const [keys, code] of [
      [[CTRL.c, CTRL.c], 130],
      [[esc, esc], 0],
    ] as const) {
      for (const burst of [true, false]) {
        const store = makeStore();
        // Under a shell that stays open after the app: the app's last output (leaving the
        // alternate screen) cannot be lost when its process exits, and stty shows the modes.
        const pty = startAppThenStty(store.home, [], { cols: 100, rows: 30 });
        await waitForSearchable(pty);
        await typeText(pty, 'parse');
        await pty.waitForText(/1\/4 · this folder/);
        if (burst) pty.write(keys.join(''));
        else await pty.press(...keys);
        // Esc Esc: the first clears the search, the second quits.
        const after = await pty.waitForText('stty-done');
        expect(after).toContain(`cli-exit=${code}`);
        if (burst) {
          // Keys of one read are all the app's: none reaches the shell as a signal.
          expect(after).not.toContain('sh-saw-sigint');
          expectRestored(pty, sttyFlags(after));
        } else {
          // Typed one by one, a second Ctrl+C may come after the app has given the terminal back,
          // and interrupt the shell's stty: only the screen and cursor are checked then.
          expectRestored(pty, code === 130 ? undefined : sttyFlags(after));
        }
      }
    }
  });
});

describe('bracketed paste', { timeout: E2E_TEST_MS }, () => {
  it('a paste with Enter, Ctrl+C and an arrow in it is text in the search and never a command', async () => {
    const store = makeStore();
    const pty = startAppThenStty(store.home, [], { cols: 100, rows: 30 });
    await waitForSearchable(pty);
    expect(pty.rawOutput()).toContain('\u001b[?2004h');
    // Split across two writes, inside the end marker.
    pty.write('\u001b[200~abc\rsearch\u0003\u001b[B tar');
    pty.write('get\u001b[20');
    pty.write('1~');
    // Cleaned as typed text is: CR becomes a space, control characters (ESC, ^C) are dropped.
    await pty.waitForText('> abc search[B target');
    expect(pty.screen()).toMatch(/0\/4 · this folder/);
    expect(pty.screen()).not.toContain('Session Tree');
    expect(pty.exitCode()).toBeUndefined();
    await pty.press(esc, esc);
    const after = await pty.waitForText('stty-done');
    expect(after).toContain('cli-exit=0');
    expect(pty.rawOutput()).toContain('\u001b[?2004l');
    expectRestored(pty, sttyFlags(after));
  });
});
