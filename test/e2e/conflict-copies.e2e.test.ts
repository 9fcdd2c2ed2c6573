/**
 * Conflict copies in the picker, in a real pty, made the way Syncthing makes them: one session on
 * two machines, each appending its own turns, the server's file renamed
 * `….sync-conflict-<date>-<time>-<device>.jsonl`. The picker shows one row (`⇄2`), its preview says
 * what each file adds, Alt+M asks first (Esc cancels; Alt+M and Enter in one write do not merge
 * unseen), Enter merges: pi 1.6.0's SessionManager loads the union of entries, resuming where the
 * copy (modified last) left off; Ctrl+Z restores both files byte for byte. Copies that disagree
 * about an entry are refused, plainly, in the preview and on Alt+M, and nothing changes.
 */
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame } from './harness.js';

const NAME = '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001';
const DEVICE = '7QKMJ3X';
const ALT_M = '\u001bm';
const CTRL = { o: '\u000f', z: '\u001a' } as const;
const DAY_MS = 86_400_000;

/** A pi-shaped message line with an id of its own (pi's ids are random per machine: here a prefix per machine). */
function messageLine(id: string, parentId: string, role: 'user' | 'assistant', text: string, ms: number): string {
  const message =
    role === 'user'
      ? { role, content: text, timestamp: ms }
      : {
          role,
          content: [{ type: 'text', text }],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 10, cost: { total: 0.001 } },
          stopReason: 'stop',
          timestamp: ms,
        };
  return JSON.stringify({ type: 'message', id, parentId, timestamp: new Date(ms).toISOString(), message });
}

interface Store {
  home: TestHome;
  original: string;
  copy: string;
  plain: string;
}

/** The shared start, the laptop's turns under the session's name, the server's in the conflict copy (modified last). */
function makeStore(): Store {
  const home = makeHome();
  const b = new SessionBuilder({ cwd: home.cwd });
  b.user('set up the project');
  const shared = b.assistant('done: package.json and src/');
  b.name('Sync test');
  const prefix = b.text();
  const at = Date.UTC(2026, 0, 5, 12, 0, 0);
  const laptop = [
    messageLine('a1000001', shared, 'user', 'add a README (laptop)', at),
    messageLine('a1000002', 'a1000001', 'assistant', 'README added', at + 1000),
  ];
  const server = [
    messageLine('b2000001', shared, 'user', 'run the tests (server)', at + 500),
    messageLine('b2000002', 'b2000001', 'assistant', 'all green', at + 1500),
    messageLine('b2000003', 'b2000002', 'user', 'and the linter', at + 2500),
    messageLine('b2000004', 'b2000003', 'assistant', 'clean', at + 3500),
  ];
  const original = join(home.projectDir, `${NAME}.jsonl`);
  const copy = join(home.projectDir, `${NAME}.sync-conflict-20260105-130000-${DEVICE}.jsonl`);
  writeFileSync(original, `${prefix}${laptop.join('\n')}\n`);
  writeFileSync(copy, `${prefix}${server.join('\n')}\n`);
  const other = new SessionBuilder({ cwd: home.cwd, id: '019b0000-0000-7000-8000-0000000000aa' });
  other.user('an unrelated session');
  other.assistant('fine');
  const plain = other.writeTo(join(home.projectDir, '2026-01-04T09-00-00-000Z_plain.jsonl'));
  // Weeks old (never live), the copy modified last.
  for (const [path, days] of [
    [plain, 40],
    [original, 31],
    [copy, 30],
  ] as const) {
    const time = new Date(Date.now() - days * DAY_MS);
    utimesSync(path, time, time);
  }
  return { home, original, copy, plain };
}

const ids = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((line) => (JSON.parse(line) as { id: string }).id);

describe('conflict copies in the picker', () => {
  it(
    'one row, what each copy adds, Alt+M merges what pi loads, Ctrl+Z restores both byte for byte',
    async () => {
      const { home, original, copy, plain } = makeStore();
      const before = { original: readFileSync(original), copy: readFileSync(copy) };
      const union = [...new Set([...ids(original), ...ids(copy)])].sort();
      const pty = startApp(home, [], { cols: 160, rows: 32 });
      let screen = await waitForFrame(pty, (s) => s.includes('an unrelated session'), 'the list');
      // One row for the two files, marked with how many it stands for.
      expect(screen).toContain('⇄2 ★ Sync test');
      expect(screen.split('\n').filter((line) => line.includes('Sync test'))).toHaveLength(1);

      // The preview: what each file alone holds, the copy's device and time from its name.
      await pty.press(CTRL.o);
      screen = await pty.waitForText('Alt+M merges them into one file pi loads');
      for (const line of [
        '── ⇄ 2 files: this session and 1 conflict copy ──',
        'The original adds 2 entries',
        'you › add a README (laptop)',
        'pi › README added',
        `Copy (device ${DEVICE}, 2026-01-05T13:00:00) adds 4 entries`,
        'you › run the tests (server)',
        'pi › all green',
        'you › and the linter',
      ])
        expect(screen).toContain(line);

      // Alt+M asks first and says what happens; Esc cancels.
      await pty.press(ALT_M);
      screen = await pty.waitForText('Merge “Sync test” and its 1 conflict copy into one file?');
      expect(screen).toContain('9 entries (the original +2 · device 7QKMJ3X, 2026-01-05T13:00:00 +4)');
      expect(screen).toContain(
        'Ctrl+Z undoes it. One merged file pi loads (it resumes where the copy from 7QKMJ3X left off); the 2 files merged go to the trash.',
      );
      expect(screen).toContain('Enter merge · Esc cancel');
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText('Nothing was merged');
      expect(readFileSync(original).equals(before.original)).toBe(true);

      // Alt+M and Enter in one write: the Enter was typed before the question was shown and
      // answers nothing (nor does it resume the session); the question waits for its own Enter.
      pty.write(`${ALT_M}\r`);
      await pty.waitForText('Enter merge · Esc cancel');
      expect(readdirSync(home.projectDir).sort()).toEqual([basename(original), basename(copy), basename(plain)].sort());
      await pty.press(PTY_KEYS.enter);
      await pty.waitForText('Merged 2 files into one of 9 entries');
      // The list is read again: one ordinary row.
      screen = await waitForFrame(
        pty,
        (s) => s.includes('★ Sync test') && !s.includes('⇄'),
        'the merged session as a plain row',
      );
      expect(readdirSync(home.projectDir).sort()).toEqual([basename(original), basename(plain)].sort());
      const pi = await openWithPi(original);
      expect(pi.changedOnOpen).toBe(false);
      expect(
        pi.manager
          .getEntries()
          .map((e) => e.id)
          .sort(),
      ).toEqual(union);
      expect(pi.manager.getLeafId()).toBe('b2000004');
      expect(pi.manager.getSessionName()).toBe('Sync test');

      // Ctrl+Z: made by this screen a moment ago, undone at once; both files back, byte for byte.
      await pty.press(CTRL.z);
      await pty.waitForText('Undid the merge');
      await waitForFrame(pty, (s) => s.includes('⇄2 ★ Sync test'), 'the row with its copy again');
      expect(readFileSync(original).equals(before.original)).toBe(true);
      expect(readFileSync(copy).equals(before.copy)).toBe(true);
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
    },
    E2E_TEST_MS,
  );

  it(
    'copies that disagree about an entry: the preview says so, Alt+M is refused, nothing changes',
    async () => {
      const { home, original, copy } = makeStore();
      // The server's copy of a shared entry differs (a hand edit, or a tool that rewrote it).
      writeFileSync(copy, readFileSync(copy, 'utf8').replace('done: package.json and src/', 'done: package.json only'));
      const time = new Date(Date.now() - 30 * DAY_MS);
      utimesSync(copy, time, time);
      const before = { original: readFileSync(original), copy: readFileSync(copy) };
      const pty = startApp(home, [], { cols: 160, rows: 32 });
      await pty.waitForText('⇄2 ★ Sync test');
      await pty.press(CTRL.o);
      let screen = await pty.waitForText('⚠ Not mergeable: cannot merge:');
      // Wrapped in the pane: compare without the pane's border and white space.
      const unspaced = screen.replace(/[│\s]+/g, '');
      expect(unspaced).toContain(
        `${basename(original)}(line3)and${basename(copy)}(line3)holddifferententrieswiththesameid00000002;nothingwasmerged`,
      );
      await pty.press(ALT_M);
      screen = await pty.waitForText('Not merged: cannot merge:');
      expect(screen).not.toContain('Enter merge');
      expect(readFileSync(original).equals(before.original)).toBe(true);
      expect(readFileSync(copy).equals(before.copy)).toBe(true);
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
    },
    E2E_TEST_MS,
  );
});
