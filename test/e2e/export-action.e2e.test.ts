/**
 * The picker's Export in a real pty: Alt+E asks the format, then the path (a new file named after
 * the session in the folder the app runs in), scans what would be exported and, finding a
 * credential, asks; Enter (the default) redacts it, the second choice keeps it. A session without
 * secrets is written at once. Keys pressed one at a time and sent in one write do the same; the
 * secret is never on the screen. The tree exports the branch to the selected entry the same way.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder } from '../helpers/factory.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';
import { PTY_KEYS } from '../helpers/pty.js';
import { E2E_TEST_MS, makeHome, startApp, type TestHome, waitForFrame, writeSession } from './harness.js';

const ALT_E = '\u001be';
const TOKEN = fakeSecrets().find((s) => s.kind === 'GITHUB_TOKEN')!;

function store(): TestHome {
  const home = makeHome();
  const leaky = new SessionBuilder({ id: '0000000a-0000-7000-8000-000000000000', cwd: home.cwd });
  leaky.user('push the release branch');
  leaky.toolCall('bash', { command: 'git push' });
  leaky.toolResult('bash', `remote: using ${TOKEN.text}`);
  leaky.assistant('Pushed the release.');
  writeSession(leaky, home.projectDir, '2026-01-04T00-00-00-000Z_leaky.jsonl', 1);
  const plain = new SessionBuilder({ id: '0000000c-0000-7000-8000-000000000000', cwd: home.cwd });
  plain.user('rename the parser module');
  plain.assistant('Renamed it.');
  writeSession(plain, home.projectDir, '2026-01-02T00-00-00-000Z_plain.jsonl', 3);
  home.env['XDG_CACHE_HOME'] = join(home.root, 'cache');
  return home;
}

describe('Export in the picker', () => {
  for (const how of ['one key at a time', 'in one write'] as const)
    it(
      `Markdown with the secret redacted (the default), HTML keeping it, keys ${how}`,
      async () => {
        const home = store();
        const pty = startApp(home, [], { cols: 120, rows: 24 });
        await pty.waitForText('push the release branch');
        const send = async (...keys: string[]): Promise<void> => {
          if (how === 'one key at a time') await pty.press(...keys);
          else pty.write(keys.join(''));
        };
        // Markdown (the first format), the default path, then Enter on the secrets menu: redact.
        await send(ALT_E, PTY_KEYS.enter, PTY_KEYS.enter);
        const asked = await waitForFrame(
          pty,
          (s) => s.includes('1 secret in what would be exported (GITHUB_TOKEN): redact them?'),
          'the secrets menu',
        );
        expect(asked).toMatch(/❯ Redact them: each becomes \[REDACTED kind\] in the export/);
        expect(asked).not.toContain(TOKEN.secret.slice(4));
        await send(PTY_KEYS.enter);
        const md = join(home.cwd, 'pi-session-0000000a.md');
        await pty.waitForText(`Exported md`);
        expect(pty.screen()).toMatch(/1 secret redacted/);
        const text = readFileSync(md, 'utf8');
        expect(text).toContain('[REDACTED GITHUB_TOKEN]');
        expect(text).toContain('Pushed the release.');
        expect(text).not.toContain(TOKEN.secret);

        // HTML (the second format), the default path, then the second choice: keep.
        await send(ALT_E, PTY_KEYS.down, PTY_KEYS.enter, PTY_KEYS.enter);
        await waitForFrame(pty, (s) => s.includes('redact them?'), 'the secrets menu again');
        await send(PTY_KEYS.down, PTY_KEYS.enter);
        await pty.waitForText('Exported html');
        expect(pty.screen()).toMatch(/1 secret kept as they are/);
        expect(readFileSync(join(home.cwd, 'pi-session-0000000a.html'), 'utf8')).toContain(TOKEN.secret);

        // The same export again: the file exists, so nothing is overwritten. In one write, an Enter
        // typed ahead lands while the export is scanned and is swallowed (it must not resume the
        // session under the dialog); one at a time, each key waits for the screen, so none is extra.
        if (how === 'in one write') pty.write(ALT_E + PTY_KEYS.enter + PTY_KEYS.enter + PTY_KEYS.enter);
        else await pty.press(ALT_E, PTY_KEYS.enter, PTY_KEYS.enter);
        await waitForFrame(pty, (s) => s.includes('redact them?'), 'the secrets menu');
        await send(PTY_KEYS.enter);
        await pty.waitForText('Not exported: cannot write');
        pty.write(PTY_KEYS.ctrlC);
        expect(await pty.waitForExit()).toBe(130);
      },
      E2E_TEST_MS,
    );

  it(
    'a session without secrets is written at once; Esc in the menu exports nothing',
    async () => {
      const home = store();
      const pty = startApp(home, [], { cols: 120, rows: 24 });
      await pty.waitForText('rename the parser module');
      await pty.press(PTY_KEYS.down, ALT_E);
      await pty.waitForText('Export the active branch of “rename the parser module” as:');
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText('Nothing was exported');
      await pty.press(ALT_E, PTY_KEYS.down, PTY_KEYS.down, PTY_KEYS.enter);
      await pty.waitForText('pi-session-0000000c.jsonl');
      await pty.press(PTY_KEYS.enter);
      await pty.waitForText('Exported jsonl');
      const jsonl = join(home.cwd, 'pi-session-0000000c.jsonl');
      expect(existsSync(jsonl)).toBe(true);
      expect(readFileSync(jsonl, 'utf8')).toContain('Renamed it.');
      pty.write(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
    },
    E2E_TEST_MS,
  );
});

/** A session whose credential is on the branch to “Staging is deployed.”, with two entries after it. */
function treeStore(): { home: TestHome; path: string } {
  const home = makeHome();
  const b = new SessionBuilder({ id: '0000000b-0000-7000-8000-000000000000', cwd: home.cwd });
  b.user('deploy the staging stack');
  b.toolCall('bash', { command: 'cat .env' });
  b.toolResult('bash', `# env\n${TOKEN.text}\n`);
  b.assistant('Staging is deployed.');
  b.user('now tear down the old stack');
  b.assistant('Tore the old stack down.');
  const path = writeSession(b, home.projectDir, '2026-01-05T00-00-00-000Z_tree.jsonl', 1);
  home.env['XDG_CACHE_HOME'] = join(home.root, 'cache');
  return { home, path };
}

describe('Export in the tree', () => {
  for (const how of ['one key at a time', 'in one write'] as const)
    it(
      `the branch to the selected entry, its secret redacted by default, keys ${how}`,
      async () => {
        const { home, path } = treeStore();
        const pty = startApp(home, ['tree', path], { cols: 200, rows: 24 });
        await pty.waitForText('Tore the old stack down.');
        const send = async (...keys: string[]): Promise<void> => {
          if (how === 'one key at a time') await pty.press(...keys);
          else pty.write(keys.join(''));
        };
        // 200 columns: the status line holds the temp folder's long path and the note after it.
        // The search puts the cursor on the entry; Alt+E there, Markdown (the first format), the default path.
        await send(...'Staging is');
        await pty.waitForText('Search: Staging is');
        await send(ALT_E);
        await pty.waitForText('Export the branch from the root to “assistant: Staging is deployed.” as:');
        await send(PTY_KEYS.enter);
        await pty.waitForText('pi-session-0000000b-00000004.md');
        await send(PTY_KEYS.enter);
        const asked = await waitForFrame(
          pty,
          (s) => s.includes('1 secret in what would be exported (GITHUB_TOKEN): redact them?'),
          'the secrets menu',
        );
        expect(asked).toMatch(/❯ Redact them: each becomes \[REDACTED kind\] in the export/);
        expect(asked).not.toContain(TOKEN.secret.slice(4));
        await send(PTY_KEYS.enter);
        await pty.waitForText('Exported md');
        expect(pty.screen()).toMatch(/1 secret redacted/);
        const text = readFileSync(join(home.cwd, 'pi-session-0000000b-00000004.md'), 'utf8');
        expect(text).toContain('[REDACTED GITHUB_TOKEN]');
        expect(text).toContain('deploy the staging stack');
        expect(text).toContain('Staging is deployed.');
        // The branch ends at the selected entry: what came after it is not exported.
        expect(text).not.toContain('tear down');
        expect(text).not.toContain(TOKEN.secret);
        // The session itself is untouched.
        expect(readFileSync(path, 'utf8')).toContain(TOKEN.secret);
        pty.write(PTY_KEYS.ctrlC);
        expect(await pty.waitForExit()).toBe(130);
      },
      E2E_TEST_MS,
    );

  it(
    'from the entry menu, JSONL of the branch to the leaf, redacted; Esc in the format menu exports nothing',
    async () => {
      const { home, path } = treeStore();
      const pty = startApp(home, ['tree', path], { cols: 120, rows: 24 });
      await pty.waitForText('Tore the old stack down.');
      await pty.press(ALT_E);
      await pty.waitForText('Export the branch from the root to');
      await pty.press(PTY_KEYS.escape);
      await pty.waitForText('Nothing was exported');
      // Enter opens the entry menu on the leaf; Export is its second-to-last choice.
      await pty.press(PTY_KEYS.enter);
      await pty.waitForText('Export the branch to here…');
      await pty.press(PTY_KEYS.up, PTY_KEYS.up, PTY_KEYS.enter);
      await pty.waitForText('Export the branch from the root to “assistant: Tore the old stack down.” as:');
      await pty.press(PTY_KEYS.down, PTY_KEYS.down, PTY_KEYS.enter);
      await pty.waitForText('pi-session-0000000b-00000006.jsonl');
      await pty.press(PTY_KEYS.enter);
      await waitForFrame(pty, (s) => s.includes('redact them?'), 'the secrets menu');
      await pty.press(PTY_KEYS.enter);
      await pty.waitForText('Exported jsonl');
      const jsonl = readFileSync(join(home.cwd, 'pi-session-0000000b-00000006.jsonl'), 'utf8');
      expect(jsonl).toContain('Tore the old stack down.');
      expect(jsonl).toContain('[REDACTED GITHUB_TOKEN]');
      expect(jsonl).not.toContain(TOKEN.secret);
      pty.write(PTY_KEYS.ctrlC);
      expect(await pty.waitForExit()).toBe(130);
    },
    E2E_TEST_MS,
  );
});
