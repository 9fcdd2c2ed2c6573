/**
 * Terminal safety: session text (names, prompts, replies, tool commands and output, labels, cwds,
 * file names) full of escape sequences and invisible characters is fed through every view and
 * through the human (non-JSON) CLI output. The assertions are on the RAW bytes the app wrote to
 * the pseudo-terminal: every ESC must start one of the app's own sequences (cursor moves, erase,
 * SGR colours, alternate screen, cursor visibility, synchronized output), and none of the C1
 * controls, backspaces, bare carriage returns, bell, bidi overrides or zero-width characters may
 * appear at all. What was there must still be visible, escaped (`␛`, `\x9b`, `\u202e`).
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS, type PtySession } from '../helpers/pty.js';
import { unsafeBytes } from '../helpers/terminal-bytes.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, writeSession } from './harness.js';

/** Every kind of hostile sequence, each next to a marker word so a leak would be recognisable. */
const NASTY = [
  '\u001b[2J\u001b[H', // clear screen, cursor home
  '\u001b[38;2;1;2;3mCOLOUR', // true-colour SGR with params the app never uses
  '\u001b]52;c;cHduZWQ=\u0007', // OSC 52: write "pwned" to the clipboard
  '\u001b]0;TITLE-ZERO\u0007', // OSC 0: window title
  '\u001b]2;TITLE-TWO\u001b\\', // OSC 2, ST-terminated
  '\u001b[6n', // device status report: the terminal would answer on stdin
  '\u001b[?1000h', // mouse tracking
  '\u001bP+q544e\u001b\\', // DCS
  '\u001bc', // full reset
  '\u009b31mC1CSI', // C1 CSI
  '\u009d0;C1TITLE\u009c', // C1 OSC … ST
  'ab\b\bBACKSPACED', // backspaces
  'hidden\rOVERWRITE', // bare carriage return
  '\u202eRLO-evil\u202c', // bidi override
  '\u2066isolate\u2069',
  'zero\u200bwidth\u200djoiner\ufeffbom',
  '\u0007BEL \u0000NUL \u007fDEL \u000bVT \u000cFF',
].join(' ');

interface NastyStore {
  home: TestHome;
  named: string;
  unnamed: string;
}

/**
 * Two sessions in this folder: one named with the hostile text, one whose first prompt, replies,
 * tool call, tool output and labels hold it. A third in another project whose header cwd and
 * file name hold it (the cwd column in "all projects", the path toggle).
 */
function nastyStore(): NastyStore {
  const home = makeHome();
  const named = new SessionBuilder({ id: '0000000a-0000-7000-8000-000000000000', cwd: home.cwd });
  named.user('a harmless prompt');
  named.assistant('harmless');
  named.name(`NAMED ${NASTY}`);
  const namedPath = writeSession(named, home.projectDir, '2026-01-02T00-00-00-000Z_named.jsonl', 2);

  const unnamed = new SessionBuilder({ id: '0000000b-0000-7000-8000-000000000000', cwd: home.cwd });
  const prompt = unnamed.user(`PROMPT ${NASTY}`);
  unnamed.toolCall('bash', { command: `echo CMD ${NASTY}` });
  unnamed.toolResult('bash', `OUTPUT ${NASTY}\nsecond line ${NASTY}`);
  unnamed.assistant(`REPLY ${NASTY}`);
  unnamed.label(prompt, `LABEL ${NASTY}`);
  const unnamedPath = writeSession(unnamed, home.projectDir, '2026-01-03T00-00-00-000Z_unnamed.jsonl', 1);

  const elsewhere = new SessionBuilder({ id: '0000000c-0000-7000-8000-000000000000', cwd: `/srv/CWD ${NASTY}` });
  elsewhere.user('prompt in a hostile cwd');
  elsewhere.assistant('ok');
  const otherDir = join(home.sessionsRoot, '--srv-hostile--');
  const plain = writeSession(elsewhere, otherDir, 'plain.jsonl', 3);
  // A file name can hold ESC and BEL too (only '/' and NUL are impossible).
  renameSync(plain, join(otherDir, '2026-01-01T00-00-00-000Z_\u001b]0;FILE-TITLE\u0007\u009b2J.jsonl'));
  return { home, named: namedPath, unnamed: unnamedPath };
}

function expectSafe(pty: PtySession, options: { allowCopy?: boolean } = {}): void {
  expect(unsafeBytes(pty.rawOutput(), options)).toEqual([]);
}

/** Moves the action menu's highlight to `item`, one key at a time, each move seen before the next. */
async function chooseMenuItem(pty: PtySession, item: string): Promise<void> {
  for (let i = 0; i < 16 && !pty.screen().includes(`❯ ${item}`); i++) {
    const before = pty.screen();
    await pty.press(PTY_KEYS.down);
    await pty.waitForScreen((s) => s !== before, 'the highlight moved');
  }
  await pty.waitForText(`❯ ${item}`);
}

async function step(pty: PtySession, keys: string[], shows: string | RegExp): Promise<string> {
  await pty.press(...keys);
  return pty.waitForText(shows);
}

describe('the checker itself', { timeout: E2E_TEST_MS }, () => {
  it('flags each kind of leak and accepts the app\u2019s own sequences', () => {
    expect(
      unsafeBytes(
        '\u001b[?1049h\u001b[?25l\u001b[?1000h\u001b[?1006h\u001b[1mtitle\u001b[22m\r\n\u001b[2K\u001b[1A\u001b[G\u001b[?2026h',
      ),
    ).toEqual([]);
    for (const leak of [
      '\u001b]0;x\u0007',
      '\u001b[6n',
      // Any-motion mouse tracking: the app turns on presses and the wheel only (1000, 1006).
      '\u001b[?1003h',
      '\u001bc',
      '\u009b31m',
      'a\bb',
      'a\rb',
      '\u202e',
      '\u200b',
      '\u0007',
    ]) {
      expect(unsafeBytes(`ok ${leak} ok`), JSON.stringify(leak)).not.toEqual([]);
    }
    expect(unsafeBytes('\u001b]52;c;aGk=\u0007', { allowCopy: true })).toEqual([]);
    expect(unsafeBytes('\u001b]52;c;aGk=\u001b]0;x\u0007', { allowCopy: true })).not.toEqual([]);
  });
});

describe('hostile session text never reaches the terminal as control sequences', { timeout: E2E_TEST_MS }, () => {
  it('in the picker: rows, cwd column, paths, preview, rename dialog, delete prompt, help', async () => {
    const store = nastyStore();
    const pty = startApp(store.home, ['--all'], { cols: 160, rows: 50 });
    const list = await pty.waitForText(/3\/3 · all projects/);
    // Visible, escaped: the user can tell something was there.
    expect(list).toContain('NAMED ␛[2J␛[H ␛[38;2;1;2;3mCOLOUR');
    expect(list).toContain('PROMPT ␛[2J');
    // The cwd column keeps the end of the path (where the project name is).
    expect(list).toMatch(/\\x7fDEL ⏎ VT ⏎ FF/);
    await step(pty, ['\u0010'], /FILE-TITLE|\\x9b2J/); // Ctrl+P: file paths
    await step(pty, ['\u000f'], /Id\s+0000000/); // Ctrl+O: preview of the first row
    for (let i = 0; i < 3; i++) await step(pty, [PTY_KEYS.down], /Id\s+0000000/);
    await step(pty, [PTY_KEYS.home], /Id\s+0000000/);
    // The named session, in the rename dialog (pre-filled with the hostile name) and the delete prompt.
    // `name:` so only the name is searched (pi's abbreviation tier would also match the other
    // session's hostile cwd, which holds n…a…m…e…d).
    await pty.press(...'name:NAMED'.split(''));
    await pty.waitForText(/1\/3 · all projects/);
    await step(pty, ['\u0012'], 'Rename “');
    // Ctrl+D once the dialog is closed (the counter shows all along): an Esc and a Ctrl+D that
    // reach a busy app in one read are Alt+Ctrl+D.
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen(
      (s) => !s.includes('Rename “') && /1\/3 · all projects/.test(s),
      'the rename dialog is closed',
    );
    await step(pty, ['\u0004'], 'Delete this session?');
    await step(pty, [PTY_KEYS.escape], 'Delete cancelled');
    await step(pty, [PTY_KEYS.escape], /3\/3 · all projects/);
    await step(pty, ['?'], 'pi-sessions · keys');
    await step(pty, [PTY_KEYS.escape], /3\/3 · all projects/);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectSafe(pty);
    // The window title was never set by session text (xterm saw no OSC 0/2 at all).
    expect(pty.rawOutput()).not.toContain('TITLE-ZERO\u0007');
  });

  it('in the tree: rows with labels and tools, every filter, the action menu, the detail view, search, help', async () => {
    const store = nastyStore();
    const pty = startApp(store.home, ['tree', store.unnamed], { cols: 160, rows: 50 });
    const tree = await pty.waitForText('Session Tree');
    await pty.waitForText(/\[LABEL ␛\[2J/);
    expect(tree).toContain('Session Tree');
    // Ctrl+A: every entry, tool calls included (a key typed while the session loads waits for it).
    await step(pty, ['\u0001'], /\[all\]/);
    expect(pty.screen()).toMatch(/CMD ␛\[2J|bash: echo CMD/);
    // Each row's detail view: message text, tool call arguments, tool output.
    await step(pty, [PTY_KEYS.home], /^› /m);
    const rows = pty
      .screen()
      .split('\n')
      .filter((line) => /^[› ] /.test(line) && /[•◆]|user|assistant|\[/.test(line)).length;
    for (let i = 0; i < rows; i++) {
      await step(pty, [PTY_KEYS.enter], '❯ Resume from here');
      await chooseMenuItem(pty, 'View');
      await pty.press(PTY_KEYS.enter);
      await pty.waitForScreen((s) => !s.includes('❯ View'), 'the detail view is open');
      await pty.press(PTY_KEYS.pageDown, PTY_KEYS.end);
      await step(pty, [PTY_KEYS.escape], /\[all\]/);
      await pty.press(PTY_KEYS.down);
    }
    // Label input pre-filled with the hostile label.
    await step(pty, [PTY_KEYS.home], /^› /m);
    await pty.press(PTY_KEYS.down);
    await pty.press('L');
    await pty.waitForText('Label (empty to remove)');
    // Esc closes the prompt; type only once it is closed (an Esc and an O that reach a busy app in
    // one read are Alt+O, in any terminal program).
    await step(pty, [PTY_KEYS.escape], 'Type to search');
    await step(pty, ['O', 'U', 'T', 'P', 'U', 'T'], /Search: OUTPUT/);
    await step(pty, [PTY_KEYS.escape], /\[all\]/);
    // The help's own title: the list's key hints ("? help") are on screen before it opens.
    await step(pty, ['?'], 'Tree navigator keys');
    // Ctrl+C only once the help is closed: an Esc and a Ctrl+C that reach a busy app in one read
    // are Alt+Ctrl+C, which no screen binds (as with Alt+O above).
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((s) => !s.includes('Tree navigator keys') && s.includes('[all]'), 'the help is closed');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectSafe(pty);
  });

  it('copy (OSC 52) sends the hostile text base64-encoded, nothing else', async () => {
    const store = nastyStore();
    // No clipboard tool and no tmux, whatever runs the tests: the copy goes out as plain OSC 52.
    const noTools = { DISPLAY: '', WAYLAND_DISPLAY: '', TMUX: '', STY: '' };
    const pty = startApp(store.home, ['tree', store.unnamed], { cols: 160, rows: 50, env: noTools });
    await pty.waitForText(/\[LABEL ␛\[2J/);
    await pty.press(PTY_KEYS.home);
    await step(pty, ['\u0018'], /Sent \d+ characters to the terminal's clipboard \(OSC 52\)/);
    const raw = pty.rawOutput();
    const osc = /\u001b\]52;c;([A-Za-z0-9+/=]*)(?:\u0007|\u001b\\)/.exec(raw);
    expect(osc).not.toBeNull();
    expect(Buffer.from(osc![1]!, 'base64').toString('utf8')).toContain(`PROMPT ${NASTY}`);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
    expectSafe(pty, { allowCopy: true });
  });

  it('in the human CLI output: list, rename, label and error messages', () => {
    const store = nastyStore();
    const env = store.home.env;
    const outputs: string[] = [];
    for (const args of [['list'], ['list', '--all'], ['list', '--tree']]) {
      const run = runCli(args, { env, cwd: store.home.cwd });
      expect(run.code, run.stderr).toBe(0);
      outputs.push(run.stdout, run.stderr);
    }
    expect(outputs.join('')).toContain('NAMED ␛[2J');
    // An argument cannot hold NUL (execve); everything else goes through argv as is.
    const argText = NASTY.replace('\u0000', '');
    const rename = runCli(['rename', store.named, `RENAMED ${argText}`], { env, cwd: store.home.cwd });
    expect(rename.code, rename.stderr).toBe(0);
    expect(rename.stdout).toContain('RENAMED ␛[2J');
    const label = runCli(['label', store.unnamed, '00000001', `LBL ${argText}`], { env, cwd: store.home.cwd });
    expect(label.code, label.stderr).toBe(0);
    const missing = runCli(['tree', `/nope/${argText}`, '--json'], { env, cwd: store.home.cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^pi-sessions: /);
    const branch = runCli(['branch', store.unnamed, '00000001'], { env, cwd: store.home.cwd });
    expect(branch.code, branch.stderr).toBe(0);
    expect(branch.stdout).toContain('PROMPT ␛[2J'); // the message to re-send, escaped
    outputs.push(
      rename.stdout,
      rename.stderr,
      label.stdout,
      label.stderr,
      missing.stdout,
      missing.stderr,
      branch.stdout,
      branch.stderr,
    );
    const problems = outputs.flatMap((text) => unsafeBytes(text));
    expect(problems).toEqual([]);
  });
});
