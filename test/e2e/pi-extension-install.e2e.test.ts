/**
 * pi-sessions installed into the real pi 1.6.0 as a user has it: a missing pi-sessions program
 * is one line in pi, which goes on, and `pi install DIR` from the npm tarball unpacked gives pi
 * /sessions without `-e`. How pi is run, and the Node 22 it needs: pi-tui.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/factory.js';
import { PTY_KEYS, REPO_ROOT } from '../helpers/pty.js';
import { withoutNpmVariables } from '../helpers/working-tree.js';
import { E2E_TEST_MS, makeHome } from './harness.js';
import {
  command,
  EXTENSION,
  expectPiHasTheTerminal,
  footer,
  nodeForPi,
  PI_CLI,
  startPi,
  twoSessions,
} from './pi-tui.js';

const nodeOrSkip = nodeForPi();

describe('pi-sessions inside pi 1.6.0', { timeout: E2E_TEST_MS }, () => {
  it('a missing pi-sessions program is one line in pi, which keeps running', async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const { alpha } = twoSessions(home);
    // An install whose CLI bundle is gone: the extension bundle alone in its folder.
    const bin = join(tempDir('pi-sessions-broken-'), 'bin');
    mkdirSync(bin);
    copyFileSync(EXTENSION, join(bin, 'pi-extension.js'));
    const pty = await startPi(node, home, alpha, 'alpha first prompt', join(bin, 'pi-extension.js'));
    await pty.waitForText(footer('Alpha current work'));

    await command(pty, '/sessions');
    const screen = await pty.waitForText('pi-sessions could not start: its program is missing');
    expect(screen.split('\n').filter((line) => line.includes('pi-sessions could not start'))).toHaveLength(1);
    await expectPiHasTheTerminal(pty, 'Alpha current work');
    await command(pty, '/sessions-tree');
    await pty.waitForScreen(
      (s) => s.split('\n').filter((line) => line.includes('pi-sessions could not start')).length === 2,
      'the second attempt says it again',
    );
    expect(pty.exitCode()).toBeUndefined();
  });
  it('installed with `pi install DIR` from the npm tarball unpacked (pi 1.6.0 cannot install a .tgz), pi has /sessions', async (ctx) => {
    const node = nodeOrSkip(ctx);
    const home = makeHome();
    const { alpha } = twoSessions(home);
    const work = join(home.root, 'package');
    mkdirSync(work, { recursive: true });
    // What the README tells a user to do with a tarball: unpack it, install its one runtime
    // dependency, and point pi at the folder. The bundles in bin/ are the ones just built.
    const npmEnv = {
      ...withoutNpmVariables(),
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: npmEnv,
      timeout: 120_000,
    });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
    execFileSync('tar', ['xzf', tarball, '-C', work]);
    const dir = join(work, 'package');
    const installed = spawnSync('npm', ['install', '--omit=dev', '--ignore-scripts'], {
      cwd: dir,
      encoding: 'utf8',
      env: npmEnv,
      timeout: 180_000,
    });
    expect(installed.status, installed.stderr).toBe(0);
    expect(existsSync(join(dir, 'node_modules', 'trash'))).toBe(true);
    const tmp = join(home.root, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const piEnv = { ...process.env, ...home.env, PI_OFFLINE: '1', TMPDIR: tmp };
    const install = spawnSync(node, [PI_CLI, 'install', dir], {
      cwd: home.cwd,
      encoding: 'utf8',
      env: piEnv,
      timeout: 120_000,
    });
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    const settings = JSON.parse(readFileSync(join(home.agentDir, 'settings.json'), 'utf8')) as { packages?: unknown[] };
    expect(JSON.stringify(settings.packages)).toContain('package');
    // pi started without -e: the extension comes from its settings.
    const pty = await startPi(node, home, alpha, 'alpha first prompt', null);
    await pty.waitForText(footer('Alpha current work'));
    await command(pty, '/sessions');
    await pty.waitForText('pi sessions 2/2');
    await pty.press(PTY_KEYS.escape);
    await expectPiHasTheTerminal(pty, 'Alpha current work');
  });
});
