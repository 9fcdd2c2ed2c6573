/**
 * The prefilter in front of secretlint (markers.ts) must never drop a secret the rules would
 * find: every fixture file and every seeded fake credential is scanned with and without it, and
 * the findings must be the same. A marker hidden behind a JSON escape keeps its line.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mayHoldSecret, scanFileSecrets } from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { fakeSecrets, NEAR_MISSES } from '../helpers/fake-secrets.js';

function jsonlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) jsonlFiles(path, out);
    else if (name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

/** One session per fake secret, the secret in user text, tool arguments and tool output. */
function seeded(): string[] {
  const dir = tempDir('pi-sessions-prefilter-');
  const paths = fakeSecrets().map((secret, i) => {
    const b = new SessionBuilder();
    b.user(`here: ${secret.text}`);
    b.toolCall('bash', { command: secret.text });
    b.toolResult('bash', `# env\n${secret.text}\n`);
    const path = join(dir, `s${i}.jsonl`);
    writeFileSync(path, b.text());
    return path;
  });
  const near = new SessionBuilder();
  for (const text of NEAR_MISSES) near.user(text);
  const nearPath = join(dir, 'near.jsonl');
  writeFileSync(nearPath, near.text());
  return [...paths, nearPath];
}

describe('the secret prefilter', () => {
  it('every marker-free text of the fakes is a near miss: each fake secret holds a marker', () => {
    for (const secret of fakeSecrets()) expect(mayHoldSecret(secret.text), secret.kind).toBe(true);
  });

  it('finds exactly what the full scan finds, in every fixture and seeded session', async () => {
    const files = [...jsonlFiles(FIXTURES), ...seeded()];
    expect(files.length).toBeGreaterThan(50);
    let found = 0;
    for (const path of files) {
      const fast = await scanFileSecrets(path);
      const full = await scanFileSecrets(path, { prefilter: false });
      expect(fast, path).toEqual(full);
      found += full.findings.length;
    }
    expect(found).toBeGreaterThanOrEqual(fakeSecrets().length * 3);
  });

  it('keeps a line whose JSON escapes hide a marker (\\u and \\/)', async () => {
    const secret = fakeSecrets().find((s) => s.kind === 'GITHUB_TOKEN')!;
    const b = new SessionBuilder();
    b.user('placeholder-text');
    const escaped = b
      .text()
      .replace('placeholder-text', `token ${secret.secret.replace('ghp_', 'gh\\u0070_')} via https:\\/\\/x`);
    const path = join(tempDir('pi-sessions-prefilter-'), 'escaped.jsonl');
    writeFileSync(path, escaped);
    const fast = await scanFileSecrets(path);
    expect(fast.findings.map((f) => f.kind)).toEqual(['GITHUB_TOKEN']);
    expect(fast).toEqual(await scanFileSecrets(path, { prefilter: false }));
  });
});
