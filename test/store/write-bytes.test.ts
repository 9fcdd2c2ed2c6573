/**
 * Write safety at the byte level: short writes are looped until every byte is out, a failed append
 * rolls back to the bytes that were there (a foreign append kept), and a fork made without the
 * tree loads in pi.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, forkSession, getBranch, readSessionSync } from '../../src/store/index.js';
import { appendOrRollback, writeFully } from '../../src/store/write/fs-write.js';
import { tempDir } from '../helpers/factory.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';
import { session } from './write-session.js';

/** A handle whose writes take at most `max` bytes each and fail with `code` after `failAfter` calls. */
function shortWrites(
  handle: FileHandle,
  max: number,
  failAfter: number,
  code: string,
  beforeFailing?: () => void,
): FileHandle {
  let calls = 0;
  return new Proxy(handle, {
    get(target, key) {
      if (key === 'write') {
        return async (buffer: Buffer, offset: number, length: number, position: number | null) => {
          if (++calls > failAfter) {
            beforeFailing?.();
            throw Object.assign(new Error(code), { code });
          }
          return target.write(buffer, offset, Math.min(length, max), position);
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('the byte-level writes', () => {
  it('writeFully loops on short writes until every byte is written', async () => {
    const path = join(tempDir(), 'f');
    const handle = await open(path, 'w');
    try {
      const bytes = Buffer.from('0123456789'.repeat(10));
      await writeFully(shortWrites(handle, 7, Infinity, 'EIO'), bytes, 0);
      expect(readFileSync(path).equals(bytes)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it('an append cut short then failing (EDQUOT) is truncated back to the byte', async () => {
    const { path } = session();
    const original = readFileSync(path);
    const handle = await open(path, 'a+');
    try {
      const attempt = appendOrRollback(
        shortWrites(handle, 10, 2, 'EDQUOT'),
        path,
        Buffer.from('{"type":"label","id":"x"}\n'),
        original.length,
      );
      await expect(attempt).rejects.toThrow(/write failed: disk quota exceeded; the file is unchanged$/);
    } finally {
      await handle.close();
    }
    expect(readFileSync(path).equals(original)).toBe(true);
  });

  it('bytes another writer appended meanwhile are never cut off: the message says the partial line stayed', async () => {
    const { path } = session();
    const original = readFileSync(path);
    const handle = await open(path, 'a+');
    const foreign = '{"type":"message","id":"pi000001"}\n';
    try {
      const attempt = appendOrRollback(
        shortWrites(handle, 10, 1, 'EIO', () => appendFileSync(path, foreign)),
        path,
        Buffer.from('{"type":"label","id":"x"}\n'),
        original.length,
      );
      await expect(attempt).rejects.toThrow(
        /write failed: input\/output error; the partial line could not be removed \(the file changed meanwhile\)$/,
      );
    } finally {
      await handle.close();
    }
    expect(readFileSync(path, 'utf8').endsWith(foreign)).toBe(true);
  });
});

describe('fork without the tree', () => {
  const header = JSON.stringify({
    type: 'session',
    version: 3,
    id: '019b0000-0000-7000-8000-000000000001',
    timestamp: '2026-01-01T00:00:00.000Z',
    cwd: '/x',
  });
  const message = (id: string, parentId: string | null, role = 'user'): string =>
    JSON.stringify({
      type: 'message',
      id,
      parentId,
      timestamp: '2026-01-01T00:00:01.000Z',
      message: { role, content: id, timestamp: 1 },
    });
  const shapes: Record<string, string[]> = {
    'a chain with a duplicate id (the last wins)': [
      message('aaaaaaaa', null),
      message('bbbbbbbb', 'aaaaaaaa', 'assistant'),
      message('bbbbbbbb', 'aaaaaaaa', 'assistant'),
      message('cccccccc', 'bbbbbbbb'),
    ],
    'an orphan on the path': [message('aaaaaaaa', 'missing1'), message('bbbbbbbb', 'aaaaaaaa', 'assistant')],
    'a leaf inside a parent cycle': [
      message('aaaaaaaa', 'cccccccc'),
      message('bbbbbbbb', 'aaaaaaaa'),
      message('cccccccc', 'bbbbbbbb', 'assistant'),
    ],
    'a cycle cut at its earliest entry in file order, not where the walk closes': [
      message('bbbbbbbb', 'cccccccc'),
      message('cccccccc', 'aaaaaaaa'),
      message('aaaaaaaa', 'bbbbbbbb', 'assistant'),
    ],
    'a leaf below a cycle': [
      message('aaaaaaaa', 'bbbbbbbb'),
      message('bbbbbbbb', 'aaaaaaaa'),
      message('cccccccc', 'bbbbbbbb', 'assistant'),
    ],
    'parents written after their children (the branch is read against file order)': [
      message('cccccccc', 'bbbbbbbb'),
      message('bbbbbbbb', 'aaaaaaaa', 'assistant'),
      message('aaaaaaaa', null),
      message('dddddddd', 'cccccccc', 'assistant'),
    ],
  };
  for (const [name, lines] of Object.entries(shapes)) {
    it(`copies the branch the tree view shows: ${name}`, async () => {
      const path = join(tempDir(), 's.jsonl');
      writeFileSync(path, `${[header, ...lines].join('\n')}\n`);
      const source = readSessionSync(path);
      if (!source.ok) throw new Error(source.message);
      const tree = buildTree(source);
      const fork = await forkSession(path);
      const forked = readSessionSync(fork.path);
      expect(forked.ok && forked.entries.map((e) => e.id)).toEqual(getBranch(tree, tree.leafId).map((e) => e.id));
    });
  }

  it('copies a branch read in many batches (lines far apart, spans over 256 KiB) as pi sees it', async () => {
    const path = join(tempDir(), 's.jsonl');
    const big = (id: string, parentId: string | null, role: string, bytes: number): string =>
      JSON.stringify({
        type: 'message',
        id,
        parentId,
        timestamp: '2026-01-01T00:00:01.000Z',
        message: { role, content: `${id} ${'x'.repeat(bytes)}`, timestamp: 1 },
      });
    const lines: string[] = [];
    let parent: string | null = null;
    for (let i = 0; i < 30; i++) {
      const id = `b${String(i).padStart(7, '0')}`;
      lines.push(big(id, parent, i % 2 ? 'assistant' : 'user', 20_000 + i * 1000));
      // A side branch between two branch lines, sometimes wider than the gap read in one go.
      if (i % 3 === 0) lines.push(big(`s${String(i).padStart(7, '0')}`, parent, 'assistant', i % 2 ? 90_000 : 10_000));
      parent = id;
    }
    writeFileSync(path, `${[header, ...lines].join('\n')}\n`);
    const fork = await forkSession(path, parent!);
    expect(fork.entries).toBe(30);
    const source = (await openWithPi(path)).manager;
    const forked = await openWithPi(fork.path);
    expect(forked.changedOnOpen).toBe(false);
    expect(forked.manager.getBranch().map((e) => e.id)).toEqual(source.getBranch(parent!).map((e) => e.id));
    expect(forked.manager.buildSessionContext().messages).toEqual(await piContextAt(source, parent!));
  });
});
