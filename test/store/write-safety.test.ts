/**
 * Write safety that needs no special machine: modes, symlinks, FIFOs, crash-left temp files, and
 * the append's tail re-read. Full disks and file-size limits: test/hostile/write-failures.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendPlanned,
  branchInPlace,
  forkSession,
  readSessionSync,
  renameSession,
  StoreError,
  setLabel,
} from '../../src/store/index.js';
import { scanForAppend } from '../../src/store/read/append-scan.js';
import { removeStaleTemps } from '../../src/store/write/fs-write.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';
import { v1Text } from '../helpers/v1.js';
import { session } from './write-session.js';

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('modes', () => {
  it('a fork of a 0600 session is 0600, and of a 0640 one 0640, whatever the umask', async () => {
    for (const wanted of [0o600, 0o640]) {
      const { path } = session();
      chmodSync(path, wanted);
      const previous = process.umask(0o077);
      try {
        const fork = await forkSession(path);
        expect(mode(fork.path)).toBe(wanted);
      } finally {
        process.umask(previous);
      }
    }
  });

  it('a migrated v1 session keeps its 0600 mode', async () => {
    const path = join(tempDir(), 'old.jsonl');
    writeFileSync(path, v1Text(), { mode: 0o600 });
    await renameSession(path, 'kept private');
    expect(readSessionSync(path)).toMatchObject({ ok: true, diskVersion: 3 });
    expect(mode(path)).toBe(0o600);
  });
});

describe('symlinks', () => {
  it('renaming a v1 session through a link migrates and names the real file; the link stays a link', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    mkdirSync(join(dir, 'project'));
    const real = join(dir, 'real', 'old.jsonl');
    writeFileSync(real, v1Text());
    const link = join(dir, 'project', 'old.jsonl');
    symlinkSync(real, link);
    await renameSession(link, 'through the link');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readSessionSync(real)).toMatchObject({ ok: true, diskVersion: 3 });
    expect((await openWithPi(real)).manager.getSessionName()).toBe('through the link');
    expect(readdirSync(join(dir, 'project'))).toEqual(['old.jsonl']);
    expect(readdirSync(join(dir, 'real'))).toEqual(['old.jsonl']);
  });

  it('a label through a link appends to the real file', async () => {
    const dir = tempDir();
    const { path, builder } = session(dir);
    const link = join(dir, 'link.jsonl');
    symlinkSync(path, link);
    await setLabel(link, builder.leaf!, 'here');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect((await openWithPi(path)).manager.getLabel(builder.leaf!)).toBe('here');
  });
});

describe('FIFOs', () => {
  it('rename, label, branch and fork of a FIFO fail at once with a clear message', async () => {
    const fifo = join(tempDir(), 'x.jsonl');
    execFileSync('mkfifo', [fifo]);
    const attempts: (() => Promise<unknown>)[] = [
      () => renameSession(fifo, 'x'),
      () => setLabel(fifo, 'aaaaaaaa', 'x'),
      () => branchInPlace(fifo, 'aaaaaaaa'),
      () => forkSession(fifo),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/not a regular file \(a FIFO\)/);
  });
});

describe('temp files left by a crash', () => {
  it('the next write to the folder removes ours when their writer is gone or they are old, and nothing else', async () => {
    const dir = tempDir();
    const { path } = session(dir);
    // A pid that surely is not running any more: a child that has exited.
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const names = {
      dead: `.a.jsonl.${dead}.0a1b2c.tmp`,
      live: `.a.jsonl.${process.pid}.0a1b2d.tmp`,
      oldLive: `.b.jsonl.${process.pid}.0a1b2e.tmp`,
      notOurs: '.a.jsonl.notes.tmp',
      catalogueLike: `catalogue-0123456789abcdef.bin.${dead}.k2j4.tmp`,
    };
    for (const name of Object.values(names)) writeFileSync(join(dir, name), 'partial');
    const hoursAgo = (Date.now() - 2 * 3600_000) / 1000;
    utimesSync(join(dir, names.oldLive), hoursAgo, hoursAgo);
    await renameSession(path, 'x');
    const left = readdirSync(dir);
    expect(left).not.toContain(names.dead);
    expect(left).not.toContain(names.oldLive);
    expect(left).not.toContain(names.catalogueLike);
    expect(left).toContain(names.live);
    expect(left).toContain(names.notOurs);
  });

  it('removeStaleTemps skips folders it cannot read', async () => {
    expect(await removeStaleTemps(join(tempDir(), 'missing'))).toEqual([]);
  });
});

/** Wraps a FileHandle so the bytes each read returns are counted. */
function counting(handle: FileHandle, counter: { bytes: number }): FileHandle {
  return new Proxy(handle, {
    get(target, key) {
      if (key === 'read') {
        return async (...args: Parameters<FileHandle['read']>) => {
          const result = await (target.read as (...a: unknown[]) => Promise<{ bytesRead: number }>)(...args);
          counter.bytes += result.bytesRead;
          return result;
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('the append scan', () => {
  it('resumes from the start of a torn last line: reads only that line and what pi added, and ends where a full scan does', async () => {
    const b = new SessionBuilder();
    for (let i = 0; i < 50; i++) b.user(`message ${i} ${'x'.repeat(200)}`);
    const path = join(tempDir(), 'torn.jsonl');
    const text = b.text();
    const complete = text.lastIndexOf('\n', text.length - 2) + 1;
    // The last line is written but its newline is not there yet (a writer caught mid-append).
    writeFileSync(path, text.slice(0, text.length - 1));
    const handle = await open(path, 'r');
    try {
      const first = await scanForAppend(handle, path);
      expect(first.endsWithNewline).toBe(false);
      expect(first.lastLineStart).toBe(complete);
      expect(first.leafId).toBe(b.leaf);
      const piLine = JSON.stringify({
        type: 'message',
        id: 'pi000001',
        parentId: b.leaf,
        timestamp: '2026-01-05T10:00:00.000Z',
        message: { role: 'assistant', content: [], timestamp: 1 },
      });
      appendFileSync(path, `\n${piLine}\n`);
      const counter = { bytes: 0 };
      const resumed = await scanForAppend(counting(handle, counter), path, first);
      // The tail from the torn line on, plus twice the 256-byte fingerprint before the last line
      // start: checked first (the rest is unchanged), taken again at the end for the next resume.
      expect(counter.bytes).toBe(statSync(path).size - complete + 2 * 256);
      const full = await scanForAppend(handle, path);
      expect(resumed.leafId).toBe('pi000001');
      expect({ ...resumed, settled: undefined }).toEqual({ ...full, settled: undefined });
      expect([...resumed.ids]).toEqual([...full.ids]);
    } finally {
      await handle.close();
    }
  });

  it('a file rewritten in place (same inode, grown) is scanned again from the start, not resumed', async () => {
    const b = new SessionBuilder();
    for (let i = 0; i < 20; i++) b.user(`message ${i}`);
    const path = join(tempDir(), 'rewritten.jsonl');
    writeFileSync(path, b.text());
    const handle = await open(path, 'r+');
    try {
      const first = await scanForAppend(handle, path);
      // Another tool rewrites the file in place with other entries, longer than before.
      const other = new SessionBuilder();
      for (let i = 0; i < 30; i++) other.user(`other ${i}`);
      const text = other.text().replace(/"id":"([0-9a-f]{8})"/g, (_m, id: string) => `"id":"f${id.slice(1)}"`);
      await handle.write(Buffer.from(text), 0, Buffer.byteLength(text), 0);
      const again = await scanForAppend(handle, path, first);
      const full = await scanForAppend(handle, path);
      expect([...again.ids]).toEqual([...full.ids]);
      expect(again.ids.has(b.leaf!)).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it('a torn last fragment is skipped: the entry hangs under the last whole line, after a newline', async () => {
    const { path, builder } = session();
    appendFileSync(path, '{"type":"message","id":"torn0001","par');
    const original = readFileSync(path);
    const { entryIds } = await appendPlanned(path, (view) => [
      {
        type: 'label',
        id: 'ours0001',
        parentId: view.leafId,
        timestamp: '2026-01-05T10:00:01.000Z',
        targetId: builder.leaf,
      },
    ]);
    expect(entryIds).toEqual(['ours0001']);
    const after = readFileSync(path);
    expect(after.subarray(0, original.length).equals(original)).toBe(true);
    const pi = await openWithPi(path);
    expect(pi.changedOnOpen).toBe(false);
    expect(pi.manager.getLeafId()).toBe('ours0001');
    expect(pi.manager.getEntries().at(-1)!.parentId).toBe(builder.leaf);
  });

  it('refuses a file whose header starts with a byte-order mark, unchanged', async () => {
    const { path } = session();
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(path)]);
    writeFileSync(path, bytes);
    await expect(renameSession(path, 'x')).rejects.toThrow(StoreError);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('the planner sees every entry id of the file and its leaf, as the full reader does', async () => {
    const b = new SessionBuilder();
    const root = b.user('one');
    b.assistant('two');
    b.branchFrom(root);
    b.assistant('other branch');
    b.label(root, 'start');
    const path = b.writeTo(join(tempDir(), 'ids.jsonl'));
    const full = readSessionSync(path);
    if (!full.ok) throw new Error(full.message);
    let seen: { ids: string[]; leafId: string | null } | undefined;
    await appendPlanned(path, (view) => {
      seen = { ids: [...view.ids], leafId: view.leafId };
      return [
        {
          type: 'session_info',
          id: 'ours0001',
          parentId: view.leafId,
          timestamp: '2026-01-05T10:00:01.000Z',
          name: 'n',
        },
      ];
    });
    expect(seen).toEqual({ ids: full.entries.map((e) => e.id), leafId: full.entries.at(-1)!.id });
  });
});
