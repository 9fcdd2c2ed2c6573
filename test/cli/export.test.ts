/**
 * `pi-sessions export` as a user runs it (the built CLI): a secret stops the export (exit 1, each
 * finding masked on stderr, nothing written), `--redact` replaces it and the JSONL still loads in
 * pi with the same context but for the mask, `--keep-secrets` keeps it; `--out` never overwrites;
 * the format follows the file name; options that cannot go together are usage errors; stdout that
 * is a terminal is refused (session text would act on it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/cli/export.js';
import { resolveLocations } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';
import { openWithPi } from '../helpers/pi.js';
import { runCliAsync } from '../hostile/run.js';

function sessionWithSecrets() {
  const dir = tempDir('pi-sessions-export-cli-');
  const [aws, github] = [fakeSecrets()[0]!, fakeSecrets().find((s) => s.kind === 'GITHUB_TOKEN')!];
  const b = new SessionBuilder();
  b.user('deploy it');
  b.toolCall('bash', { command: `${aws.text} && ./deploy` });
  b.toolResult('bash', `pushed with ${github.text}`);
  const fork = b.assistant('Deployed.');
  b.branchFrom(fork).user('other branch');
  b.branchFrom(fork).assistant('the active one');
  const path = join(dir, '2026-01-05T09-00-00-000Z_s.jsonl');
  writeFileSync(path, b.text());
  return { dir, path, secrets: [aws, github] };
}

describe('pi-sessions export', () => {
  it('a secret stops it: exit 1, each one masked on stderr, nothing written', async () => {
    const { dir, path, secrets } = sessionWithSecrets();
    const out = join(dir, 'out.md');
    const run = await runCliAsync(['export', path, '--out', out]);
    // One line saying why, then the findings (a report, on stderr: stdout is the export's).
    expect(run.stderr).not.toMatch(/\n\s+at |node:internal|Error:/);
    expect(run.code).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^pi-sessions: not exported: 2 secrets in what would be exported \(masked here\):\n/);
    expect(run.stderr).toMatch(/^ {2}line 3 {2}entry 00000002 {2}AWSSecretAccessKey {2}\*+ \(40 characters\)$/m);
    expect(run.stderr).toMatch(/^ {2}line 4 {2}entry 00000003 {2}GITHUB_TOKEN {2}ghp_\*+ \(40 characters\)$/m);
    expect(run.stderr).toContain('--redact');
    for (const s of secrets) expect(run.stderr).not.toContain(s.secret.slice(6));
  });

  it('--redact: the marks instead of the secrets, every other byte of the branch as in a fork; pi loads it', async () => {
    const { dir, path, secrets } = sessionWithSecrets();
    const kept = join(dir, 'kept.jsonl');
    const redacted = join(dir, 'redacted.jsonl');
    expect((await runCliAsync(['export', path, '--out', kept, '--keep-secrets'])).code).toBe(0);
    const run = await runCliAsync(['export', path, '--out', redacted, '--redact']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Exported jsonl \(.+\) to .*redacted\.jsonl; 2 secrets redacted\.\n$/);
    const keptText = readFileSync(kept, 'utf8');
    const text = readFileSync(redacted, 'utf8');
    for (const s of secrets) {
      expect(keptText).toContain(s.secret);
      expect(text).not.toContain(s.secret);
      expect(text).toContain(`[REDACTED ${s.kind}]`);
    }
    // Same lines but the header (a new session id and time each export) and the masked spans.
    const unmask = (t: string): string[] =>
      t
        .split('\n')
        .slice(1)
        .map((line) => secrets.reduce((l, s) => l.replaceAll(`[REDACTED ${s.kind}]`, s.secret), line));
    expect(unmask(text)).toEqual(keptText.split('\n').slice(1));
    const pi = await openWithPi(redacted);
    const piKept = await openWithPi(kept);
    expect(pi.changedOnOpen).toBe(false);
    const messages = JSON.stringify(pi.manager.buildSessionContext().messages);
    const keptMessages = JSON.stringify(piKept.manager.buildSessionContext().messages);
    expect(secrets.reduce((m, s) => m.replaceAll(`[REDACTED ${s.kind}]`, s.secret), messages)).toBe(keptMessages);
  });

  it('Markdown and HTML to stdout, the format from the name or --format; --all-branches shows each branch', async () => {
    const { dir, path } = sessionWithSecrets();
    const md = await runCliAsync(['export', path, '--redact']);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^# deploy it\n/);
    expect(md.stdout).toContain('the active one');
    expect(md.stdout).not.toContain('other branch');
    const all = await runCliAsync(['export', path, '--redact', '--all-branches', '--format', 'md']);
    expect(all.stdout).toContain('## Branch 1 of 2 (active)');
    expect(all.stdout).toContain('## Branch 2 of 2\n\n_continues from entry 00000004_');
    expect(all.stdout).toContain('other branch');
    const out = join(dir, 'page.html');
    expect((await runCliAsync(['export', path, '--redact', '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!DOCTYPE html>/);
    const leaf = await runCliAsync(['export', path, '--redact', '--leaf', '00000005', '--format', 'html']);
    expect(leaf.stdout).toContain('other branch');
  });

  it('never overwrites; bad options are usage errors; a missing entry is one line', async () => {
    const { dir, path } = sessionWithSecrets();
    const out = join(dir, 'exists.md');
    writeFileSync(out, 'mine');
    const run = await runCliAsync(['export', path, '--redact', '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^pi-sessions: cannot write .*exists\.md: .*\n$/);
    expect(readFileSync(out, 'utf8')).toBe('mine');
    const both = await runCliAsync(['export', path, '--redact', '--keep-secrets']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^pi-sessions: --redact and --keep-secrets cannot be combined/);
    expect((await runCliAsync(['export', path, '--leaf', 'x', '--all-branches'])).code).toBe(2);
    const format = await runCliAsync(['export', path, '--format', 'pdf']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/^pi-sessions: unknown format "pdf": md, html or jsonl/);
    const missing = await runCliAsync(['export', path, '--leaf', 'nope', '--redact']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`pi-sessions: no entry nope in ${path}\n`);
  });

  it('refuses a terminal as stdout (session text would act on it); --out is fine', async () => {
    const { path } = sessionWithSecrets();
    const lines: string[] = [];
    const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), terminal: true };
    const locations = resolveLocations({ cwd: '/' });
    const result = await exportCommand(locations, path, { allBranches: false, redact: true, keepSecrets: false }, io);
    expect(result.code).toBe(2);
    expect(lines).toEqual([expect.stringMatching(/^pi-sessions: export writes session text as it is.*--out FILE/)]);
  });
});
