/**
 * `pi-sessions redact` as a user runs it (each run a new process, so undo works across a restart),
 * on a session seeded with fake credentials of several kinds and a line of invalid UTF-8: the copy
 * keeps the session id, every entry id and every line without a secret byte for byte, pi 1.6.0
 * loads it with the same context except for the masked spans, the original is in the trash (the
 * message says it still holds the secrets), one undo restores it byte for byte, redo redacts again.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactBytes } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';
import { openWithPi } from '../helpers/pi.js';

function setup() {
  // One of each kind (the masks name the kind: the test puts each secret back by it).
  const secrets = ['GITHUB_TOKEN', 'PrivateKey', 'OPENAI_TOKEN', 'PostgreSQLConnection', 'AWSSecretAccessKey'].map(
    (kind) => fakeSecrets().find((s) => s.kind === kind)!,
  );
  const b = new SessionBuilder();
  b.user('set up the deploy');
  b.toolCall('bash', { command: `echo ${secrets[0]!.text}` });
  b.toolResult(
    'bash',
    secrets
      .slice(1, 3)
      .map((s) => s.text)
      .join('\n'),
  );
  const a = b.assistant(`Use ${secrets[3]!.text} and never ${secrets[4]!.text}`);
  b.label(a, 'deploy');
  b.user('thanks, café ☕');
  b.assistant('You are welcome.');
  const root = tempDir();
  const dir = join(root, 'agent', 'sessions', '--proj--');
  const file = b.writeTo(join(dir, '2026-01-05T09-00-00-000Z_s.jsonl'));
  // A line pi skips, with bytes that are not UTF-8: kept as they are.
  writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]));
  const env = {
    PI_CODING_AGENT_DIR: join(root, 'agent'),
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: tempDir(),
  };
  return { file, dir, env, secrets, cli: (...args: string[]) => runCli(args, { env }) };
}

const unmask = (text: string, secrets: { kind: string; secret: string }[]): string =>
  secrets.reduce((t, s) => t.replaceAll(`[REDACTED ${s.kind}]`, JSON.stringify(s.secret).slice(1, -1)), text);

describe('pi-sessions redact', () => {
  it('without --yes lists what it would replace (masked) and writes nothing', () => {
    const { file, cli, secrets } = setup();
    const before = readFileSync(file);
    const run = cli('redact', file);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Would redact 5 secrets on 3 lines of .*s\.jsonl:\n/);
    expect(run.stderr).toContain('still holds the secrets until the trash is emptied');
    for (const s of secrets) expect(run.stdout).not.toContain(s.secret.slice(6));
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('--yes: same ids, pi context identical but for the masks, original in the trash; undo restores it byte for byte; redo again', async () => {
    const { file, dir, env, cli, secrets } = setup();
    const before = readFileSync(file);
    const piBefore = await openWithPi(file);
    const contextBefore = JSON.stringify(piBefore.manager.buildSessionContext().messages);
    const run = cli('redact', file, '--yes');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${file}\n`);
    expect(run.stderr).toMatch(/^Redacted 5 secrets on 3 lines; the original, in the trash, still holds the secrets/);
    const after = readFileSync(file);
    const text = after.toString('latin1');
    for (const s of secrets) expect(after.includes(Buffer.from(JSON.stringify(s.secret).slice(1, -1)))).toBe(false);
    // Every line but the three with secrets byte for byte; those three once the masks are put back.
    const lines = (b: Buffer) => b.toString('latin1').split('\n');
    const changed = lines(after).filter((line, i) => line !== lines(before)[i]);
    expect(changed).toHaveLength(3);
    expect(unmask(after.toString('utf8'), secrets)).toBe(before.toString('utf8'));
    expect(text.endsWith('{\xff\xfe}\n')).toBe(true);
    const pi = await openWithPi(file);
    expect(pi.manager.getHeader()!['id']).toBe(piBefore.manager.getHeader()!['id']);
    expect(pi.manager.getEntries().map((e) => e.id)).toEqual(piBefore.manager.getEntries().map((e) => e.id));
    expect(pi.manager.getLeafId()).toBe(piBefore.manager.getLeafId());
    const contextAfter = JSON.stringify(pi.manager.buildSessionContext().messages);
    expect(contextAfter).not.toBe(contextBefore);
    expect(unmask(contextAfter, secrets)).toBe(contextBefore);
    // The original is in the home trash, whole.
    const trashFiles = join(env.XDG_DATA_HOME, 'Trash', 'files');
    const trashed = readdirSync(trashFiles);
    expect(trashed).toHaveLength(1);
    expect(readFileSync(join(trashFiles, trashed[0]!)).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(['2026-01-05T09-00-00-000Z_s.jsonl']);
    const list = cli('undo', '--list');
    expect(list.stdout).toContain('redact');
    const undo = cli('undo');
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(file).equals(before)).toBe(true);
    const redo = cli('redo');
    expect(redo.code, redo.stderr).toBe(0);
    expect(readFileSync(file).equals(after)).toBe(true);
    expect(cli('undo').code).toBe(0);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('a session without secrets: nothing to redact, exit 1, nothing written', () => {
    const { dir, cli } = setup();
    const b = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000aa' });
    b.user('hello');
    const clean = b.writeTo(join(dir, '2026-01-05T10-00-00-000Z_c.jsonl'));
    const run = cli('redact', clean, '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`pi-sessions: ${clean}: nothing to redact: no secret found\n`);
  });

  it('redactBytes leaves a file without a secret identical (the same buffer)', () => {
    const bytes = Buffer.from('{"a":"b"}\n{"c":"\\u0041"}\n');
    expect(redactBytes(bytes, new Map([['zzzzzzzzzz', '[R]']])).bytes).toBe(bytes);
  });
});
