/**
 * Secret scans kept in the catalogue: a second scan of an unchanged store reads no session file and
 * reports the same; a file appended to or replaced is scanned again (and only it); a file modified
 * moments before its scan is not kept; the listing and the scan share the catalogue without losing
 * each other's records; a catalogue of the previous version, or one with a malformed scan, is
 * rebuilt without an error.
 */
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretsHold, secretsOfFile } from '../../src/catalog/format.js';
import {
  CATALOGUE_VERSION,
  catalogueFile,
  listSessionsCached,
  loadCatalogue,
  scanStoreSecretsCached,
} from '../../src/catalog/index.js';
import {
  type FileSecrets,
  type Locations,
  resolveLocations,
  scanFileSecrets,
  secretRulesId,
} from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';
import { age, freshList, plain } from './helpers.js';

interface SecretStore {
  dir: string;
  cacheDir: string;
  locations: Locations;
  paths: string[];
  /** A line that adds a GitHub token to the first session, under its leaf. */
  appendix: string;
}

/** Four sessions (three with a secret each, one without), all an hour old; a custom session dir. */
function secretStore(): SecretStore {
  const dir = tempDir('pi-sessions-secret-cache-');
  const secrets = fakeSecrets();
  const paths: string[] = [];
  let appendix = '';
  for (let i = 0; i < 4; i++) {
    const b = new SessionBuilder({ id: `019b0000-0000-7000-8000-00000000010${i}` });
    b.user('set up the deploy');
    if (i < 3) b.toolResult('bash', `# env\n${secrets[i]!.text}\n`);
    b.assistant('Done.');
    if (i === 0) {
      b.user(`and this one: ${secrets.find((s) => s.kind === 'GITHUB_TOKEN')!.text}`);
      appendix = `${b.lines.pop()!}\n`;
    }
    const path = join(dir, `2026-01-05T09-00-0${i}-000Z_s${i}.jsonl`);
    writeFileSync(path, `${b.lines.join('\n')}\n`);
    age(path);
    paths.push(path);
  }
  const locations = resolveLocations({ cwd: '/nonexistent', sessionDir: dir, env: {} });
  return { dir, cacheDir: join(tempDir('pi-sessions-cache-'), 'pi-sessions'), locations, paths, appendix };
}

/** A scan through the catalogue that counts the session files it reads. */
async function scan(store: SecretStore) {
  const read: string[] = [];
  const report = await scanStoreSecretsCached(store.locations, 'cwd', {
    cacheDir: store.cacheDir,
    scanFile: (path) => {
      read.push(path);
      return scanFileSecrets(path);
    },
  });
  const saved = await report.saved;
  return { report, read, saved };
}

const findingsOf = (files: FileSecrets[]) =>
  files.map((f) => ({ path: f.path, sessionId: f.sessionId, findings: f.findings, problem: f.problem }));

describe('secret scans kept in the catalogue', () => {
  it('a second scan of an unchanged store reads no session file and reports the same', async () => {
    const store = secretStore();
    const cold = await scan(store);
    expect(cold.read.sort()).toEqual([...store.paths].sort());
    expect(cold.saved).toBe(true);
    expect(cold.report.files.filter((f) => f.findings.length > 0)).toHaveLength(3);
    const warm = await scan(store);
    expect(warm.read).toEqual([]);
    expect(warm.report.fromCatalogue).toBe(4);
    expect(warm.report.scanned).toBe(0);
    // Nothing new: the catalogue is not written again.
    expect(warm.saved).toBe(false);
    expect(findingsOf(warm.report.files)).toEqual(findingsOf(cold.report.files));
    // What is kept is the masked report, never a secret.
    const bytes = readFileSync(catalogueFile(store.cacheDir, store.dir), 'latin1');
    for (const s of fakeSecrets().slice(0, 3)) expect(bytes).not.toContain(s.secret.slice(6, 30));
  });

  it('a file appended to or replaced is scanned again, and only it', async () => {
    const store = secretStore();
    await scan(store);
    appendFileSync(store.paths[0]!, store.appendix);
    age(store.paths[0]!);
    const appended = await scan(store);
    expect(appended.read).toEqual([store.paths[0]]);
    const first = appended.report.files.find((f) => f.path === store.paths[0])!;
    expect(first.findings.map((f) => f.kind)).toEqual([fakeSecrets()[0]!.kind, 'GITHUB_TOKEN']);
    expect((await scan(store)).read).toEqual([]);

    // Replaced by another file of the same size (a new inode): scanned again, its secret gone.
    const text = readFileSync(store.paths[1]!, 'utf8');
    const secret = fakeSecrets()[1]!.secret;
    const clean = text.replace(secret, 'x'.repeat(secret.length));
    expect(clean.length).toBe(text.length);
    const temp = `${store.paths[1]!}.new`;
    writeFileSync(temp, clean);
    age(temp);
    renameSync(temp, store.paths[1]!);
    const replaced = await scan(store);
    expect(replaced.read).toEqual([store.paths[1]]);
    expect(replaced.report.files.find((f) => f.path === store.paths[1])!.findings).toEqual([]);
  });

  it('a file modified moments before its scan is not kept: it is read again next time', async () => {
    const store = secretStore();
    writeFileSync(store.paths[2]!, readFileSync(store.paths[2]!));
    expect((await scan(store)).read).toHaveLength(4);
    expect((await scan(store)).read).toEqual([store.paths[2]]);
  });

  it('the listing and the scan share the catalogue: neither loses the other', async () => {
    const store = secretStore();
    // A scan first: its records hold a scan alone, and the listing reads those files as new.
    await scan(store);
    const listed = await listSessionsCached(store.locations, { scope: 'cwd', cacheDir: store.cacheDir });
    expect(listed.stats.added).toBe(4);
    expect(await listed.saved).toBe(true);
    expect(listed.sessions.map(plain)).toEqual((await freshList(store.locations, 'cwd')).sessions);
    // The listing kept each scan: the next scan reads nothing, and the next listing nothing either.
    expect((await scan(store)).read).toEqual([]);
    const again = await listSessionsCached(store.locations, { scope: 'cwd', cacheDir: store.cacheDir });
    expect(again.stats.unchanged).toBe(4);
    expect(await again.saved).toBe(false);
    const catalogue = loadCatalogue(catalogueFile(store.cacheDir, store.dir), store.dir)!;
    const rulesId = await secretRulesId();
    for (const path of store.paths) {
      const record = catalogue.records.get(path)!;
      expect(record.s).toBeDefined();
      expect(record.k && secretsHold(record.k, rulesId, record.z, record.m, record.i)).toBe(true);
    }
    catalogue.hold();
    catalogue.release();
  });

  it('a catalogue of the previous version, or with a malformed scan, is rebuilt without an error', async () => {
    const store = secretStore();
    await scan(store);
    const file = catalogueFile(store.cacheDir, store.dir);
    const bytes = readFileSync(file, 'latin1');
    writeFileSync(
      file,
      bytes.replace(`"version":${CATALOGUE_VERSION},`, `"version":${CATALOGUE_VERSION - 1},`),
      'latin1',
    );
    const old = await scan(store);
    expect(old.read).toHaveLength(4);
    expect(old.saved).toBe(true);
    expect((await scan(store)).read).toEqual([]);

    // A scan whose findings are not findings (the same length, so only the record's shape is wrong).
    const good = readFileSync(file, 'latin1');
    const bad = good.replace('"entryId":', '"entryIx":');
    expect(bad).not.toBe(good);
    writeFileSync(file, bad, 'latin1');
    expect((await scan(store)).read).toHaveLength(1);
    expect((await scan(store)).read).toEqual([]);
  });

  it('a scan made by other rules is not trusted (a listing, which does not load the rules, keeps it as it is)', async () => {
    const rulesId = await secretRulesId();
    expect(rulesId).toMatch(/^[0-9a-f]{16}$/);
    const k = { z: 10, m: 5, i: 7, v: rulesId, d: null, f: [] };
    expect(secretsHold(k, rulesId, 10, 5, 7)).toBe(true);
    expect(secretsHold({ ...k, v: 'another-version' }, rulesId, 10, 5, 7)).toBe(false);
    expect(secretsOfFile({ ...k, v: 'another-version' }, 10, 5, 7)).toBe(true);
    expect(secretsHold(k, rulesId, 11, 5, 7)).toBe(false);
    expect(secretsHold(k, rulesId, 10, 6, 7)).toBe(false);
    expect(secretsHold(k, rulesId, 10, 5, 8)).toBe(false);
    expect(secretsOfFile(k, 10, 5, 8)).toBe(false);
  });
});
