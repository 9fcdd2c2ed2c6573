/**
 * The catalogue's metadata in pieces, newest first: a warm start paints the head's rows before the
 * rest is parsed, and a broken piece costs only its own records.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogueRecord } from '../../src/catalog/format.js';
import {
  catalogueFile,
  HEAD_PAINT_ROWS,
  listSessionsCached,
  loadCatalogue,
  openCatalogue,
} from '../../src/catalog/index.js';
import { META_HEAD, metaLayout, parseFolderIndex } from '../../src/catalog/meta-pieces.js';
import { resolveLocations, type SessionInfo } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { age } from './helpers.js';

/** A head and one more piece, shared evenly by the projects. */
const SESSIONS = META_HEAD + 152;
const PROJECTS = 3;
const SMALL = 5;

/**
 * SESSIONS sessions in PROJECTS folders; session i was last active i minutes after the first. With
 * `small`, a project of SMALL sessions older than all of them too.
 */
function store(small = false) {
  const agentDir = tempDir('pi-sessions-meta-pieces-');
  const root = join(agentDir, 'sessions');
  for (let i = 0; i < SESSIONS; i++) {
    const id = `019b0000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    const session = new SessionBuilder({
      id,
      cwd: `/home/test/p${i % PROJECTS}`,
      startMs: Date.UTC(2026, 0, 5) + i * 60_000,
    });
    session.user(`question ${i}`);
    session.assistant(`answer ${i}`);
    age(session.writeTo(join(root, `--home-test-p${i % PROJECTS}--`, `2026-01-05T09-00-00-000Z_${id}.jsonl`)));
  }
  for (let i = 0; small && i < SMALL; i++) {
    const id = `019a0000-0000-7000-8000-${String(i).padStart(12, '0')}`;
    const session = new SessionBuilder({ id, cwd: '/home/test/small', startMs: Date.UTC(2025, 0, 5) + i * 60_000 });
    session.user(`old question ${i}`);
    age(session.writeTo(join(root, '--home-test-small--', `2025-01-05T09-00-00-000Z_${id}.jsonl`)));
  }
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } });
  const cacheDir = join(tempDir('pi-sessions-meta-pieces-cache-'), 'pi-sessions');
  return { root, locations, cacheDir, file: catalogueFile(cacheDir, root) };
}

/** The metadata section's lines (pieces) of a catalogue file. */
function metaLines(file: string): { bytes: Buffer; metaStart: number; lines: string[] } {
  const bytes = readFileSync(file);
  const nl = bytes.indexOf(0x0a);
  const header = JSON.parse(bytes.toString('utf8', 0, nl)) as { data: number; meta: number };
  const metaStart = nl + 1 + header.data;
  const lines = bytes.toString('latin1', metaStart).split('\n');
  expect(lines.pop()).toBe('');
  return { bytes, metaStart, lines };
}

const modifiedOf = (r: CatalogueRecord): number => r.s?.modified ?? Number.NEGATIVE_INFINITY;

describe('catalogue metadata in pieces', () => {
  it('lays out a head of the newest META_HEAD, then each folder in pieces of its own, then the folder index', () => {
    const record = (p: string, modified?: number): CatalogueRecord =>
      ({
        p,
        z: 1,
        m: 1,
        i: 1,
        ...(modified === undefined ? { x: { reason: 'empty', message: '' } } : { s: { modified } }),
      }) as CatalogueRecord;
    const records = [record('/r/b/none')];
    for (let i = 0; i < META_HEAD + 900; i++) records.push(record(`/r/${i % 3 === 0 ? 'a' : 'b'}/s${i}`, i));
    const { pieces, folders } = metaLayout(records);
    expect(pieces[0]).toHaveLength(META_HEAD);
    expect(pieces[0]!.map(modifiedOf)).toEqual(pieces[0]!.map(modifiedOf).sort((x, y) => y - x));
    expect(Math.min(...pieces[0]!.map(modifiedOf))).toBe(900);
    // a: 300 of the 900 older ones; b: 600 and the record of no session.
    expect(folders).toEqual([
      ['/r/b', 1, 2],
      ['/r/a', 3, 1],
    ]);
    expect(pieces.slice(1).map((p) => p.length)).toEqual([500, 101, 300]);
    for (const [folder, first, count] of folders)
      for (const piece of pieces.slice(first, first + count))
        expect(piece.every((r) => r.p.startsWith(`${folder}/`))).toBe(true);
    expect(
      pieces
        .flat()
        .map((r) => r.p)
        .sort(),
    ).toEqual(records.map((r) => r.p).sort());
    expect(metaLayout([])).toEqual({ pieces: [[]], folders: [] });
  });

  it('reads back only a folder index that fits its pieces', () => {
    expect(parseFolderIndex('{"folders":[["/r/a",1,2]]}', 3)).toEqual(new Map([['/r/a', [1, 2]]]));
    for (const bad of [
      '{"folders":[["/r/a",1,3]]}',
      '{"folders":[["/r/a",0,1]]}',
      '{"folders":[["/r/a",1,1],["/r/a",2,1]]}',
      '{"folders":[[1,1,1]]}',
      '{"folders":{}}',
      '[]',
      'null',
      'not json',
    ])
      expect(parseFolderIndex(bad, 3), bad).toBeUndefined();
  });

  it('a saved catalogue opens with its head alone; the rest parses to the same records as a full load', async () => {
    const s = store();
    await (await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir })).saved;
    const { lines } = metaLines(s.file);
    expect(lines.length).toBeGreaterThan(1);
    const head = JSON.parse(lines[0]!) as CatalogueRecord[];
    expect(head).toHaveLength(META_HEAD);
    const opened = openCatalogue(s.file, s.root)!;
    expect(opened.complete).toBe(false);
    expect([...opened.records.keys()]).toEqual(head.map((r) => r.p));
    await opened.loadRest();
    expect(opened.complete).toBe(true);
    expect(opened.dropped).toBe(0);
    const full = loadCatalogue(s.file, s.root)!;
    expect([...opened.records.keys()]).toEqual([...full.records.keys()]);
    expect(full.records.size).toBe(SESSIONS);
    const newest = Math.min(...head.map(modifiedOf));
    expect([...full.records.values()].slice(META_HEAD).every((r) => modifiedOf(r) < newest)).toBe(true);
    expect(parseFolderIndex(lines.at(-1)!, lines.length - 1)?.size).toBe(PROJECTS);
  });

  it('a warm listing paints the newest rows from the head, then every row, as a cold listing has them', async () => {
    const s = store();
    const cold = await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir });
    await cold.saved;
    const paints: { paths: string[]; partial: boolean }[] = [];
    const warm = await listSessionsCached(s.locations, {
      scope: 'all',
      cacheDir: s.cacheDir,
      onCached: (rows: SessionInfo[], partial: boolean) =>
        void paints.push({ paths: rows.map((r) => r.path), partial }),
    });
    const newest = cold.sessions.map((r) => r.path);
    expect(paints.map((p) => p.partial)).toEqual([true, false]);
    expect(paints[0]!.paths).toEqual(newest.slice(0, META_HEAD));
    expect(paints[1]!.paths).toEqual(newest);
    expect(warm.sessions.map((r) => r.path)).toEqual(newest);
    expect(warm.stats).toMatchObject({
      catalogue: 'loaded',
      cached: SESSIONS,
      unchanged: SESSIONS,
      added: 0,
      dropped: 0,
    });
    // Once listed and saved the catalogue lets its records go; the rows still read their texts from it.
    await warm.saved;
    const texts = (rows: SessionInfo[]) => rows.map((r) => [r.allMessagesText, r.summaryText, r.toolOutputText]);
    expect(texts(warm.sessions)).toEqual(texts(cold.sessions));
  });

  it("a project's rows paint from the head when it holds a screenful of them, else from its folder's pieces", async () => {
    const s = store(true);
    await (await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir })).saved;
    const head = (JSON.parse(metaLines(s.file).lines[0]!) as CatalogueRecord[]).map((r) => r.p);
    const cwdList = async (cwd: string) => {
      const locations = resolveLocations({ cwd, env: { PI_CODING_AGENT_DIR: join(s.root, '..') } });
      const paints: [boolean, number][] = [];
      const result = await listSessionsCached(locations, {
        scope: 'cwd',
        cacheDir: s.cacheDir,
        onCached: (rows, partial) => void paints.push([partial, rows.length]),
      });
      return { paints, sessions: result.sessions.length };
    };
    // Each project holds a third of the head: more than HEAD_PAINT_ROWS, so the head's rows paint first.
    const inHead = head.filter((p) => p.includes('--home-test-p1--')).length;
    expect(inHead).toBeGreaterThanOrEqual(HEAD_PAINT_ROWS);
    expect(await cwdList('/home/test/p1')).toEqual({
      paints: [
        [true, inHead],
        [false, SESSIONS / PROJECTS],
      ],
      sessions: SESSIONS / PROJECTS,
    });
    // None of the small project's rows are among the newest of the store: its folder's pieces paint them, all.
    expect(await cwdList('/home/test/small')).toEqual({
      paints: [
        [true, SMALL],
        [false, SMALL],
      ],
      sessions: SMALL,
    });
  });

  it('a broken piece after the head drops its own records alone; they are read from their files', async () => {
    const s = store();
    const cold = await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir });
    await cold.saved;
    const { bytes, metaStart, lines } = metaLines(s.file);
    const second = metaStart + Buffer.byteLength(`${lines[0]}\n`, 'latin1');
    writeFileSync(s.file, Buffer.concat([bytes.subarray(0, second), Buffer.from('#'), bytes.subarray(second + 1)]));
    const broken = (JSON.parse(lines[1]!) as CatalogueRecord[]).length;
    const warm = await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir });
    expect(warm.stats).toMatchObject({ catalogue: 'loaded', unchanged: SESSIONS - broken, added: broken });
    expect(warm.stats.dropped).toBe(1);
    expect(warm.sessions.map((r) => r.path)).toEqual(cold.sessions.map((r) => r.path));
    expect(await warm.saved).toBe(true);
    expect(loadCatalogue(s.file, s.root)!.dropped).toBe(0);
  });

  it('a broken folder index costs nothing but a rewrite: every piece is still parsed', async () => {
    const s = store();
    const cold = await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir });
    await cold.saved;
    const { bytes } = metaLines(s.file);
    // `{"folders":` becomes `{"fOlders":` (same length): not an index, so taken for a piece, and not one.
    const at = bytes.lastIndexOf('{"folders":');
    writeFileSync(s.file, Buffer.concat([bytes.subarray(0, at + 3), Buffer.from('O'), bytes.subarray(at + 4)]));
    const warm = await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir });
    expect(warm.stats).toMatchObject({ catalogue: 'loaded', unchanged: SESSIONS, added: 0, dropped: 1 });
    expect(await warm.saved).toBe(true);
    expect(loadCatalogue(s.file, s.root)!.dropped).toBe(0);
  });

  it('an edited head record is dropped alone, by its own checksum', async () => {
    const s = store();
    await (await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir })).saved;
    const { bytes, metaStart, lines } = metaLines(s.file);
    // Same length, so the header's lengths still hold: only the record's checksum can tell.
    const edited = lines[0]!.replace('"messageCount":2', '"messageCount":3');
    expect(edited).not.toBe(lines[0]);
    const at = metaStart;
    writeFileSync(
      s.file,
      Buffer.concat([bytes.subarray(0, at), Buffer.from(edited, 'latin1'), bytes.subarray(at + edited.length)]),
    );
    const opened = openCatalogue(s.file, s.root)!;
    expect(opened.records.size).toBe(META_HEAD - 1);
    expect(opened.dropped).toBe(1);
    await opened.loadRest();
    expect(opened.records.size).toBe(SESSIONS - 1);
  });
});
