/**
 * pi's keybindings.json (`$PI_CODING_AGENT_DIR/keybindings.json`) remaps the actions both tools
 * share, in a real pty: the picker's delete and rename, the
 * select keys of both screens and a tree filter; the footer, the prompts and the help follow.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { CLI_PATH, PTY_KEYS, startPty } from '../helpers/pty.js';
import { OTHER_UID, otherUserUnavailable } from '../helpers/tiny-disk.js';
import { E2E_TEST_MS, E2E_WAIT_MS, makeHome, startApp, writeSession } from './harness.js';

const noOtherUser = otherUserUnavailable();

const ctrl = (letter: string): string => String.fromCharCode(letter.charCodeAt(0) & 0x1f);
const alt = (key: string): string => `\u001b${key}`;

function session(): SessionBuilder {
  const b = new SessionBuilder();
  b.user('alpha question');
  b.assistant('alpha answer');
  b.user('follow up');
  return b;
}

describe("pi's keybindings.json", { timeout: E2E_TEST_MS }, () => {
  it('remapped keys drive the picker and the tree; the replaced keys no longer do', async () => {
    const home = makeHome();
    const path = writeSession(session(), home.projectDir, 's.jsonl');
    writeFileSync(
      join(home.agentDir, 'keybindings.json'),
      JSON.stringify({
        'tui.select.up': 'alt+k',
        'tui.select.down': ['alt+j'],
        'app.tree.filter.noTools': 'ctrl+y',
        deleteSession: 'ctrl+k', // pi's legacy name for app.session.delete
        'app.session.rename': 'alt+r',
      }),
    );
    // Tall enough for the tree's help to reach the filter keys.
    const pty = startApp(home, [], { cols: 140, rows: 44 });
    await pty.waitForText('alpha question');
    let screen = await pty.waitForText('Ctrl+K delete');
    expect(screen).toContain('Alt+R rename');

    // Ctrl+D was delete's key: now it does nothing, and what follows is typed into the search.
    await pty.press(ctrl('d'));
    await pty.write('zz');
    await pty.waitForText('No sessions match “zz”');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((s) => !s.includes('“zz”'), 'the search cleared');

    await pty.press(ctrl('k'));
    screen = await pty.waitForText('Delete this session?');
    expect(screen).toContain('Enter delete · Esc cancel');
    await pty.press(PTY_KEYS.escape);
    await pty.waitForScreen((s) => !s.includes('Delete this session?'), 'the prompt closed');

    await pty.press(alt('r'));
    // The rename prompt's keys are the footer's hints.
    await pty.waitForText(/Enter save\s+Esc cancel/);
    await pty.write('keyed');
    await pty.press(PTY_KEYS.enter);
    // The status says so once the name is written.
    await pty.waitForText('✓ Renamed');
    expect((await openWithPi(path)).manager.getSessionName()).toBe('keyed');

    // The tree (→ from the list: Enter resumes in pi): pi's select keys move, the arrows no
    // longer do; the no-tools filter is on Ctrl+Y.
    await pty.press(PTY_KEYS.right);
    screen = await pty.waitForText('Alt+K/Alt+J move');
    expect(screen).toMatch(/^›.*follow up/m);
    await pty.press(alt('k'));
    await pty.waitForText(/^›.*assistant: alpha answer/m);
    await pty.press(PTY_KEYS.up, ctrl('y'));
    screen = await pty.waitForText('[no-tools]');
    expect(screen).toMatch(/^›.*assistant: alpha answer/m);

    await pty.press('?');
    await pty.waitForText('Tree navigator keys');
    screen = await pty.waitForText(/Ctrl\+Y\s+Filter: no tool results/);
    expect(screen).toMatch(/Alt\+K\s+Move up/);
    // Ctrl+C closes the help (as it cancels any overlay), then quits from the tree.
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForScreen((text) => !text.includes('Tree navigator keys'), 'the help closed');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('a broken file: pi-sessions starts with its own keys and says so in one line', async () => {
    const home = makeHome();
    writeSession(session(), home.projectDir, 's.jsonl');
    writeFileSync(join(home.agentDir, 'keybindings.json'), '{ "app.session.delete": ');
    const pty = startApp(home, [], { cols: 140, rows: 24 });
    await pty.waitForText('keybindings.json: not valid JSON, ignored');
    await pty.waitForText('alpha question');
    await pty.press(ctrl('d'));
    await pty.waitForText('Delete this session?');
    // Ctrl+C cancels the prompt (pi's escape / ctrl+c cancel), then quits from the list.
    await pty.press(PTY_KEYS.ctrlC);
    await pty.waitForText('Delete cancelled');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it.skipIf(noOtherUser !== undefined)(
    `an unreadable file (mode 000, run as uid ${OTHER_UID}): one line, own keys${noOtherUser ? ` — skipped: ${noOtherUser}` : ''}`,
    async () => {
      const home = makeHome();
      writeSession(session(), home.projectDir, 's.jsonl');
      const file = join(home.agentDir, 'keybindings.json');
      writeFileSync(file, JSON.stringify({ 'app.session.delete': 'ctrl+k' }));
      // The other user may read and write the home, except the keybindings file.
      chmodSync(home.root, 0o777);
      for (const dir of [
        join(home.root, 'work'),
        home.cwd,
        home.agentDir,
        home.sessionsRoot,
        home.projectDir,
        home.xdg,
        join(home.root, 'home'),
      ])
        chmodSync(dir, 0o777);
      chmodSync(file, 0o000);
      const id = String(OTHER_UID);
      const pty = startPty({
        command: 'setpriv',
        args: ['--reuid', id, '--regid', id, '--clear-groups', process.execPath, CLI_PATH],
        cwd: home.cwd,
        env: home.env,
        cols: 140,
        rows: 24,
        timeoutMs: E2E_WAIT_MS,
      });
      await pty.waitForText('keybindings.json: permission denied, ignored');
      await pty.waitForText('alpha question');
      await pty.press(ctrl('d'));
      await pty.waitForText('Delete this session?');
      await pty.press(PTY_KEYS.ctrlC);
      await pty.waitForText('Delete cancelled');
      await pty.press(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
    },
  );
});
