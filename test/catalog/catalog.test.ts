import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sliceTag, toSessionRecord } from '../../src/catalog/format.js';
import { CatalogueSink, catalogueFile, listSessionsCached, loadCatalogue } from '../../src/catalog/index.js';
import {
  countingIo,
  type SessionInfo,
  summarizeAppended,
  summarizeFileSync,
  summarizeFull,
} from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { age, appendLines, cached, corpusStore, freshList, plain, storeWithBigSession } from './helpers.js';

describe('catalogue: cold and warm', () => {
  it('builds cold, then a warm start paints before reading any file and equals a fresh listing', async () => {
    const store = corpusStore();
    const fresh = await freshList(store.locations);
    const cold = await cached(store);
    expect(cold.result.stats).toMatchObject({
      catalogue: 'missing',
      added: store.files.filter((f) => f.endsWith('.jsonl')).length,
    });
    expect(cold.saved).toBe(true);
    expect(cold.sessions).toStrictEqual(fresh.sessions);
    expect(cold.result.skipped).toStrictEqual(fresh.skipped);

    let painted: SessionInfo[] = [];
    let bytesAtPaint = -1;
    const counter = { bytes: 0 };
    const warm = await listSessionsCached(store.locations, {
      scope: 'all',
      cacheDir: store.cacheDir,
      io: countingIo(counter),
      onCached: (rows) => {
        painted = rows;
        bytesAtPaint = counter.bytes;
      },
    });
    expect(await warm.saved).toBe(false); // nothing changed: nothing written
    expect(bytesAtPaint).toBe(0);
    expect(counter.bytes).toBe(0); // not one session byte read
    expect(warm.stats).toMatchObject({
      catalogue: 'loaded',
      unchanged: cold.result.stats.added,
      appended: 0,
      reread: 0,
      added: 0,
      removed: 0,
    });
    expect(painted.map(plain)).toStrictEqual(fresh.sessions);
    expect(warm.sessions.map(plain)).toStrictEqual(fresh.sessions);
    expect(warm.skipped).toStrictEqual(fresh.skipped);
    // The same objects: text prepared on a painted row is kept when the check confirms it.
    expect(warm.sessions[0]).toBe(painted[0]);
  });

  it("reads a session's message text without its tool output, and the output only when asked", async () => {
    const { store, big } = storeWithBigSession();
    const cold = await cached(store);
    expect(cold.saved).toBe(true);
    const fresh = summarizeFileSync(big) as SessionInfo;
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const cat = loadCatalogue(catalogueFile(store.cacheDir, store.root), store.root)!;
    const info = cat.info(cat.records.get(big)!) as SessionInfo;
    expect(openFiles()).toBe(before + 1);
    expect(info.allMessagesText).toBe(fresh.allMessagesText);
    // Every handed-out row has its message text: the file is closed; the output opens it again.
    expect(openFiles()).toBe(before);
    expect(info.toolTargets).toBe(fresh.toolTargets);
    const mainBytes = cat.bytesRead;
    expect(mainBytes).toBeGreaterThan(0);
    expect(mainBytes).toBeLessThan(Buffer.byteLength(fresh.toolOutputText));
    expect(info.toolOutputText).toBe(fresh.toolOutputText);
    expect(cat.bytesRead - mainBytes).toBe(Buffer.byteLength(fresh.toolOutputText));
  });

  it('a cold listing keeps no tool output in memory: each row reads its own back from the new catalogue', async () => {
    const { store } = storeWithBigSession();
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const cold = await cached(store);
    expect(cold.saved).toBe(true);
    // Saved and closed: a picker that lists again and again keeps no descriptor per listing.
    expect(openFiles()).toBe(before);
    const [first, ...rest] = cold.result.sessions;
    expect(rest.length).toBeGreaterThan(3);
    for (const info of [first!, ...rest.slice(0, 3)]) {
      expect(Object.getOwnPropertyDescriptor(info, 'toolOutputText')?.get, info.path).toBeTypeOf('function');
      expect(info.toolOutputText, info.path).toBe((summarizeFileSync(info.path) as SessionInfo).toolOutputText);
    }
    // Another listing replaces the catalogue (new offsets): the rest read their session files instead.
    const file = catalogueFile(store.cacheDir, store.root);
    const replaced = readFileSync(file);
    rmSync(file);
    writeFileSync(file, replaced.subarray(0, 100));
    for (const info of rest.slice(3))
      expect(info.toolOutputText, info.path).toBe((summarizeFileSync(info.path) as SessionInfo).toolOutputText);
  });

  it('the sink reads back what it holds, in its batch or on disk; once given up, a row reads its session file', () => {
    const store = corpusStore();
    const file = catalogueFile(store.cacheDir, store.root);
    const sink = CatalogueSink.open(file, store.root)!;
    const rows = store.files
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => summarizeFileSync(f))
      .filter((r): r is SessionInfo => !('ok' in r));
    const big = 'x'.repeat(5 * 1024 * 1024);
    const ranges = [sink.appendResume('/big.jsonl', big)!, ...rows.map((info) => sink.appendTexts(info)!)];
    // The slice starts with the tag of the session it belongs to.
    expect(sink.read(ranges[0]![0], ranges[0]![1])!.toString()).toBe(`${sliceTag('/big.jsonl')} ${big}`);
    rows.forEach((info, i) => {
      const t = ranges[i + 1] as [number, number, number];
      expect(sink.read(t[0] + t[2], t[1] - t[2])!.toString()).toBe(info.toolOutputText);
      const row = sink.rowReadingBack(info, toSessionRecord(info), t);
      expect({ ...row }).toStrictEqual(plain(info));
    });
    const info = rows.find((r) => r.toolOutputText !== '')!;
    const t = sink.appendTexts(info)!;
    sink.abandon();
    expect(sink.read(t[0], t[1])).toBeUndefined();
    expect(sink.rowReadingBack(info, toSessionRecord(info), t).toolOutputText).toBe(info.toolOutputText);
    expect(existsSync(file)).toBe(false);
  });

  it('checks the files only once the painter says the cached rows are on the screen (or after 100 ms)', async () => {
    const store = corpusStore();
    await cached(store);
    for (const paintMs of [30, 1000]) {
      const counter = { bytes: 0 };
      let paintedAt = 0;
      let firstCheck = 0;
      const t0 = performance.now();
      const result = await listSessionsCached(store.locations, {
        scope: 'all',
        cacheDir: store.cacheDir,
        io: countingIo(counter),
        onCached: () =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              paintedAt = performance.now() - t0;
              resolve();
            }, paintMs),
          ),
        onProgress: (done) => {
          if (done === 1) firstCheck = performance.now() - t0;
        },
      });
      expect(result.stats.catalogue).toBe('loaded');
      if (paintMs === 30) expect(firstCheck).toBeGreaterThanOrEqual(paintedAt);
      // A paint that does not come in time does not hold the listing back for long.
      else expect(firstCheck).toBeLessThan(paintMs);
    }
  });

  it('serves every scope from one catalogue, equal to the plain listing', async () => {
    const store = corpusStore();
    await cached(store);
    for (const dir of ['/home/dev/code/webshop', '/home/dev']) {
      const locations = {
        ...store.locations,
        cwd: dir,
        sessionDir: join(store.root, `--${dir.slice(1).replace(/\//g, '-')}--`),
      };
      for (const scope of ['cwd', 'cwd-tree', 'all'] as const) {
        const warm = await listSessionsCached(locations, { scope, cacheDir: store.cacheDir });
        await warm.saved;
        const fresh = await freshList(locations, scope);
        expect(warm.sessions.map(plain)).toStrictEqual(fresh.sessions);
        expect(warm.stats.catalogue).toBe('loaded');
      }
    }
  });
});

describe('catalogue: incremental refresh', () => {
  it('reads only the appended bytes of a file that grew (plus a 320-byte fingerprint check)', async () => {
    const { store, big } = storeWithBigSession();
    await cached(store);
    const sizeBefore = statSync(big).size;
    const appended = appendLines(big, [
      {
        type: 'message',
        id: 'app00001',
        parentId: '0000007a',
        timestamp: '2026-01-05T12:00:00.000Z',
        message: { role: 'user', content: 'a new question about zebras', timestamp: 1767614400000 },
      },
      {
        type: 'session_info',
        id: 'app00002',
        parentId: 'app00001',
        timestamp: '2026-01-05T12:00:01.000Z',
        name: 'renamed later',
      },
      // A second child of an early entry: a new branch point.
      {
        type: 'label',
        id: 'app00003',
        parentId: '00000002',
        timestamp: '2026-01-05T12:00:02.000Z',
        targetId: '00000002',
        label: 'here',
      },
      {
        type: 'message',
        id: 'app00004',
        parentId: 'missing1',
        timestamp: '2026-01-05T12:00:03.000Z',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'orphan answer' }],
          provider: 'p',
          model: 'm2',
          usage: { input: 5, output: 6, cacheRead: 0, cacheWrite: 0, totalTokens: 11, cost: { total: 0.5 } },
        },
      },
    ]);
    expect(sizeBefore).toBeGreaterThan(200_000);
    const warm = await cached(store);
    expect(warm.result.stats).toMatchObject({ appended: 1, reread: 0, added: 0 });
    expect(warm.bytes).toBeGreaterThanOrEqual(appended);
    expect(warm.bytes).toBeLessThanOrEqual(appended + 320);
    const fresh = await freshList(store.locations);
    expect(warm.sessions).toStrictEqual(fresh.sessions);
    const row = warm.sessions.find((s) => s.path === big)!;
    expect(row).toMatchObject({ name: 'renamed later', labels: ['here'] });
    expect(row.allMessagesText).toContain('zebras');
    expect(row.problems.map((p) => p.kind)).toContain('orphan');
    // And again: the resumed state was saved, so a second append resumes from the new end.
    const more = appendLines(big, [
      {
        type: 'message',
        id: 'app00005',
        parentId: 'app00004',
        timestamp: '2026-01-05T12:01:00.000Z',
        message: { role: 'user', content: 'and giraffes', timestamp: 1767614460000 },
      },
    ]);
    const again = await cached(store);
    expect(again.result.stats.appended).toBe(1);
    expect(again.bytes).toBeLessThanOrEqual(more + 320);
    expect(again.sessions).toStrictEqual((await freshList(store.locations)).sessions);
  });

  it('completes a torn last line on the next refresh', async () => {
    const { store, big } = storeWithBigSession();
    const line = JSON.stringify({
      type: 'message',
      id: 'torn0001',
      parentId: '0000007a',
      timestamp: '2026-01-05T12:00:00.000Z',
      message: { role: 'user', content: 'half written', timestamp: 1767614400000 },
    });
    writeFileSync(big, line.slice(0, 40), { flag: 'a' });
    age(big);
    const first = await cached(store);
    expect(first.sessions.find((s) => s.path === big)!.problems.map((p) => p.kind)).toContain('torn-last-line');
    writeFileSync(big, `${line.slice(40)}\n`, { flag: 'a' });
    age(big);
    const second = await cached(store);
    expect(second.result.stats.appended).toBe(1);
    // The 40 torn bytes after the last `\n` are read again with the rest of their line.
    expect(second.bytes).toBeLessThanOrEqual(line.length + 1 + 320);
    expect(second.sessions).toStrictEqual((await freshList(store.locations)).sessions);
  });

  it('re-reads in full a file that was replaced, shrunk, or rewritten in place', async () => {
    const { store, big, builder } = storeWithBigSession();
    const small = store.files.find((f) => f.endsWith('.jsonl') && f !== big && statSync(f).size > 5000)!;
    const other = store.files.find((f) => f.endsWith('.jsonl') && f !== big && f !== small && statSync(f).size > 5000)!;
    await cached(store);

    // Replaced: same bytes plus a line, via a new file renamed over it (new inode, pi's migration).
    const replacement = `${big}.new`;
    writeFileSync(
      replacement,
      `${builder.text()}${JSON.stringify({ type: 'session_info', id: 'zz000001', parentId: builder.leaf, timestamp: '2026-01-05T13:00:00.000Z', name: 'migrated' })}\n`,
    );
    renameSync(replacement, big);
    age(big);
    // Shrunk: the last line removed.
    const lines = readFileSync(small, 'utf8').split('\n');
    writeFileSync(small, `${lines.slice(0, -3).join('\n')}\n`);
    age(small);
    // Rewritten in place and grown: the header changed (same inode), then more bytes.
    const text = readFileSync(other, 'utf8');
    const rewritten = text.replace('"type":"session"', '"type":"session","x":1');
    expect(rewritten).not.toBe(text);
    writeFileSync(other, `${rewritten}\n`);
    age(other);

    const warm = await cached(store);
    expect(warm.result.stats).toMatchObject({ appended: 0, reread: 3 });
    expect(warm.bytes).toBe(
      statSync(big).size + statSync(small).size + statSync(other).size + 64 /* the head fingerprint that failed */,
    );
    expect(warm.sessions).toStrictEqual((await freshList(store.locations)).sessions);
    expect(warm.sessions.find((s) => s.path === big)!.name).toBe('migrated');
  });

  it('drops deleted files and adds new ones, telling the painter', async () => {
    const store = corpusStore();
    await cached(store);
    const gone = store.files.find((f) => f.endsWith('.jsonl'))!;
    rmSync(gone);
    const added = new SessionBuilder({ id: '019b2222-0000-7000-8000-000000000001', cwd: '/home/test/new' });
    added.user('brand new');
    const addedPath = added.writeTo(
      join(store.root, '--home-test-new--', '2026-01-05T09-00-00-000Z_019b2222-0000-7000-8000-000000000001.jsonl'),
    );
    age(addedPath);
    const removed: string[] = [];
    const arrived: string[] = [];
    const warm = await listSessionsCached(store.locations, {
      scope: 'all',
      cacheDir: store.cacheDir,
      onCached: () => undefined,
      onRemove: (path) => removed.push(path),
      onSession: (info) => arrived.push(info.path),
    });
    await warm.saved;
    expect(warm.stats).toMatchObject({ removed: 1, added: 1, reread: 0, appended: 0 });
    expect(removed).toEqual([gone]);
    expect(arrived).toEqual([addedPath]);
    expect(warm.sessions.map(plain)).toStrictEqual((await freshList(store.locations)).sessions);
    expect(loadCatalogue(catalogueFile(store.cacheDir, store.root), store.root)!.records.has(gone)).toBe(false);
  });

  it('resumes every corpus file from any line boundary to the same summary as one pass', () => {
    const store = corpusStore();
    const dir = tempDir();
    let resumed = 0;
    for (const path of store.files.filter((f) => f.endsWith('.jsonl'))) {
      const bytes = readFileSync(path);
      const ends: number[] = [];
      for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) ends.push(i + 1);
      // A few cut points per file: after the header, in the middle, before the end.
      for (const cut of new Set([ends[0], ends[Math.floor(ends.length / 2)], ends[ends.length - 2]])) {
        if (cut === undefined || cut >= bytes.length) continue;
        const target = join(dir, 'f.jsonl');
        writeFileSync(target, bytes.subarray(0, cut));
        const first = summarizeFull(target);
        writeFileSync(target, bytes.subarray(cut), { flag: 'a' });
        const whole = summarizeFileSync(target);
        if (!first.resume || 'ok' in first.result) {
          expect('ok' in whole || !first.resume).toBe(true);
          continue;
        }
        const next = summarizeAppended(target, first.result, first.resume, first.ino);
        expect(next, path).toBeDefined();
        expect(next!.result, `${path} cut at ${cut}`).toStrictEqual(whole);
        resumed++;
        rmSync(target);
      }
    }
    expect(resumed).toBeGreaterThan(60);
  });
});
