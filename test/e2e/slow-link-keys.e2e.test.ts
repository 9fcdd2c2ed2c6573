/**
 * Keys over a slow link: an arrow key whose bytes arrive apart (`ESC [` and then `B` 30 or 80 ms
 * later, as over ssh or on a loaded machine) is still the arrow, never Alt+[ and a typed "B"; and
 * an Esc alone still acts at once (within the lone-ESC wait, src/keymap/tokenize.ts).
 */
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import type { PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

const TITLES = ['newest session here', 'middle session here', 'oldest session here'];

function store(): TestHome {
  const home = makeHome();
  TITLES.forEach((title, i) => {
    const b = new SessionBuilder({ id: `0000000${i}-0000-7000-8000-000000000000`, cwd: home.cwd });
    b.user(title);
    b.assistant('ok');
    writeSession(b, home.projectDir, `2026-01-0${3 - i}T00-00-00-000Z_s${i}.jsonl`, i + 1);
  });
  return home;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The title on the selected row (the one marked `›`). */
function selected(screen: string): string | undefined {
  return TITLES.find((title) => screen.split('\n').some((line) => line.startsWith('›') && line.includes(title)));
}

async function picker(): Promise<PtySession> {
  const pty = startApp(store(), [], { cols: 100, rows: 16 });
  await waitForFrame(pty, (s) => selected(s) === TITLES[0], 'the first row selected');
  return pty;
}

describe('an arrow key cut in two by a slow link is still the arrow', () => {
  for (const [cut, gap] of [
    ['ESC [ | B', 30],
    ['ESC [ | B', 80],
    ['ESC | [B', 30],
  ] as const) {
    it(
      `${cut}, ${gap} ms apart, moves the cursor down and types nothing`,
      async () => {
        const pty = await picker();
        const [first, second] = cut === 'ESC | [B' ? ['\u001b', '[B'] : ['\u001b[', 'B'];
        for (const expected of [TITLES[1], TITLES[2]]) {
          pty.write(first);
          await sleep(gap);
          pty.write(second);
          await waitForFrame(pty, (s) => selected(s) === expected, `${expected} selected`);
        }
        // Nothing was typed into the search, and the app is still running (no Esc quit it).
        expect(pty.screen()).not.toMatch(/^> .*B/m);
        expect(pty.screen()).toMatch(/pi sessions 3\/3/);
        expect(pty.exitCode()).toBeUndefined();
        pty.write('\u0003');
        expect(await pty.waitForExit()).toBe(130);
      },
      E2E_TEST_MS,
    );
  }
});

describe('an Esc alone still acts at once', () => {
  it(
    'clears the search within the lone-ESC wait (plus a frame), and then quits',
    async () => {
      const pty = await picker();
      pty.write('middle');
      await waitForFrame(pty, (s) => /pi sessions 1\/3/.test(s), 'the search typed');
      const started = performance.now();
      pty.write('\u001b');
      await waitForFrame(pty, (s) => /pi sessions 3\/3/.test(s), 'the search cleared by Esc');
      const ms = performance.now() - started;
      console.log(`Esc cleared the search after ${Math.round(ms)} ms`);
      // 50 ms of wait; a second is far beyond it even on a loaded machine, and far below "it never acted".
      expect(ms).toBeLessThan(1000);
      pty.write('\u001b');
      expect(await pty.waitForExit()).toBe(0);
    },
    E2E_TEST_MS,
  );
});
