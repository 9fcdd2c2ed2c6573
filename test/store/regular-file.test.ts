import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, constants, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isGoneSync, openRegular, openRegularSync } from '../../src/store/read/regular-file.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openRegular', () => {
  it('opens a regular file and refuses a FIFO and a directory at once, without blocking', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pi-sessions-regular-'));
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{}\n');
    const fifo = join(dir, 'x.jsonl');
    execFileSync('mkfifo', [fifo]);
    const { fd, stats } = openRegularSync(file);
    expect(stats.size).toBe(3);
    closeSync(fd);
    expect(() => openRegularSync(fifo)).toThrow(/not a regular file \(a FIFO\)/);
    expect(() => openRegularSync(dir)).toThrow(/a directory/);
    await expect(openRegular(fifo)).rejects.toMatchObject({ code: 'not-regular' });
    // A FIFO opened for writing with no reader fails (ENXIO) rather than blocking.
    expect(() => openRegularSync(fifo, constants.O_WRONLY | constants.O_APPEND)).toThrow();
    const { handle } = await openRegular(file);
    await handle.close();
  });
});

describe('isGoneSync', () => {
  it('gone: nothing at the path, a folder on the way gone or a file, a link to nothing; there: a file, even unreadable', () => {
    dir = mkdtempSync(join(tmpdir(), 'pi-sessions-gone-'));
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{}\n');
    expect(isGoneSync(file)).toBe(false);
    expect(isGoneSync(join(dir, 'b.jsonl'))).toBe(true);
    expect(isGoneSync(join(dir, 'nowhere', 'b.jsonl'))).toBe(true);
    expect(isGoneSync(join(file, 'b.jsonl'))).toBe(true);
    symlinkSync(join(dir, 'b.jsonl'), join(dir, 'link.jsonl'));
    expect(isGoneSync(join(dir, 'link.jsonl'))).toBe(true);
    chmodSync(file, 0);
    expect(isGoneSync(file)).toBe(false);
  });
});
