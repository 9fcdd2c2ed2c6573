/**
 * Open in pi from the tree, through the screen and the real store on a real file: it checks that
 * pi can start before writing anything (not on the PATH, the session's folder gone), writes
 * nothing when it cannot (the file's bytes are compared), and asks pi's missing-folder question.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { type TreeExit, TreeScreen } from '../../components/tree/TreeScreen.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { KEYS, renderInk } from '../helpers/ink.js';

const dir = tempDir('open-in-pi-');

function session(name: string): string {
  const b = new SessionBuilder({ cwd: '/gone/project' });
  b.user('first prompt');
  b.assistant('first answer');
  b.user('second prompt');
  b.assistant('second answer');
  return b.writeTo(join(dir, `${name}.jsonl`));
}

function mount(path: string, probe: { piFound(): boolean; folderExists(cwd: string): boolean }) {
  const exits: TreeExit[] = [];
  const app = renderInk(
    <InputRouter>
      <TreeScreen
        path={path}
        onBack={() => {}}
        onExit={(r) => exits.push(r)}
        live={false}
        here="/home/me/here"
        probe={probe}
      />
    </InputRouter>,
    { columns: 120, rows: 24 },
  );
  return { app, exits };
}

/** The action menu's "Open in pi" on the entry under the cursor. */
async function openInPiHere(app: ReturnType<typeof renderInk>): Promise<void> {
  await app.press(KEYS.enter);
  await app.waitFor('Open in pi');
  // Open in pi is the 7th item.
  await app.press(KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
}

/** Up to the first answer (not the leaf), then the action menu's "Open in pi". */
async function openInPiOnFirstAnswer(app: ReturnType<typeof renderInk>): Promise<void> {
  await app.waitFor('second answer');
  await app.press(KEYS.up, KEYS.up);
  await app.waitFor('› • assistant: first answer');
  await openInPiHere(app);
}

describe('Open in pi checks first', () => {
  test('pi not on the PATH: nothing is written, the screen says so with the command to run', async () => {
    const path = session('no-pi');
    const before = readFileSync(path);
    const { app, exits } = mount(path, { piFound: () => false, folderExists: () => true });
    await openInPiOnFirstAnswer(app);
    const frame = await app.waitFor('pi is not on your PATH');
    expect(frame).toContain('nothing was written');
    expect(frame).toContain('Resume from here, then run: cd /gone/project && pi --session');
    await app.settle();
    expect(exits).toEqual([]);
    expect(readFileSync(path).equals(before)).toBe(true);
    // The screen takes keys again.
    await app.press(KEYS.down);
    await app.waitFor('› • user: second prompt');
    app.unmount();
  });

  test("the session's folder is gone: pi's question; Cancel writes nothing; Fork hands over pi --fork in the current folder", async () => {
    const path = session('gone');
    const before = readFileSync(path);
    const first = mount(path, { piFound: () => true, folderExists: () => false });
    await openInPiOnFirstAnswer(first.app);
    const asked = await first.app.waitFor("The session's folder does not exist: /gone/project");
    expect(asked).toContain('Continue in /home/me/here (pi confirms once more, and asks again next time)');
    expect(asked).toContain('Fork into /home/me/here (new session ID, original kept)');
    expect(readFileSync(path).equals(before)).toBe(true);
    await first.app.press(KEYS.escape);
    await first.app.waitFor('Open in pi cancelled: nothing was written');
    expect(first.exits).toEqual([]);
    expect(readFileSync(path).equals(before)).toBe(true);
    first.app.unmount();

    const second = mount(path, { piFound: () => true, folderExists: () => false });
    await openInPiOnFirstAnswer(second.app);
    await second.app.waitFor('Fork into /home/me/here');
    await second.app.press(KEYS.down, KEYS.enter);
    await second.app.waitFor(() => second.exits.length > 0);
    expect(second.exits).toEqual([{ kind: 'resume', path, cwd: '/home/me/here', fork: true }]);
    // Chosen, so the leaf moved to the entry (one branch entry appended) before pi forks it.
    expect(readFileSync(path).length).toBeGreaterThan(before.length);
    expect(readFileSync(path).subarray(0, before.length).equals(before)).toBe(true);
    second.app.unmount();
  });

  test('the file deleted while the tree is open: Open in pi says so and exits nowhere (the real store notices)', async () => {
    const path = session('deleted');
    const { app, exits } = mount(path, { piFound: () => true, folderExists: () => true });
    await app.waitFor('second answer');
    rmSync(path);
    await openInPiHere(app);
    await app.waitFor('was deleted or moved since it was opened');
    await app.settle();
    expect(exits).toEqual([]);
    expect(existsSync(path)).toBe(false);
    app.unmount();
  });

  test('pi on the PATH and the folder there: opens in the session folder', async () => {
    const path = session('ok');
    const { app, exits } = mount(path, { piFound: () => true, folderExists: (cwd) => cwd === '/gone/project' });
    await app.waitFor('second answer');
    await openInPiHere(app);
    await app.waitFor(() => exits.length > 0);
    expect(exits).toEqual([{ kind: 'resume', path, cwd: '/gone/project' }]);
    app.unmount();
  });

  test('--print (inside pi): no checks, the caller opens it (pi asks its own folder question there)', async () => {
    const path = session('print');
    const exits: TreeExit[] = [];
    // No probe: the screen's own choice. /gone/project does not exist (and this machine has no pi on its PATH).
    const app = renderInk(
      <InputRouter>
        <TreeScreen
          path={path}
          onBack={() => {}}
          onExit={(r) => exits.push(r)}
          live={false}
          here="/home/me/here"
          printMode
        />
      </InputRouter>,
      { columns: 120, rows: 24 },
    );
    await app.waitFor('second answer');
    await openInPiHere(app);
    await app.waitFor(() => exits.length > 0);
    expect(exits).toEqual([{ kind: 'resume', path, cwd: '/gone/project' }]);
    app.unmount();
  });
});
