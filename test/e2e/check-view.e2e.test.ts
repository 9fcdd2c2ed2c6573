/**
 * The check view in a real pty: Ctrl+K in the picker audits this folder, lists a
 * broken file of the hostile corpus with what pi does and what to do, opens the tree of a file pi
 * can read, refuses one it cannot, and Esc goes back the way it came.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { smallCases } from '../hostile/corpus.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp, writeSession } from './harness.js';

/** Alt+C opens the check view (Ctrl+K is pi's kill-to-end in the search). */
const CTRL_K = '\u001bc';

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
      expect(view).toMatch(/› .+ · 2 problems *\n *\/.*_glued-lines\.jsonl/);
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

  for (const cols of [80, 120])
    it(
      `at ${cols} columns: errors first, each file by its title and a path cut in the middle, advice wrapped whole`,
      async () => {
        const home = makeHome();
        // A warning only (its project folder is gone), and the largest file: still after the error.
        const warned = new SessionBuilder({ cwd: `${home.root}/gone` });
        warned.user('refactor the ingestion step of the data pipeline so it streams');
        warned.assistant('x'.repeat(6000));
        writeSession(warned, home.projectDir, '2026-01-05T09-00-00-000Z_aaaa-warned.jsonl');
        // An error: pi refuses a file that starts with a byte-order mark.
        const bom = new SessionBuilder({ cwd: home.cwd });
        bom.user('the session pi refuses to open');
        writeFileSync(`${home.projectDir}/2026-01-06T09-00-00-000Z_bbbb-bom.jsonl`, `\ufeff${bom.text()}`);
        const pty = startApp(home, [], { cols, rows: 40 });
        await pty.waitForText(/pi sessions \d\/2 · this folder/);
        await pty.press(CTRL_K);
        const view = await pty.waitForText('2 problems in 2 of 2 files');
        const lines = view.split('\n').map((l) => l.trimEnd());
        const bomAt = lines.findIndex((l) => l.includes('the session pi refuses to open · 1 problem'));
        const warnedAt = lines.findIndex((l) =>
          l.includes('refactor the ingestion step of the data pipeline so it streams · 1 problem'),
        );
        expect(bomAt).toBeGreaterThan(0);
        expect(warnedAt).toBeGreaterThan(bomAt);
        expect(lines[bomAt]).toMatch(/^› /);
        // The path under each title keeps the file name whole (cut in the middle when too long).
        expect(lines[bomAt + 1]).toMatch(/^ {4}\/.*\/2026-01-06T09-00-00-000Z_bbbb-bom\.jsonl$/);
        expect(lines[warnedAt + 1]).toMatch(/^ {4}\/.*\/2026-01-05T09-00-00-000Z_aaaa-warned\.jsonl$/);
        if (cols === 80) expect(lines[warnedAt + 1]).toContain('…/');
        // Every line of the advice is on screen: wrapped under its label, not cut at the edge.
        const fixAt = lines.findIndex((l, i) => i > warnedAt && l.includes('what to do: '));
        const advice = lines
          .slice(fixAt)
          .slice(0, 3)
          .filter((l, i) => i === 0 || /^ {18}\S/.test(l))
          .map((l) => l.trim())
          .join(' ');
        expect(advice).toBe('what to do: restore the folder, or delete the session if the project is gone');
        expect(lines.every((l) => !l.endsWith('…') || l.includes('/'))).toBe(true);
        // Down and Enter in one write open the warned session's tree (pi can read it).
        pty.write(PTY_KEYS.down + PTY_KEYS.enter);
        await pty.waitForText('Session Tree');
        await pty.press(PTY_KEYS.escape);
        await pty.waitForText('2 problems in 2 of 2 files');
        await pty.press(PTY_KEYS.escape, PTY_KEYS.escape);
        expect(await pty.waitForExit()).toBe(0);
        expectRestored(pty);
      },
      E2E_TEST_MS,
    );
});
