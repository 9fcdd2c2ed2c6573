/**
 * A query can never freeze the picker: `re:(a+)+$` (exponential on a backtracking engine) against
 * a session whose prompt is 100,000 `a`s, typed a key at a time and in one write, then Ctrl+C:
 * the app quits with 130 at once and the terminal is restored (`stty` in the same pty). A pattern
 * RE2 cannot run gets its reason in the query line.
 */
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS } from '../helpers/pty.js';
import {
  E2E_TEST_MS,
  expectRestored,
  makeHome,
  startApp,
  startAppThenStty,
  sttyFlags,
  type TestHome,
  waitForFrame,
  writeSession,
} from './harness.js';

const REDOS = 're:(a+)+$';

/** The 100,000-`a` prompt (with a reply after it that ends in `.`, so `(a+)+$` cannot match) and a plain session. */
function store(): TestHome {
  const home = makeHome();
  const long = new SessionBuilder({ id: '0000000a-0000-7000-8000-000000000000', cwd: home.cwd });
  long.user('a'.repeat(100_000));
  long.assistant('that is many letters.');
  writeSession(long, home.projectDir, '2026-01-02T00-00-00-000Z_long.jsonl', 2);
  const plain = new SessionBuilder({ id: '0000000b-0000-7000-8000-000000000000', cwd: home.cwd });
  plain.user('where is the parser cache');
  plain.assistant('in src/cache.ts');
  writeSession(plain, home.projectDir, '2026-01-03T00-00-00-000Z_plain.jsonl', 1);
  return home;
}

describe('a regex query cannot freeze the picker', () => {
  for (const how of ['a key at a time', 'in one write'] as const) {
    it(
      `${REDOS} over a 100,000-character prompt, typed ${how}, then Ctrl+C: exit 130 at once, terminal restored`,
      async () => {
        const home = store();
        const pty = startAppThenStty(home, [], { cols: 100, rows: 20 });
        await pty.waitForText('where is the parser cache');
        if (how === 'a key at a time') await pty.press(...REDOS);
        else pty.write(REDOS);
        // The search answers (RE2: no match anywhere), and keys still work.
        await waitForFrame(pty, (s) => s.includes(`> ${REDOS}`) && s.includes('No sessions match'), 'the search done');
        pty.write(PTY_KEYS.ctrlC);
        const screen = await pty.waitForText('stty-done', 10_000);
        expect(screen).toContain('cli-exit=130');
        expectRestored(pty, sttyFlags(screen));
      },
      E2E_TEST_MS,
    );
  }

  it(
    'Ctrl+C in the same write as the query, while it is being searched, still quits at once',
    async () => {
      const home = store();
      const pty = startAppThenStty(home, [], { cols: 100, rows: 20 });
      await pty.waitForText('where is the parser cache');
      pty.write(`${REDOS}${PTY_KEYS.ctrlC}`);
      const screen = await pty.waitForText('stty-done', 10_000);
      expect(screen).toContain('cli-exit=130');
      expectRestored(pty, sttyFlags(screen));
    },
    E2E_TEST_MS,
  );

  it(
    'a regex finds what it should, and one RE2 cannot run says why in the query line',
    async () => {
      const home = store();
      const pty = startApp(home, [], { cols: 120, rows: 20 });
      await pty.waitForText('where is the parser cache');
      pty.write('re:pars\\w+ c[a-z]{4}');
      await waitForFrame(pty, (s) => s.includes('1/2') && s.includes('parser cache'), 'the regex hit');
      pty.write('\u0015re:(?<=(a))b');
      await waitForFrame(
        pty,
        (s) =>
          s.includes('✗ re: lookbehind is not supported') &&
          s.includes('Invalid search: re: lookbehind is not supported with a capture group inside (use (?:…) there)'),
        'the reason in the query line',
      );
      pty.write('\u0015re:x(?=y)');
      await waitForFrame(pty, (s) => s.includes('✗ re: lookahead is not supported (RE2 syntax)'), 'lookahead refused');
      // A hit 100,000 characters long: its row is drawn (the snippet once built a RegExp of it and overflowed).
      pty.write('\u0015re:a+');
      await waitForFrame(pty, (s) => s.includes('pi sessions 2/2') && s.includes('parser cache'), 'both sessions');
      expect(pty.screen()).not.toMatch(/overflow|Error/);
      pty.write(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
    },
    E2E_TEST_MS,
  );
});
