/**
 * pi's `treeFilterMode` setting opens the tree with pi's filter, global then project,
 * in a real pty.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, writeSession } from './harness.js';

function session(): SessionBuilder {
  const b = new SessionBuilder();
  b.user('first question');
  b.assistant('first answer');
  b.user('second question');
  return b;
}

describe("pi's treeFilterMode", { timeout: E2E_TEST_MS }, () => {
  it('the global setting, then the project one on top, set the filter the tree opens with', async () => {
    const home = makeHome();
    const path = writeSession(session(), home.projectDir, 's.jsonl');
    writeFileSync(join(home.agentDir, 'settings.json'), JSON.stringify({ treeFilterMode: 'all' }));
    let pty = startApp(home, ['tree', path], { cols: 100, rows: 20 });
    await pty.waitForText('[all]');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);

    mkdirSync(join(home.cwd, '.pi'), { recursive: true });
    writeFileSync(join(home.cwd, '.pi', 'settings.json'), JSON.stringify({ treeFilterMode: 'user-only' }));
    pty = startApp(home, ['tree', path], { cols: 100, rows: 20 });
    const screen = await pty.waitForText('[user]');
    expect(screen).toContain('second question');
    expect(screen).not.toContain('first answer');
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });
});
