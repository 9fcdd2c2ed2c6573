/**
 * The check view in a real pty: Ctrl+K in the picker audits this folder, lists a
 * broken file of the hostile corpus with what pi does and what to do, opens the tree of a file pi
 * can read, refuses one it cannot, and Esc goes back the way it came.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PTY_KEYS } from '../helpers/pty.js';
import { smallCases } from '../hostile/corpus.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp } from './harness.js';

const CTRL_K = '\u000b';

describe('check view', () => {
  it(
    'lists the hostile files with their problems; Enter opens a readable one’s tree; Esc back, twice',
    async () => {
      const home = makeHome();
      const cases = smallCases();
      for (const name of ['glued-lines', 'not-json-at-all'])
        writeFileSync(join(home.projectDir, `2026-01-05T09-00-00-000Z_${name}.jsonl`), cases[name]!);
      const pty = startApp(home, [], { cols: 200, rows: 40 });
      await pty.waitForText(/pi sessions 1\/1 · this folder/);
      await pty.press(CTRL_K);
      const view = await pty.waitForText('problems in 2 of 2 files');
      expect(view).toMatch(/› .*_glued-lines\.jsonl · 2 problems/);
      expect(view).toContain('line 3: error: 2 entries glued on one line');
      expect(view).toContain('pi 1.6.0 cannot parse the line and skips every entry on it');
      expect(view).toContain('what to do: fork the session with pi-sessions');
      expect(view).toMatch(/_not-json-at-all\.jsonl · 1 problem/);
      expect(view).toContain('pi 1.6.0 refuses to open it');
      expect(view).toMatch(/Enter open tree/);

      await pty.press(PTY_KEYS.enter);
      await pty.waitForText('Session Tree');
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText('problems in 2 of 2 files');
      await pty.press(PTY_KEYS.down, PTY_KEYS.enter);
      await pty.waitForText('pi cannot read this file as a session');
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText(/pi sessions 1\/1 · this folder/);
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
      expectRestored(pty);
    },
    E2E_TEST_MS,
  );
});
