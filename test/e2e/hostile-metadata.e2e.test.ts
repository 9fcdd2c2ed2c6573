/**
 * Escape sequences outside message text: a session id in a header, an entry id, a repository's
 * `.pi/settings.json` `sessionDir`, a file name quoted by a library error. Each must reach the
 * terminal through the sanitiser, checked on the raw bytes (the CLI's stdout and stderr, and the
 * picker's pty output).
 */
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/text/terminal-text.js';
import { runCli, sessionsOf } from '../helpers/cli.js';
import { tempDir } from '../helpers/factory.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { unsafeBytes } from '../helpers/terminal-bytes.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome } from './harness.js';

/** OSC 52 (clipboard write), OSC 0 (window title) and a CSI (clear screen), each with a marker. */
const HOSTILE = '\u001b]52;c;cHduZWQ=\u0007\u001b]0;TITLE\u0007\u001b[2J';
/** How the sanitiser shows it. */
const SHOWN = '␛]52;c;cHduZWQ=\\x07␛]0;TITLE\\x07␛[2J';

/**
 * A prompt and a reply, written line by line (ids chosen by the test, unlike SessionBuilder's),
 * dated a month back so the picker does not treat it as live.
 */
function writeRawSession(path: string, options: { id: string; cwd: string; replyId: string }): void {
  const lines = [
    { type: 'session', version: 3, id: options.id, timestamp: '2026-01-05T09:00:00.000Z', cwd: options.cwd },
    {
      type: 'message',
      id: '00000001',
      parentId: null,
      timestamp: '2026-01-05T09:00:01.000Z',
      message: { role: 'user', content: 'a plain prompt', timestamp: 1767603601000 },
    },
    {
      type: 'message',
      id: options.replyId,
      parentId: '00000001',
      timestamp: '2026-01-05T09:00:02.000Z',
      message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], timestamp: 1767603602000 },
    },
  ];
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000);
  utimesSync(path, monthAgo, monthAgo);
}

function expectSafe(...outputs: string[]): void {
  expect(outputs.flatMap((text) => unsafeBytes(text))).toEqual([]);
}

function hostileIdHome(root?: string): { home: TestHome; path: string } {
  const home = makeHome(root);
  const path = join(home.projectDir, '2026-01-05T09-00-00-000Z_hostile.jsonl');
  writeRawSession(path, { id: `${HOSTILE}-0000-7000`, cwd: home.cwd, replyId: `e${HOSTILE}` });
  return { home, path };
}

/** `shown` is `full` whole, or its start, `…` and its end (at least its last component). */
function expectCutFromTheMiddle(shown: string, full: string): void {
  if (shown === full) return;
  const [head = '', tail = '', ...rest] = shown.split('…');
  expect(rest, shown).toEqual([]);
  expect(full.startsWith(head), shown).toBe(true);
  expect(full.endsWith(tail), shown).toBe(true);
  expect(tail.endsWith('/Trash'), shown).toBe(true);
}

describe('hostile metadata never reaches the terminal as control sequences', { timeout: E2E_TEST_MS }, () => {
  it('a header id: the list ID column', () => {
    const { home } = hostileIdHome();
    const run = runCli(['list'], { env: home.env, cwd: home.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('␛]52;c;c');
    expectSafe(run.stdout, run.stderr);
  });

  it('list --json and tree --json: the same values, with nothing a terminal acts on', () => {
    const { home, path } = hostileIdHome();
    const c1AndBidi = `${HOSTILE}\u009b31m\u202eRLO\u200b`;
    const named = runCli(['rename', path, c1AndBidi], { env: home.env, cwd: home.cwd });
    expect(named.code, named.stderr).toBe(0);
    const list = runCli(['list', '--json'], { env: home.env, cwd: home.cwd });
    expect(list.code, list.stderr).toBe(0);
    const rows = sessionsOf(JSON.parse(list.stdout)) as { id: string; name: string }[];
    expect(rows.map((r) => [r.id, r.name])).toEqual([[`${HOSTILE}-0000-7000`, c1AndBidi]]);
    const tree = runCli(['tree', path, '--json'], { env: home.env, cwd: home.cwd });
    expect(tree.code, tree.stderr).toBe(0);
    expect((JSON.parse(tree.stdout) as { sessionName: string }).sessionName).toBe(c1AndBidi);
    expectSafe(named.stdout, named.stderr, list.stdout, list.stderr, tree.stdout, tree.stderr);
  });

  it('an entry id: branch\u2019s "pi will resume after <id>" and label\u2019s echo', () => {
    const { home, path } = hostileIdHome();
    const branch = runCli(['branch', path, `e${HOSTILE}`], { env: home.env, cwd: home.cwd });
    expect(branch.code, branch.stderr).toBe(0);
    expect(branch.stdout).toContain(`pi will resume after e${SHOWN}`);
    const label = runCli(['label', path, `e${HOSTILE}`, 'fine'], { env: home.env, cwd: home.cwd });
    expect(label.code, label.stderr).toBe(0);
    expect(label.stdout).toContain(`Labelled e${SHOWN}`);
    expectSafe(branch.stdout, branch.stderr, label.stdout, label.stderr);
  });

  it('a repository\u2019s .pi/settings.json sessionDir: list, its footer and its "does not exist"', () => {
    const home = makeHome();
    const sessionDir = join(home.root, `sessions${HOSTILE}`);
    mkdirSync(join(home.cwd, '.pi'), { recursive: true });
    writeFileSync(join(home.cwd, '.pi', 'settings.json'), JSON.stringify({ sessionDir }));
    const missing = runCli(['list'], { env: home.env, cwd: home.cwd });
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stdout).toContain(`sessions${SHOWN} does not exist`);
    mkdirSync(sessionDir);
    writeRawSession(join(sessionDir, 'a.jsonl'), {
      id: '0000000f-0000-7000-8000-000000000000',
      cwd: home.cwd,
      replyId: '00000002',
    });
    const listed = runCli(['list'], { env: home.env, cwd: home.cwd });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`1 session in ${sessionDir.replace(HOSTILE, SHOWN)}`);
    // Not a folder: the error line quotes the path (root reads any folder, so a mode would not do).
    const aFile = join(home.root, `file${HOSTILE}`);
    writeFileSync(aFile, '');
    writeFileSync(join(home.cwd, '.pi', 'settings.json'), JSON.stringify({ sessionDir: aFile }));
    const notAFolder = runCli(['list'], { env: home.env, cwd: home.cwd });
    expect(notAFolder.code).toBe(1);
    expect(notAFolder.stderr).toContain(`file${SHOWN}`);
    expectSafe(missing.stdout, missing.stderr, listed.stdout, listed.stderr, notAFolder.stdout, notAFolder.stderr);
  });

  it('a path quoted by the trash library\u2019s error: delete\u2019s error line', () => {
    const { home, path } = hostileIdHome();
    // The trash under a regular file: the library fails with ENOTDIR quoting its path.
    const notADir = join(home.root, `xdg${HOSTILE}`);
    writeFileSync(notADir, 'not a folder');
    const run = runCli(['delete', path], { env: { ...home.env, XDG_DATA_HOME: join(notADir, 'sub') }, cwd: home.cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`xdg${SHOWN}`);
    expectSafe(run.stdout, run.stderr);
  });

  // Once in a home as deep as the temp folder makes it, once in one at least 150 characters deep
  // (pi's folder for its sessions is named after the whole path: much deeper fails with
  // ENAMETOOLONG): the path in the message is then cut from its middle, never the words after it.
  it.each([
    ['the temp folder', () => undefined],
    [
      'a 150-character folder',
      () => {
        const base = tempDir('pi-sessions-e2e-');
        return join(base, 'd'.repeat(Math.max(1, 150 - base.length)));
      },
    ],
  ])(
    'in the picker: the preview\u2019s Id row and the trash error in the delete prompt (home in %s)',
    async (_, root) => {
      const { home } = hostileIdHome(root());
      const notADir = join(home.root, `xdg${HOSTILE}`);
      writeFileSync(notADir, 'not a folder');
      const pty = startApp(home, [], { cols: 200, rows: 30, env: { XDG_DATA_HOME: join(notADir, 'sub') } });
      await pty.waitForText('a plain prompt');
      await pty.press('\u000f'); // Ctrl+O: the preview
      await pty.waitForText(/Id\s+␛\]52;c;/);
      await pty.press('\u0004'); // Ctrl+D: delete, after a confirmation
      await pty.waitForText('Delete this session?');
      await pty.press(PTY_KEYS.enter);
      // The trash fails: the prompt quotes the trash folder it could not use (a hostile path, shown
      // escaped) and offers a permanent delete; the whole message is on the line.
      const screen = await pty.waitForText(
        /The trash is unavailable \(could not move to the trash: the trash \((.*)\) cannot take it: not a directory\)\./,
      );
      const shown = /the trash \((.*)\) cannot take it/.exec(screen)![1]!;
      const full = `${notADir.replace(HOSTILE, SHOWN)}/sub/Trash`;
      const title = `The trash is unavailable (could not move to the trash: the trash (${full}) cannot take it: not a directory).`;
      if (displayWidth(title) <= 200) expect(shown).toBe(full);
      else {
        expect(shown).toContain('…');
        expectCutFromTheMiddle(shown, full);
      }
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText('Delete cancelled');
      await pty.press(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
      expectSafe(pty.rawOutput());
    },
  );

  it('in the picker: the status line of a rename of a file with a hostile name that was deleted since the list was drawn', async () => {
    const home = makeHome();
    const path = join(home.projectDir, `2026-01-05T09-00-00-000Z_${HOSTILE}.jsonl`);
    writeRawSession(path, { id: '00000010-0000-7000-8000-000000000000', cwd: home.cwd, replyId: '00000002' });
    const pty = startApp(home, [], { cols: 200, rows: 30 });
    await pty.waitForText('a plain prompt');
    // The file goes away after it was listed: the rename says so, quoting its path (escaped).
    rmSync(path);
    await pty.press('\u0012'); // Ctrl+R: rename
    await pty.waitForText('Rename “');
    // Each key once the previous one shows: two keys read in one chunk reach ink as one input.
    await pty.press('x');
    await pty.waitForText('Name: x');
    await pty.press(PTY_KEYS.enter);
    // The path is cut from its middle to fit, keeping the (escaped) file name and the advice whole.
    const screen = await pty.waitForText(/✗ .*␛\]52;c;cHduZWQ=.*\.jsonl was deleted or moved since the list was drawn/);
    expect(screen).not.toContain('Rename failed');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectSafe(pty.rawOutput());
  });
});
