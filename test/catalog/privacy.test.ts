/**
 * The catalogue holds the text of every session: its folder is private (0700, tightened when an
 * older version or a user made it wider) and its files 0600, whatever the umask. A full disk:
 * test/hostile/write-failures.test.ts.
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueFile } from '../../src/catalog/file.js';
import { writeCatalogue } from '../../src/catalog/writer.js';
import { tempDir } from '../helpers/factory.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('catalogue privacy', () => {
  it('creates the folder 0700 and the file 0600 even under umask 0', async () => {
    const dir = join(tempDir(), 'cache', 'pi-sessions');
    const file = catalogueFile(dir, '/sessions');
    const previous = process.umask(0);
    try {
      expect(await writeCatalogue(file, '/sessions', [])).toBe(true);
    } finally {
      process.umask(previous);
    }
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });

  it('tightens an existing folder others can read, and replaces a 0644 catalogue with a 0600 one', async () => {
    const dir = join(tempDir(), 'pi-sessions');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const file = catalogueFile(dir, '/sessions');
    expect(await writeCatalogue(file, '/sessions', [])).toBe(true);
    chmodSync(file, 0o644);
    expect(await writeCatalogue(file, '/sessions', [])).toBe(true);
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(dir)).toEqual([file.slice(dir.length + 1)]);
  });
});
