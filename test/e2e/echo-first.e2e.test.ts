/**
 * On a list big enough for its search to cost a frame, a typed character reaches the terminal
 * before the search for it runs (the header counts "…" while the rows are the query before's),
 * and the results follow: typed a key at a time or in one write, the screen ends on exactly the
 * typed query's results, and Enter in the same write as the text acts on its best match. Once the
 * screen has timed a search as cheap, later keys search in their own frame.
 */
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import type { PtySession } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

/** Sessions in this folder: past the size from which a typed key is echoed first (src/picker/state.ts ECHO_FIRST). */
const COUNT = 80;
const TARGET = 'tune the flux capacitor';

/** `COUNT` sessions in this folder; the last is the only one whose text says "flux". */
function store(root?: string): { home: TestHome; target: string } {
  const home = makeHome(root);
  let target = '';
  for (let i = 0; i < COUNT; i++) {
    const flux = i === COUNT - 1;
    const b = new SessionBuilder({ id: `${String(i).padStart(8, '0')}-0000-7000-8000-000000000000`, cwd: home.cwd });
    b.user(flux ? TARGET : `routine task ${i}`);
    b.assistant(flux ? 'the flux is fine' : 'done');
    const day = String(1 + Math.floor(i / 24)).padStart(2, '0');
    const hour = String(23 - (i % 24)).padStart(2, '0');
    const file = writeSession(b, home.projectDir, `2026-01-${day}T${hour}-00-00-000Z_s${i}.jsonl`, i + 1);
    if (flux) target = file;
  }
  return { home, target };
}

const READY = new RegExp(`pi sessions ${COUNT}/${COUNT} · this folder`);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function picker(home: TestHome, args: string[] = []): Promise<PtySession> {
  const pty = startApp(home, args, { cols: 100, rows: 30 });
  await waitForFrame(pty, (s) => READY.test(s) && s.includes('routine task'), 'the list');
  // The screen at rest: the typed key's frame is not held back behind a frame just written.
  await sleep(200);
  return pty;
}

describe('a typed character is on the screen before its search results', () => {
  it(
    '"flux" in one write and a key at a time: the echo is written before the results, which end the same',
    async () => {
      const screens: string[] = [];
      let root: string | undefined;
      for (const burst of [true, false]) {
        const { home } = store(root);
        root = home.root;
        const pty = await picker(home);
        const from = pty.rawOutput().length;
        if (burst) pty.write('flux');
        else await pty.press(...'flux');
        const screen = await waitForFrame(
          pty,
          (s) => s.includes('> flux') && new RegExp(`pi sessions 1/${COUNT} ·`).test(s) && s.includes(TARGET),
          `"flux" found (${burst ? 'one write' : 'a key at a time'})`,
        );
        screens.push(screen);
        // The first key's frame came before any search result: a count of "…" over the rows before.
        const raw = pty.rawOutput().slice(from);
        const echo = raw.indexOf(`pi sessions …/${COUNT}`);
        expect(echo).toBeGreaterThanOrEqual(0);
        expect(echo).toBeLessThan(raw.indexOf(`pi sessions 1/${COUNT}`));
        pty.kill('SIGKILL');
        await pty.waitForExit();
      }
      expect(screens[0]).toBe(screens[1]);
    },
    E2E_TEST_MS,
  );

  it(
    'once a search was timed cheap, the next keys are drawn with their results: no frame of the rows before',
    async () => {
      const { home } = store();
      const pty = await picker(home);
      // The first key is echoed first (nothing timed yet); its search, over 80 short sessions, is cheap.
      pty.write('f');
      await waitForFrame(
        pty,
        (s) => s.includes('> f') && new RegExp(`pi sessions \\d+/${COUNT} ·`).test(s),
        '"f" found',
      );
      await sleep(200);
      for (const [keys, query] of [
        ['l', 'fl'],
        ['ux', 'flux'],
      ] as const) {
        const from = pty.rawOutput().length;
        pty.write(keys);
        await waitForFrame(pty, (s) => s.includes(`> ${query}`) && !s.includes('…/'), `"${query}" found`);
        await sleep(200);
        expect(pty.rawOutput().slice(from)).not.toContain(`…/${COUNT}`);
      }
      expect(pty.screen()).toContain(TARGET);
    },
    E2E_TEST_MS,
  );

  it(
    '--print: Enter in the same write as "flux" prints the session "flux" finds, not the row shown before',
    async () => {
      const { home, target } = store();
      const pty = await picker(home, ['--print']);
      pty.write('flux\r');
      expect(await pty.waitForExit()).toBe(0);
      const raw = pty.rawOutput();
      expect(raw.slice(raw.lastIndexOf('\u001b[?1049l'))).toContain(`${target}\r\n`);
    },
    E2E_TEST_MS,
  );
});
