/**
 * The labels view (Ctrl+L in the picker) in a real pty at 80 and 120 columns: labels from two
 * years share one fixed-width date column, so every label starts in one column; a fork made by pi
 * 1.6.0 (`createBranchedSession`, what /fork runs) carries a copy of its parent's label, marked ⑂
 * and said to be "in fork of" the parent, so the two rows can be told apart.
 */
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { piModule } from '../helpers/pi.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp, waitForFrame, writeSession } from './harness.js';

const CTRL_L = '\u000c';

describe('labels view columns', () => {
  for (const cols of [80, 120])
    it(
      `at ${cols} columns: one date column across years, the labels aligned, a fork's copy marked`,
      async () => {
        const home = makeHome();
        const old = new SessionBuilder({ cwd: home.cwd, startMs: Date.UTC(2025, 11, 27, 9, 6) });
        old.user('ok, now also handle the edge cases of the parser');
        const works = old.assistant('done');
        old.label(works, 'works');
        const parentPath = writeSession(old, home.projectDir, '2025-12-27T09-06-00-000Z_old.jsonl', 5);
        const recent = new SessionBuilder({ cwd: home.cwd, startMs: Date.UTC(2026, 1, 5, 16, 48) });
        const prompt = recent.user('the first milestone');
        recent.label(prompt, 'milestone-1');
        writeSession(recent, home.projectDir, '2026-02-05T16-48-00-000Z_recent.jsonl', 4);
        const { SessionManager } = await piModule();
        expect(SessionManager.open(parentPath, home.projectDir, home.cwd).createBranchedSession(works)).toBeTruthy();

        const pty = startApp(home, [], { cols, rows: 24 });
        await pty.waitForText(/pi sessions \d\/3 · this folder/);
        await pty.press(CTRL_L);
        const screen = await waitForFrame(
          pty,
          (s) => /Labels · 3 labels/.test(s) && s.includes('[milestone-1]') && s.includes('⑂'),
          'every label',
        );
        const lines = screen.split('\n');
        const rows = lines.filter((l) => /\[(works|milestone-1)\]/.test(l));
        expect(rows).toHaveLength(3);
        for (const row of rows) expect(row).toMatch(/^[› ] \d{4}-\d\d-\d\d \d\d:\d\d \[/);
        expect(new Set(rows.map((r) => r.indexOf('['))).size).toBe(1);
        const copies = rows.filter((r) => r.includes('[works]') && r.includes('⑂ in fork'));
        expect(copies).toHaveLength(1);
        expect(rows.filter((r) => r.includes('[works]') && !r.includes('⑂'))).toHaveLength(1);
        // Down to the copy (newest first: milestone-1, then the two works rows in file-time order).
        const copyAt = rows.indexOf(copies[0]!);
        for (let i = 0; i < copyAt; i++) await pty.press(PTY_KEYS.down);
        await pty.waitForText('⑂ copied in fork of ok, now also');
        await pty.press(PTY_KEYS.escape);
        await pty.waitForText(/pi sessions \d\/3 · this folder/);
        await pty.press(PTY_KEYS.escape);
        expect(await pty.waitForExit()).toBe(0);
        expectRestored(pty);
      },
      E2E_TEST_MS,
    );
});
