/**
 * `has:secret` in a real pty: typed a key at a time and in one write, the picker scans the scope
 * and keeps only the session holding a credential; the near miss and the plain session go. Started again on the same catalogue, the same query shows the same row
 * (its findings kept there, masked). In the check view (Alt+C), `s` shows only that session with
 * its finding masked, `s` again every file, and `?` lists the key. The secret itself is never on
 * the screen.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueFile } from '../../src/catalog/index.js';
import { SessionBuilder } from '../helpers/factory.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

/** Alt+C: the check view. */
const ALT_C = '\u001bc';
const TOKEN = fakeSecrets().find((s) => s.kind === 'GITHUB_TOKEN')!;

function store(): TestHome {
  const home = makeHome();
  const leaky = new SessionBuilder({ id: '0000000a-0000-7000-8000-000000000000', cwd: home.cwd });
  leaky.user('push the release branch');
  leaky.toolCall('bash', { command: 'git push' });
  leaky.toolResult('bash', `remote: using ${TOKEN.text}`);
  leaky.assistant('Pushed.');
  writeSession(leaky, home.projectDir, '2026-01-02T00-00-00-000Z_leaky.jsonl', 3);
  const near = new SessionBuilder({ id: '0000000b-0000-7000-8000-000000000000', cwd: home.cwd });
  near.user('what does a token like ghp_ look like');
  near.assistant('It starts with ghp_ and then random letters; an example is ghp_XXXX.');
  writeSession(near, home.projectDir, '2026-01-03T00-00-00-000Z_near.jsonl', 2);
  const plain = new SessionBuilder({ id: '0000000c-0000-7000-8000-000000000000', cwd: home.cwd });
  plain.user('rename the parser module');
  plain.assistant('Renamed.');
  writeSession(plain, home.projectDir, '2026-01-04T00-00-00-000Z_plain.jsonl', 1);
  home.env['XDG_CACHE_HOME'] = join(home.root, 'cache');
  return home;
}

const onlyLeaky = (s: string): boolean =>
  s.includes('> has:secret') &&
  s.includes('1/3') &&
  s.includes('push the release branch') &&
  !s.includes('rename the parser module') &&
  !s.includes('what does a token') &&
  !s.includes('scanning for secrets');

describe('has:secret in the picker', () => {
  for (const how of ['a key at a time', 'in one write'] as const) {
    it(
      `typed ${how}: only the session holding a credential stays, and again when started with --query has:secret on that catalogue`,
      async () => {
        const home = store();
        const pty = startApp(home, [], { cols: 120, rows: 20 });
        await pty.waitForText('rename the parser module');
        if (how === 'a key at a time') await pty.press(...'has:secret');
        else pty.write('has:secret');
        const screen = await waitForFrame(pty, onlyLeaky, 'only the leaky session');
        expect(screen).not.toContain(TOKEN.secret.slice(4));
        pty.write(PTY_KEYS.ctrlC);
        expect(await pty.waitForExit()).toBe(130);

        // The findings were kept in the catalogue as the scan reports them: masked.
        const catalogue = readFileSync(
          catalogueFile(join(home.root, 'cache', 'pi-sessions'), home.sessionsRoot),
          'latin1',
        );
        expect(catalogue).toContain('"kind":"GITHUB_TOKEN","masked":"ghp_************ (40 characters)"');

        const again = startApp(home, ['--query', 'has:secret'], { cols: 120, rows: 20 });
        await waitForFrame(again, onlyLeaky, 'only the leaky session, from the catalogue');
        again.write(PTY_KEYS.ctrlC);
        expect(await again.waitForExit()).toBe(130);
      },
      E2E_TEST_MS,
    );
  }

  for (const how of ['a key at a time', 'in one write'] as const)
    it(
      `the check view's s (pressed ${how} with the keys around it): only the session with a finding, masked; s again: every file`,
      async () => {
        const home = store();
        const pty = startApp(home, [], { cols: 120, rows: 30 });
        await pty.waitForText('rename the parser module');
        pty.write(ALT_C);
        await pty.waitForText('No problems in 3 files');
        if (how === 'a key at a time') await pty.press('s');
        else pty.write('s');
        const filtered = await waitForFrame(
          pty,
          (s) => s.includes('1 secret in 1 of 3 files') && s.includes('Check · secrets'),
          'the secrets filter',
        );
        expect(filtered).toMatch(
          /› push the release branch · 1 secret\n +\/.*_leaky\.jsonl\n +line 4 {2}entry 00000003 {2}GITHUB_TOKEN {2}ghp_\*{12} \(40 characters\)/,
        );
        expect(filtered).not.toContain('rename the parser module');
        expect(filtered).not.toContain(TOKEN.secret.slice(4));
        if (how === 'a key at a time') await pty.press('s', '?');
        else pty.write('s?');
        const help = await pty.waitForText('Check view keys');
        expect(help).toMatch(/\bs +Secrets: only the sessions the secret scan finds credentials in/);
        await pty.press(PTY_KEYS.escape);
        const all = await pty.waitForText('No problems in 3 files');
        expect(all).toContain('rename the parser module');
        pty.write(PTY_KEYS.ctrlC);
        expect(await pty.waitForExit()).toBe(130);
      },
      E2E_TEST_MS,
    );
});
