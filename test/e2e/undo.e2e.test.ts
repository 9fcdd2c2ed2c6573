/**
 * Ctrl+Z across a restart, in a real pty: a change is made in one run of the app, the app quits,
 * a new run says what the journal's latest change was (the change, the session's title, its
 * project, when) and asks before undoing it; pi 1.6.0's SessionManager (the oracle) reads the file
 * as it was before. Keys are sent one at a time and as a burst; a change pi has appended after is
 * said in the question; the CLI undoing the same change meanwhile makes the screen's undo a no-op.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, expectRestored, makeHome, startApp, writeSession } from './harness.js';

const CTRL = { r: '\u0012', u: '\u0015', z: '\u001a', y: '\u0019', d: '\u0004' } as const;
/** Alt+S slims (Ctrl+E is pi's line end). */
const SLIM = '\u001bs';

function home(): { home: ReturnType<typeof makeHome>; path: string } {
  const home = makeHome();
  const b = new SessionBuilder({ cwd: home.cwd });
  b.user('plan the zebra crossing');
  b.assistant('Here is a plan');
  b.name('Before');
  return { home, path: writeSession(b, home.projectDir, '2026-01-05T09-00-00-000Z_zebra.jsonl') };
}

describe('Ctrl+Z after a restart', () => {
  it(
    'the picker undoes a rename made in an earlier run; pi reads the old name again',
    async () => {
      const { home: h, path } = home();
      let pty = startApp(h);
      await pty.waitForText('★ Before');
      await pty.press(CTRL.r);
      await pty.waitForText('Rename “Before”');
      await pty.press(CTRL.u, ...'After'.split(''), PTY_KEYS.enter);
      await pty.waitForText('★ After');
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
      expect((await openWithPi(path)).manager.getSessionName()).toBe('After');

      pty = startApp(h, [], { cols: 140, rows: 24 });
      await pty.waitForText('★ After');
      // Ctrl+Z and y in one write: the y was typed before the question was shown, so it answers
      // nothing (and is not typed into the search either); the question waits for its own answer.
      pty.write('\u001ay');
      // Made in an earlier run: said and asked, not done.
      let screen = await pty.waitForText('Undo this change?');
      // The question wraps at words at the terminal's width (where depends on the temp path's
      // length): compare without white space.
      const unspaced = (text: string) => text.replace(/\s+/g, '');
      expect(unspaced(screen)).toContain(
        unspaced(
          `The rename of “After” (2026-01-05T09-00-00-000Z_zebra.jsonl in ${h.cwd}, just now): name it "Before".`,
        ),
      );
      expect(screen).toContain('y undo · Enter undo · Esc keep it');
      expect(screen).toMatch(/^> type to search/m);
      expect((await openWithPi(path)).manager.getSessionName()).toBe('After');
      // A burst of stray keys and Esc, in one write: only Esc counts.
      pty.write('qx\u001b');
      await pty.waitForText('Nothing was undone');
      expect((await openWithPi(path)).manager.getSessionName()).toBe('After');
      // One key at a time: Ctrl+Z, then the answer once the question is shown.
      await pty.press(CTRL.z);
      screen = await pty.waitForText('Undo this change?');
      await pty.press('x');
      await pty.press('y');
      await pty.waitForText('Undid the rename of “After” (2026-01-05T09-00-00-000Z_zebra.jsonl in');
      // The scope is listed again: the row shows the name pi now reads.
      await pty.waitForText('★ Before');
      const pi = await openWithPi(path);
      expect(pi.changedOnOpen).toBe(false);
      expect(pi.manager.getSessionName()).toBe('Before');
      // Undone by this screen a moment ago: Ctrl+Y redoes it without a question…
      await pty.press(CTRL.y);
      await pty.waitForText('Redid the rename of “After”');
      await pty.waitForText('★ After');
      expect((await openWithPi(path)).manager.getSessionName()).toBe('After');
      // …and the redo, made here a moment ago, is undone by Ctrl+Z without one.
      await pty.press(CTRL.z);
      await pty.waitForText('Undid the rename of “After”');
      await pty.waitForText('★ Before');
      expect((await openWithPi(path)).manager.getSessionName()).toBe('Before');
      await pty.press(CTRL.z);
      await pty.waitForText('Nothing to undo');
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
      expectRestored(pty);
    },
    E2E_TEST_MS,
  );

  it(
    "the picker asks; meanwhile the CLI undoes the same change: the picker's yes undoes nothing twice",
    async () => {
      const { home: h, path } = home();
      // The app's journal: under the home's ~/.local/state (the pty starts from a clean environment).
      const env = { ...h.env, XDG_STATE_HOME: join(h.root, 'home', '.local', 'state') };
      const renamed = runCli(['rename', path, 'After'], { env, cwd: h.cwd });
      expect(renamed.code, renamed.stderr).toBe(0);
      const entries = (await openWithPi(path)).manager.getEntries().length;
      const pty = startApp(h, [], { cols: 140, rows: 24 });
      await pty.waitForText('★ After');
      await pty.press(CTRL.z);
      await pty.waitForText('Undo this change?');
      const cli = runCli(['undo'], { env, cwd: h.cwd });
      expect(cli.code, cli.stderr).toBe(0);
      await pty.press('y');
      // (The status line is cut at the terminal's width: the path is long.)
      await pty.waitForText('Undo failed: nothing was undone: the rename of “After”');
      const pi = (await openWithPi(path)).manager;
      expect(pi.getSessionName()).toBe('Before');
      expect(pi.getEntries()).toHaveLength(entries + 1);
      await pty.press(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
    },
    E2E_TEST_MS,
  );

  it(
    'the picker brings back a session deleted in an earlier run, byte for byte',
    async () => {
      const { home: h, path } = home();
      const before = readFileSync(path);
      let pty = startApp(h);
      await pty.waitForText('★ Before');
      await pty.press(CTRL.d);
      await pty.waitForText('Delete this session?');
      await pty.press(PTY_KEYS.enter);
      await pty.waitForText('Moved 1 session to the trash');
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
      expect(existsSync(path)).toBe(false);

      pty = startApp(h, [], { cols: 140, rows: 24 });
      await pty.waitForText('No sessions');
      await pty.press(CTRL.z);
      await pty.waitForText('The delete of “Before” (2026-01-05T09-00-00-000Z_zebra.jsonl in');
      await pty.press(PTY_KEYS.enter);
      await pty.waitForText('Undid the delete of “Before”');
      await pty.waitForText('★ Before');
      expect(readFileSync(path).equals(before)).toBe(true);
      expect((await openWithPi(path)).manager.getSessionName()).toBe('Before');
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
    },
    E2E_TEST_MS,
  );

  it(
    'the picker slims a session (prompt with the sizes), and after a restart Ctrl+Z puts the original back byte for byte',
    async () => {
      const h = makeHome();
      const b = new SessionBuilder({ cwd: h.cwd });
      b.user('plan the zebra crossing');
      const answer = b.assistant('Here is a plan');
      b.user('an abandoned idea');
      b.toolResult('read', 'x'.repeat(100_000));
      b.branchFrom(answer);
      b.name('Slim me');
      b.user('the kept idea');
      b.assistant('kept answer');
      const path = writeSession(b, h.projectDir, '2026-01-05T09-00-00-000Z_big.jsonl');
      const before = readFileSync(path);
      const piBefore = (await openWithPi(path)).manager.buildSessionContext().messages;

      let pty = startApp(h, [], { cols: 120, rows: 24 });
      await pty.waitForText('★ Slim me');
      await pty.press(SLIM);
      const prompt = await pty.waitForText('Keep only the active branch of “Slim me”?');
      expect(prompt).toMatch(/\d+ KB → about 1\.\d KB · 5 of 7 entries kept/);
      await pty.press(PTY_KEYS.enter);
      await pty.waitForText(/Slimmed \d+ KB → 1\.\d KB \(5 entries of 7\)/);
      const [slim, ...others] = readdirSync(h.projectDir);
      expect(others).toEqual([]);
      expect(slim).not.toBe(basename(path));
      const pi = await openWithPi(join(h.projectDir, slim!));
      expect(pi.manager.buildSessionContext().messages).toEqual(piBefore);
      expect(pi.manager.getSessionName()).toBe('Slim me');
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);

      pty = startApp(h, [], { cols: 140, rows: 24 });
      await pty.waitForText('★ Slim me');
      await pty.press(CTRL.z);
      await pty.waitForText('The slim of “Slim me” (2026-01-05T09-00-00-000Z_big.jsonl in');
      await pty.press('y');
      await pty.waitForText('Undid the slim of “Slim me”');
      expect(readdirSync(h.projectDir)).toEqual([basename(path)]);
      expect(readFileSync(path).equals(before)).toBe(true);
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit()).toBe(0);
      expectRestored(pty);
    },
    E2E_TEST_MS,
  );

  it(
    'the tree asks before undoing a label pi has written after, then undoes it; pi keeps its entry',
    async () => {
      const { home: h, path } = home();
      let pty = startApp(h, ['tree', path], { cols: 120, rows: 24 });
      await pty.waitForText('Here is a plan');
      await pty.press('L');
      await pty.waitForText('Label (empty to remove):');
      await pty.press(...'checkpoint'.split(''), PTY_KEYS.enter);
      await pty.waitForText('Labeled [checkpoint]');
      await pty.press(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);

      const labelled = readSessionSync(path);
      if (!labelled.ok) throw new Error(labelled.message);
      const tree = buildTree(labelled);
      const target = [...tree.labels.keys()][0]!;
      // pi appends after our label, as a running pi would.
      appendFileSync(
        path,
        `${JSON.stringify({ type: 'custom', customType: 'pi-wrote', data: {}, id: 'feedbeef', parentId: tree.leafId, timestamp: new Date().toISOString() })}\n`,
      );
      expect((await openWithPi(path)).manager.getLabel(target)).toBe('checkpoint');

      pty = startApp(h, ['tree', path], { cols: 120, rows: 24 });
      await pty.waitForText('Here is a plan');
      await pty.press(CTRL.z);
      const asked = await pty.waitForText('Undo a change pi has written after?');
      expect(asked.replace(/\s*│\n│\s*/g, ' ')).toContain('pi has written to it since; its later entries stay.');
      await pty.press('n');
      await pty.waitForText('Nothing was undone');
      expect((await openWithPi(path)).manager.getLabel(target)).toBe('checkpoint');
      await pty.press(CTRL.z);
      await pty.waitForText('undo anyway');
      await pty.press('y');
      await pty.waitForText('Undid the label of “Before”');
      const pi = (await openWithPi(path)).manager;
      expect(pi.getLabel(target)).toBeUndefined();
      expect(pi.getEntries().some((e) => e.id === 'feedbeef')).toBe(true);
      await pty.press(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
      expectRestored(pty);
    },
    E2E_TEST_MS,
  );
});
