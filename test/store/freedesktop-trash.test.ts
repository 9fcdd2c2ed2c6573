import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homeTrashDir, moveToHomeTrash, TrashError } from '../../src/store/trash/freedesktop-trash.js';

let root: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'pi-sessions-fdtrash-'));
  env = { XDG_DATA_HOME: join(root, 'xdg') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the freedesktop home trash', () => {
  it('lives under XDG_DATA_HOME (absolute only), else ~/.local/share', () => {
    expect(homeTrashDir({ XDG_DATA_HOME: '/x/data' }, '/home/u')).toBe('/x/data/Trash');
    expect(homeTrashDir({ XDG_DATA_HOME: 'relative' }, '/home/u')).toBe('/home/u/.local/share/Trash');
    expect(homeTrashDir({}, '/home/u')).toBe('/home/u/.local/share/Trash');
  });

  it('writes a .trashinfo per file, and a second file of the same name gets the next free name', async () => {
    const paths = ['a', 'b'].map((d) => {
      mkdirSync(join(root, d));
      const path = join(root, d, 'same name%.jsonl');
      writeFileSync(path, `from ${d}\n`);
      return path;
    });
    const first = await moveToHomeTrash(paths[0]!, env);
    const second = await moveToHomeTrash(paths[1]!, env);
    expect(first).toMatchObject({ path: join(root, 'xdg', 'Trash', 'files', 'same name%.jsonl'), how: 'renamed' });
    expect(second.path).toBe(join(root, 'xdg', 'Trash', 'files', 'same name%.jsonl.2'));
    expect(readFileSync(second.path, 'utf8')).toBe('from b\n');
    const info = readFileSync(second.info, 'utf8');
    expect(info).toMatch(/^\[Trash Info\]\nPath=.*\nDeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\n$/);
    expect(decodeURI(/^Path=(.*)$/m.exec(info)![1]!)).toBe(paths[1]);
  });

  it('a failed move leaves no .trashinfo behind', async () => {
    await expect(moveToHomeTrash(join(root, 'missing.jsonl'), env)).rejects.toBeInstanceOf(TrashError);
    expect(readdirSync(join(root, 'xdg', 'Trash', 'info'))).toEqual([]);
    expect(readdirSync(join(root, 'xdg', 'Trash', 'files'))).toEqual([]);
  });
});

describe('moveFileSafely', () => {
  it('never replaces a target that exists, and leaves the source in place', async () => {
    const { moveFileSafely } = await import('../../src/store/trash/safe-move.js');
    const source = join(root, 'a.jsonl');
    const target = join(root, 'b.jsonl');
    writeFileSync(source, 'source\n');
    writeFileSync(target, 'already here\n');
    await expect(moveFileSafely(source, target)).rejects.toThrow(/exists already/);
    expect(readFileSync(target, 'utf8')).toBe('already here\n');
    expect(readFileSync(source, 'utf8')).toBe('source\n');
    rmSync(target);
    expect(await moveFileSafely(source, target)).toBe('renamed');
    expect(readFileSync(target, 'utf8')).toBe('source\n');
  });
});
