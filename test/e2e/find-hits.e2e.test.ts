/**
 * Branch-aware search end to end, in a real pseudo-terminal: a hit on a branch pi
 * is not on is tagged abandoned in the picker's row, `in:abandoned` keeps only such sessions,
 * opening the tree on the hit lands on that entry with the search pre-filled, and the way back
 * restores the picker's query, sort and cursor.
 */
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp, writeSession } from './harness.js';

const CTRL_S = '\u0013';

/** The row under the cursor (`›` in the first column). */
function cursorRow(pty: PtySession): string {
  return (
    pty
      .screen()
      .split('\n')
      .find((line) => line.startsWith('›')) ?? ''
  );
}

describe('branch-aware hits in a real terminal', { timeout: E2E_TEST_MS }, () => {
  it('tags an abandoned hit, opens the tree on its entry, and Esc restores the picker', async () => {
    const home = makeHome();
    // The newest session mentions the word on the path pi resumes…
    const plain = new SessionBuilder({
      id: '019b0000-aaaa-7000-8000-000000000001',
      cwd: home.cwd,
      startMs: Date.UTC(2026, 0, 9),
    });
    plain.user('Plain session about a zebra crossing');
    plain.assistant('The zebra crossing is fine.');
    writeSession(plain, home.projectDir, '2026-01-09T00-00-00-000Z_plain.jsonl', 2);
    // …the older one only on a branch pi left.
    const branched = new SessionBuilder({
      id: '019b0000-bbbb-7000-8000-000000000002',
      cwd: home.cwd,
      startMs: Date.UTC(2026, 0, 5),
    });
    branched.user('Branched session: plan the road');
    const fork = branched.assistant('Two ways to go.');
    branched.user('What about a zebra stripe layout?');
    branched.assistant('Stripes would confuse drivers.');
    branched.branchFrom(fork);
    branched.user('Use traffic lights instead');
    branched.assistant('Lights it is.');
    writeSession(branched, home.projectDir, '2026-01-05T00-00-00-000Z_branched.jsonl', 6);

    const pty = startApp(home, [], { cols: 120, rows: 30 });
    await pty.waitForText(/2\/2 · this folder/);
    await pty.press(CTRL_S);
    await pty.waitForText(/sort: recent/);
    await pty.press(...'zebra'.split(''));
    await pty.waitForText(/2\/2 · this folder/);
    // Each row says where its hits are; the branched session's only hit is abandoned.
    await pty.waitForScreen(
      (s) =>
        /Plain session.* · 2 active: .*zebra crossing/.test(s) &&
        /Branched session.* · 1 abandoned: .*zebra stripe/.test(s),
      'rows tagged by place',
    );

    // in:abandoned keeps only the session with such a hit.
    await pty.press(...' in:abandoned'.split(''));
    await pty.waitForText(/1\/2 · this folder/);
    expect(pty.screen()).not.toContain('Plain session');
    for (let i = 0; i < ' in:abandoned'.length; i++) await pty.press(PTY_KEYS.backspace);
    await pty.waitForText(/2\/2 · this folder/);

    // Open the tree (→) on the second row's hit: the search is pre-filled, the cursor on the entry.
    await pty.press(PTY_KEYS.down);
    await pty.waitForScreen(() => cursorRow(pty).includes('Branched session'), 'the cursor is on the branched session');
    await pty.press(PTY_KEYS.right);
    await pty.waitForText(/Search: zebra/);
    await pty.waitForScreen(
      () => cursorRow(pty).includes('user: What about a zebra stripe layout?'),
      'the cursor is on the abandoned entry',
    );
    expect(pty.screen()).toMatch(/1\/1 match/);

    // One Esc returns to the picker as it was: the pre-filled search is the hit's, not the user's.
    await pty.press(PTY_KEYS.escape);
    await pty.waitForText(/2\/2 · this folder/);
    expect(pty.screen()).toMatch(/> zebra/);
    expect(pty.screen()).toMatch(/sort: recent/);
    await pty.waitForScreen(
      () => cursorRow(pty).includes('Branched session'),
      'the cursor is back on the branched session',
    );
    await pty.press(PTY_KEYS.escape, PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
  });
  it('a query of several words opens the tree searching for them all (keys one at a time and in one write)', async () => {
    const home = makeHome();
    const b = new SessionBuilder({ id: '019b0000-cccc-7000-8000-000000000003', cwd: home.cwd });
    b.user('The inventory needs a cache');
    b.assistant('Which part of it?');
    b.user('Split the inventory service from the orders');
    b.assistant('Done: the inventory service is its own module.');
    writeSession(b, home.projectDir, '2026-01-07T00-00-00-000Z_inventory.jsonl', 2);
    for (const oneWrite of [false, true]) {
      const pty = startApp(home, [], { cols: 100, rows: 24 });
      await pty.waitForText(/1\/1 · this folder/);
      if (oneWrite) pty.write('inventory service');
      else await pty.press(...'inventory service'.split(''));
      await pty.waitForScreen(
        (s) => s.includes('> inventory service') && /1\/1 · this folder/.test(s),
        'the search typed',
      );
      await pty.press(PTY_KEYS.right);
      // Both words, as typed, where one entry holds them; the cursor on the first such entry.
      await pty.waitForText('Search: inventory service');
      await pty.waitForScreen(
        () => cursorRow(pty).includes('Split the inventory service'),
        'the cursor on the entry with both',
      );
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText('> inventory service');
      await pty.press(PTY_KEYS.escape, PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
      expectRestored(pty);
    }
  });
});
