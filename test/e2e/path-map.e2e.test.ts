/**
 * A store written on a Mac (every cwd under /Users/ana, a fork's parentSession too) synced to
 * this machine's ~/.pi/agent, where the project is ~/code/app: without a mapping "this folder"
 * finds nothing, and the fork does not nest; with `map-path /Users/ana ~` (pi-sessions.json) the
 * picker behaves as it did on the Mac: this folder (and sub-folders) lists the project's
 * sessions, the fork nests under its parent, the preview says they were written on ana-mac,
 * `host:` finds them, and Enter starts pi (a stand-in that records its folder) in ~/code/app
 * without pi's missing-folder question.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeCwd } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { CLI_PATH, PTY_KEYS, startPty } from '../helpers/pty.js';
import { E2E_TEST_MS, E2E_WAIT_MS, expectRestored, waitForFrame, writeSession } from './harness.js';

/** Ctrl+O: the preview pane. */
const CTRL_O = '\u000f';
const MAC_HOME = '/Users/ana';
const MAC_APP = `${MAC_HOME}/code/app`;

interface Machine {
  home: string;
  app: string;
  agentDir: string;
  parent: string;
  fork: string;
  ran: string;
  env: Record<string, string>;
}

/** This machine: ~/code/app exists, and ~/.pi/agent holds the Mac's store as the sync tool left it. */
function linuxMachine(): Machine {
  const root = tempDir('pi-sessions-path-map-');
  const home = join(root, 'home', 'ana');
  const app = join(home, 'code', 'app');
  const agentDir = join(home, '.pi', 'agent');
  const macDir = join(agentDir, 'sessions', encodeCwd(MAC_APP));
  for (const dir of [app, macDir]) mkdirSync(dir, { recursive: true });
  const parentBuilder = new SessionBuilder({ cwd: MAC_APP, id: '019b0000-0000-7000-8000-0000000000a1' });
  parentBuilder.user('design the mac importer');
  parentBuilder.assistant('Here is a plan for the importer');
  const parent = writeSession(parentBuilder, macDir, '2026-01-05T09-00-00-000Z_parent.jsonl', 30);
  const forkBuilder = new SessionBuilder({
    cwd: MAC_APP,
    id: '019b0000-0000-7000-8000-0000000000b2',
    // Where the file was on the Mac.
    parentSession: `${MAC_HOME}/.pi/agent/sessions/${encodeCwd(MAC_APP)}/2026-01-05T09-00-00-000Z_parent.jsonl`,
  });
  forkBuilder.user('design the mac importer');
  forkBuilder.assistant('Here is a plan for the importer');
  forkBuilder.user('branch off to the exporter');
  forkBuilder.assistant('Exporter notes');
  const fork = writeSession(forkBuilder, macDir, '2026-01-06T09-00-00-000Z_fork.jsonl', 20);
  // A session of another project between them in time: the fork only sits under its parent when nested.
  const otherBuilder = new SessionBuilder({ cwd: MAC_APP, id: '019b0000-0000-7000-8000-0000000000c3' });
  otherBuilder.user('unrelated chore in the app');
  otherBuilder.assistant('done');
  writeSession(otherBuilder, macDir, '2026-01-06T08-00-00-000Z_other.jsonl', 25);

  const bin = join(root, 'fake-bin');
  mkdirSync(bin);
  const ran = join(root, 'pi-ran');
  writeFileSync(join(bin, 'pi'), `#!/bin/sh\n{ pwd; for a in "$@"; do echo "$a"; done; } > '${ran}'\n`);
  chmodSync(join(bin, 'pi'), 0o755);
  const env = {
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_DATA_HOME: join(root, 'xdg'),
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_STATE_HOME: join(root, 'state'),
    PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
  };
  return { home, app, agentDir, parent, fork, ran, env };
}

function start(machine: Machine, args: string[] = []) {
  return startPty({
    timeoutMs: E2E_WAIT_MS,
    args,
    cwd: machine.app,
    env: machine.env,
    cols: 150,
    rows: 30,
  });
}

/** The list rows that hold one of these prompts, top to bottom. */
function rowsOf(screen: string, prompts: string[]): string[] {
  return screen.split('\n').filter((line) => prompts.some((p) => line.includes(p)));
}

describe('a store from another machine, with its paths mapped', { timeout: E2E_TEST_MS }, () => {
  it('this folder, threaded nesting, the host and resume behave as on the original machine', async () => {
    const machine = linuxMachine();

    // Unmapped: nothing here is "this folder"; in all projects the fork does not nest, and Enter
    // asks pi's missing-folder question.
    const prompts = ['design the mac importer', 'unrelated chore'];
    const before = start(machine);
    await before.waitForText('No sessions for this folder');
    await before.press(PTY_KEYS.tab, PTY_KEYS.tab);
    const all = await waitForFrame(before, (screen) => rowsOf(screen, prompts).length === 3, 'all projects');
    expect(rowsOf(all, prompts).some((row) => row.includes('└─'))).toBe(false);
    await before.press(PTY_KEYS.enter);
    await before.waitForText(`The session's folder does not exist: ${MAC_APP}`);
    await before.press(PTY_KEYS.escape);
    await before.waitForText('Resume cancelled');
    await before.press(PTY_KEYS.escape);
    expect(await before.waitForExit()).toBe(0);

    const map = startPty({
      timeoutMs: E2E_WAIT_MS,
      command: process.execPath,
      args: [CLI_PATH, 'map-path', MAC_HOME, machine.home, '--host', 'ana-mac'],
      cwd: machine.app,
      env: machine.env,
      cols: 150,
      rows: 10,
    });
    expect(await map.waitForExit()).toBe(0);
    expect(JSON.parse(readFileSync(join(machine.agentDir, 'pi-sessions.json'), 'utf8'))).toEqual({
      pathMap: [{ from: MAC_HOME, to: machine.home, host: 'ana-mac' }],
    });

    const pty = start(machine);
    const listed = await waitForFrame(
      pty,
      (screen) => rowsOf(screen, prompts).length === 3,
      'the three sessions of this folder',
    );
    expect(listed).toContain('this folder');
    // Threaded: the parent, the fork (its copy of the parent's first prompt is its title) right
    // under it as its child, then the other session.
    const rows = rowsOf(listed, prompts);
    expect(rows[0]).toContain('design the mac importer');
    expect(rows[0]).not.toContain('└─');
    expect(rows[1]).toMatch(/└─ design the mac importer/);
    expect(rows[2]).toContain('unrelated chore');

    // The preview: where it was written, and where its folder is here.
    await pty.press(CTRL_O);
    const preview = await pty.waitForText('Written  on ana-mac');
    expect(preview).toContain(`${MAC_APP} → ~/code/app`);
    await pty.press(CTRL_O);

    // host: finds them, typed in one write; another host finds none.
    await pty.write('host:ana-mac');
    await waitForFrame(
      pty,
      (screen) => screen.includes('host:ana-mac') && rowsOf(screen, prompts).length === 3,
      'host:',
    );
    for (let i = 0; i < 'ana-mac'.length; i++) await pty.press(PTY_KEYS.backspace);
    await pty.write('x');
    await waitForFrame(pty, (screen) => rowsOf(screen, prompts).length === 0, 'host:x matches nothing');
    for (let i = 0; i < 'host:x'.length; i++) await pty.press(PTY_KEYS.backspace);
    await waitForFrame(pty, (screen) => rowsOf(screen, prompts).length === 3, 'the search cleared');

    // Sub-folders too (Tab), then back to this folder (Tab twice more).
    await pty.press(PTY_KEYS.tab);
    await waitForFrame(
      pty,
      (screen) => screen.includes('this folder and sub-folders') && rowsOf(screen, prompts).length === 3,
      'this folder and sub-folders',
    );
    await pty.press(PTY_KEYS.tab);
    await pty.press(PTY_KEYS.tab);
    await waitForFrame(
      pty,
      (screen) => !screen.includes('sub-folders') && rowsOf(screen, prompts).length === 3,
      'this folder again',
    );

    // Enter on the parent: pi starts in ~/code/app, no missing-folder question.
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(0);
    expectRestored(pty);
    expect(pty.screen()).not.toContain('does not exist');
    expect(readFileSync(machine.ran, 'utf8')).toBe(`${machine.app}\n--session\n${machine.parent}\n`);
  });

  it('a broken pi-sessions.json: one line in the status, and the picker runs without the mappings', async () => {
    const machine = linuxMachine();
    writeFileSync(join(machine.agentDir, 'pi-sessions.json'), '{"pathMap": [{"from": "/Users/ana",');
    const pty = start(machine);
    const screen = await waitForFrame(
      pty,
      (text) => text.includes('not valid JSON, ignored') && text.includes('No sessions for this folder'),
      'the warning over the empty list',
    );
    expect(screen).toContain(join(machine.agentDir, 'pi-sessions.json'));
    expect(screen).not.toMatch(/Error|at .*\.js/);
    await pty.press(PTY_KEYS.escape);
    expect(await pty.waitForExit()).toBe(0);
  });

  it('the tree of a mapped session: Open in pi starts pi in the mapped folder', async () => {
    const machine = linuxMachine();
    writeFileSync(
      join(machine.agentDir, 'pi-sessions.json'),
      JSON.stringify({ pathMap: [{ from: MAC_HOME, to: machine.home }] }),
    );
    const pty = start(machine, ['tree', machine.fork]);
    await pty.waitForText('branch off to the exporter');
    await pty.press(PTY_KEYS.enter);
    await pty.waitForText('❯ Resume from here');
    // One move at a time, each seen before the next (a key typed before the menu subscribes is lost).
    for (let i = 0; i < 10 && !pty.screen().includes('❯ Open in pi'); i++) {
      const before = pty.screen();
      await pty.press(PTY_KEYS.down);
      await pty.waitForScreen((screen) => screen !== before, 'the highlight moved', 500).catch(() => undefined);
    }
    await pty.waitForText('❯ Open in pi');
    await pty.press(PTY_KEYS.enter);
    expect(await pty.waitForExit()).toBe(0);
    expect(pty.screen()).not.toContain('does not exist');
    expect(readFileSync(machine.ran, 'utf8')).toBe(`${machine.app}\n--session\n${machine.fork}\n`);
  });
});
