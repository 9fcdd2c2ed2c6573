/**
 * The secret scan on a store seeded with realistic fake credentials of 15 kinds (16 credentials:
 * a GCP service-account key file among them), each in a different place of a session (user text,
 * assistant text, thinking, tool arguments, tool output, a compaction summary), and near misses
 * that are not secrets (placeholders, AWS's documented example pair, variables in place of a
 * password, UUIDs, git SHAs, base64 of plain text, a service-account file without its key): every
 * credential is found with its entry, line and kind, no near miss is, and no report (text or JSON)
 * ever holds a secret.
 */
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPlaceholder, maskSecret, readSessionSync, scanSession } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { type FakeSecret, fakeSecrets, NEAR_MISSES } from '../helpers/fake-secrets.js';
import { expectCleanRun, jsonOf, runCliAsync } from '../hostile/run.js';

const PLACES = ['user', 'assistant', 'thinking', 'toolArgs', 'toolOutput', 'summary'] as const;

/** A session holding `secret` in `place`; returns its file and the id of the entry holding it. */
function sessionWith(dir: string, index: number, secret: FakeSecret, place: (typeof PLACES)[number]) {
  const b = new SessionBuilder({ id: `019b0000-0000-7000-8000-0000000000${String(index).padStart(2, '0')}` });
  b.user('set up the deploy');
  b.assistant('Sure.');
  let holder: string;
  switch (place) {
    case 'user':
      holder = b.user(`here it is: ${secret.text}`);
      break;
    case 'assistant':
      holder = b.assistant(`I found this in the config:\n\n${secret.text}\n`);
      break;
    case 'thinking':
      holder = b.entry('message', {
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: `The user pasted ${secret.text}; I should not repeat it.` },
            { type: 'text', text: 'I will not repeat that.' },
          ],
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          stopReason: 'stop',
          timestamp: 1,
        },
      });
      break;
    case 'toolArgs':
      holder = b.toolCall('bash', { command: secret.text });
      b.toolResult('bash', 'ok');
      break;
    case 'toolOutput':
      b.toolCall('read', { path: '.env' });
      holder = b.toolResult('read', `# env\n${secret.text}\nDEBUG=1\n`);
      break;
    case 'summary':
      holder = b.compaction(`The user configured the deploy with ${secret.text}.`, b.leaf!);
      break;
  }
  b.assistant('Done.');
  const path = join(dir, `2026-01-05T09-00-${String(index).padStart(2, '0')}-000Z_${secret.kind}.jsonl`);
  writeFileSync(path, b.text());
  const line = b.lines.findIndex((l) => l.includes(`"id":"${holder}"`)) + 1;
  return { path, holder, line };
}

function seededStore() {
  const dir = tempDir('pi-sessions-secrets-');
  const secrets = fakeSecrets();
  const seeded = secrets.map((secret, i) => ({ secret, ...sessionWith(dir, i, secret, PLACES[i % PLACES.length]!) }));
  const near = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000ff' });
  for (const text of NEAR_MISSES) {
    near.user(text);
    near.toolCall('bash', { command: text });
    near.toolResult('bash', text);
    near.assistant(text);
  }
  // An image whose base64 data would look like keys is not text.
  near.user([{ type: 'image', mimeType: 'image/png', data: Buffer.from(fakeSecrets()[1]!.secret).toString('base64') }]);
  const nearPath = join(dir, '2026-01-05T09-59-00-000Z_near-misses.jsonl');
  writeFileSync(nearPath, near.text());
  return { dir, secrets, seeded, nearPath };
}

describe('the secret scan', () => {
  it('finds every fake credential (15 kinds, six places) with its entry, line and kind, and no near miss', async () => {
    const { seeded, nearPath, secrets } = seededStore();
    expect(new Set(secrets.map((s) => s.kind)).size).toBeGreaterThanOrEqual(10);
    for (const { secret, path, holder, line } of seeded) {
      const session = readSessionSync(path);
      if (!session.ok) throw new Error(session.message);
      const scan = await scanSession(session);
      expect(
        scan.findings.map((f) => [f.kind, f.entryId, f.line]),
        secret.kind,
      ).toEqual([[secret.kind, holder, line]]);
      // What redaction replaces: the credential (a URL rule may take a sentence's full stop with it).
      const [found, ...more] = [...scan.secrets];
      expect(more).toEqual([]);
      expect(found![0], secret.kind).toContain(secret.secret);
      expect(found![0].length, secret.kind).toBeLessThanOrEqual(secret.secret.length + 1);
      expect(found![1]).toBe(`[REDACTED ${secret.kind}]`);
      expect(scan.findings[0]!.masked).not.toContain(secret.secret.slice(4, 12));
    }
    const near = readSessionSync(nearPath);
    if (!near.ok) throw new Error(near.message);
    expect((await scanSession(near)).findings).toEqual([]);
  });

  it('a secretlint-disable comment in a session does not hide the secret beside it', async () => {
    const dir = tempDir('pi-sessions-secrets-');
    const secret = fakeSecrets().find((s) => s.kind === 'GITHUB_TOKEN')!;
    const b = new SessionBuilder();
    b.user(`// secretlint-disable\n${secret.text}\n// secretlint-enable`);
    const path = join(dir, 's.jsonl');
    writeFileSync(path, b.text());
    const session = readSessionSync(path);
    if (!session.ok) throw new Error(session.message);
    expect((await scanSession(session)).findings.map((f) => f.kind)).toEqual(['GITHUB_TOKEN']);
  });

  it('a placeholder (a prefix, then one character over and over) is no secret; a key is', () => {
    for (const placeholder of [
      'ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
      'sk-proj-xxxxxxxxxxxxxxxx',
      'npm_0000000000000000',
    ])
      expect(isPlaceholder(placeholder), placeholder).toBe(true);
    for (const { secret } of fakeSecrets()) expect(isPlaceholder(secret), secret.slice(0, 12)).toBe(false);
    // Too short to say, or two characters: left to the rules.
    expect(isPlaceholder('ghp_XXXX')).toBe(false);
    expect(isPlaceholder('ghp_XYXYXYXYXYXYXYXYXYXY')).toBe(false);
  });

  it('masks keep at most a telling prefix and the length', () => {
    expect(maskSecret('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('ghp_************ (40 characters)');
    expect(maskSecret('hunter2hunter2')).toBe('************ (14 characters)');
    expect(maskSecret('wJalrXUtnFEMIK7MDENGbPxRfiCYzQ3mK8vL2s1x')).toBe('************ (40 characters)');
    expect(maskSecret('postgres://app:S3cr3tPassw0rd@db/prod')).toBe('postgres:************ (37 characters)');
  });

  it('check --secrets: every file with a secret, each finding masked, exit 1; --json the same; no secret printed', async () => {
    const { dir, secrets, seeded, nearPath } = seededStore();
    const run = await runCliAsync(['check', '--secrets', '--session-dir', dir]);
    expectCleanRun(run, 'check --secrets');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`pi-sessions: check found secrets in ${seeded.length} files\n`);
    for (const { path, holder, line, secret } of seeded) {
      expect(run.stdout).toContain(`${path}\n  line ${line}  entry ${holder}  ${secret.kind}  `);
    }
    expect(run.stdout).not.toContain(nearPath);
    expect(run.stdout).toMatch(
      new RegExp(`^${seeded.length} secrets in ${seeded.length} of ${seeded.length + 1} files in `, 'm'),
    );
    const json = await runCliAsync(['check', '--secrets', '--json', '--session-dir', dir]);
    expect(json.code).toBe(1);
    const report = jsonOf(json) as { secretCount: number; files: { path: string; findings: { kind: string }[] }[] };
    expect(report.secretCount).toBe(seeded.length);
    expect(report.files.map((f) => f.findings[0]!.kind).sort()).toEqual(secrets.map((s) => s.kind).sort());
    for (const { secret } of seeded) {
      // The private key's body, a token's random part: never in any output.
      // (A key in JSON, GCP's, has `\n` escapes for its line breaks.)
      const core = secret.secret.includes('PRIVATE KEY') ? secret.secret.split(/\n|\\n/)[2]! : secret.secret.slice(8);
      for (const text of [run.stdout, run.stderr, json.stdout, json.stderr]) expect(text).not.toContain(core);
    }
    const clean = await runCliAsync(['check', '--secrets', nearPath]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe(`No secrets in 1 file in ${nearPath}.\n`);
  });

  it('check --secrets twice: the warm run answers from the catalogue and prints exactly what the cold one did', async () => {
    const { dir, seeded } = seededStore();
    // An hour old: a file modified moments before its scan is never kept (it may change unseen).
    const hourAgo = (Date.now() - 3600_000) / 1000;
    for (const name of readdirSync(dir)) utimesSync(join(dir, name), hourAgo, hourAgo);
    const env = { XDG_CACHE_HOME: tempDir('pi-sessions-secrets-cache-') };
    const args = ['check', '--secrets', '--session-dir', dir];
    const cold = await runCliAsync(args, { env });
    expectCleanRun(cold, 'check --secrets (cold)');
    expect(cold.code).toBe(1);
    expect(existsSync(join(env.XDG_CACHE_HOME, 'pi-sessions'))).toBe(true);
    // The secret of one file overwritten in place, keeping its size, inode and mtime: the warm run
    // still reports it, so it did not read the file (the catalogue answered, as its listing does).
    const { path, secret } = seeded[1]!;
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(secret.secret, 'x'.repeat(secret.secret.length)));
    utimesSync(path, hourAgo, hourAgo);
    const warm = await runCliAsync(args, { env });
    expect({ code: warm.code, stdout: warm.stdout, stderr: warm.stderr }).toEqual({
      code: cold.code,
      stdout: cold.stdout,
      stderr: cold.stderr,
    });
    const warmJson = await runCliAsync([...args, '--json'], { env });
    const noCache = tempDir('pi-sessions-secrets-nocache-');
    const coldJson = await runCliAsync([...args, '--json', '--no-cache'], { env: { XDG_CACHE_HOME: noCache } });
    // --no-cache reads every file (so it sees the overwrite) and leaves no catalogue.
    expect(jsonOf(coldJson)).toMatchObject({ secretCount: seeded.length - 1 });
    expect(existsSync(join(noCache, 'pi-sessions'))).toBe(false);
    expect(jsonOf(warmJson)).toMatchObject({ secretCount: seeded.length });
  });
});
