/**
 * secretlint is loaded only when a scan runs: the CLI bundle holds none of its code (its rules are
 * a bundle of their own, bin/pi-sessions-secretlint.js, reached by one dynamic import), and a copy
 * of the CLI bundle without that file starts and lists sessions, and fails only when asked to scan.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

const SECRETLINT = join(REPO_ROOT, 'bin', 'pi-sessions-secretlint.js');

/** Strings only secretlint's code holds: rule ids of its preset, its core's messages, the PEM rule's pattern. */
const SECRETLINT_MARKERS = [
  '@secretlint/secretlint-rule-aws',
  '@secretlint/secretlint-rule-privatekey',
  '@secretlint/secretlint-rule-github',
  '@secretlint/core',
  'PRIVATE KEY(?: BLOCK)?-----',
];

describe('secretlint is loaded only when a scan runs', () => {
  it('the CLI bundle holds none of its code and imports it in one place, dynamically; its own bundle holds it', () => {
    const cli = readFileSync(CLI, 'utf8');
    const rules = readFileSync(SECRETLINT, 'utf8');
    for (const marker of SECRETLINT_MARKERS) {
      expect(cli, marker).not.toContain(marker);
      expect(rules, marker).toContain(marker);
    }
    expect(cli.match(/pi-sessions-secretlint\.js/g)).toEqual(['pi-sessions-secretlint.js']);
    expect(cli).toContain('import("./pi-sessions-secretlint.js")');
    // The rules bundle is the weight the CLI no longer parses at start-up (~350 KB of the 1.4 MB
    // one bundle of both was): a rules bundle of a few bytes would mean the split moved nothing.
    expect(rules.length).toBeGreaterThan(250_000);
  });

  it('a CLI without the secretlint bundle starts and lists sessions; only a scan needs it', () => {
    const dir = tempDir('pi-sessions-lazy-secretlint-');
    const b = new SessionBuilder({ cwd: dir });
    b.user(`deploy with ${fakeSecrets().find((s) => s.kind === 'GITHUB_TOKEN')!.text}`);
    b.assistant('ok');
    const session = join(dir, '2026-01-05T09-00-00-000Z_s.jsonl');
    writeFileSync(session, b.text());
    const run = (cli: string, args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    const alone = join(dir, 'pi-sessions.js');
    copyFileSync(CLI, alone);
    const list = run(alone, ['list', '--session-dir', dir, '--json', '--no-cache']);
    expect({ status: list.status, stderr: list.stderr }).toEqual({ status: 0, stderr: '' });
    expect((JSON.parse(list.stdout) as { sessions: unknown[] }).sessions).toHaveLength(1);
    // The copy really lacks it: a scan is where it is loaded (and says so in one line).
    const lacking = run(alone, ['check', '--secrets', '--no-cache', session]);
    expect(lacking.status).toBe(1);
    expect(lacking.stderr).toContain('pi-sessions-secretlint.js');
    // Beside it, the scan runs.
    copyFileSync(SECRETLINT, join(dir, 'pi-sessions-secretlint.js'));
    const scanned = run(alone, ['check', '--secrets', '--no-cache', session]);
    expect(scanned.status).toBe(1);
    expect(scanned.stdout).toContain('GITHUB_TOKEN');
  });
});
