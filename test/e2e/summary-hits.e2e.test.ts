/**
 * The picker's full-text search finds what a branch summary says, end to end in a real
 * pseudo-terminal over the pi-written corpus: the session is listed with the summary as its
 * snippet, and opening the tree on the hit puts the cursor on the branch summary entry.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/corpus.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp } from './harness.js';

/** The row under the cursor (`›` in the first column). */
function cursorRow(pty: PtySession): string {
  return (
    pty
      .screen()
      .split('\n')
      .find((line) => line.startsWith('›')) ?? ''
  );
}

describe('summary hits in a real terminal', { timeout: E2E_TEST_MS }, () => {
  // → opens the tree on the row's hit (Enter resumes the session in pi).
  for (const oneWrite of [false, true]) {
    it(`"webhook retries" lists the session whose branch summary says it; → lands on that entry (${oneWrite ? 'typed in one write' : 'keys one at a time'})`, async () => {
      const home = makeHome();
      cpSync(join(FIXTURES, 'pi-written', 'sessions'), home.sessionsRoot, { recursive: true });
      const pty = startApp(home, ['--all'], { cols: 140, rows: 36 });
      await pty.waitForText(/ · all/);
      if (oneWrite) pty.write('webhook retries');
      else await pty.press(...'webhook retries'.split(''));
      await pty.waitForScreen(
        (s) => s.includes('> webhook retries') && /1\/\d+ · all/.test(s) && s.includes('webhook retries via queue'),
        'the one session listed, the summary as its snippet',
      );
      expect(pty.screen()).not.toContain('No sessions match');
      await pty.press(PTY_KEYS.right);
      await pty.waitForText('Search: webhook retries');
      await pty.waitForScreen(
        () => cursorRow(pty).includes('[branch summary]: Abandoned: webhook retries via queue.'),
        'the cursor on the branch summary entry',
      );
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText('> webhook retries');
      await pty.press(PTY_KEYS.escape, PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
      expectRestored(pty);
    });
  }
});
