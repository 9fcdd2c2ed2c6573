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
import { META_HEAD, metaPieces } from '../../src/catalog/meta-pieces.js';
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
  it('orders records newest first: a head of META_HEAD, then pieces, records of no session last', () => {
    const record = (p: string, modified?: number): CatalogueRecord =>
      ({
        p,
        z: 1,
        m: 1,
        i: 1,
        ...(modified === undefined ? { x: { reason: 'empty', message: '' } } : { s: { modified } }),
      }) as CatalogueRecord;
    const records = [record('none')];
    for (let i = 0; i < META_HEAD + 700; i++) records.push(record(`s${i}`, i));
    const pieces = metaPieces(records);
    expect(pieces[0]).toHaveLength(META_HEAD);
    expect(pieces[0]![0]!.p).toBe(`s${META_HEAD + 699}`);
    expect(pieces.slice(1).map((p) => p.length)).toEqual([500, 201]);
    const flat = pieces.flat();
    expect(flat.at(-1)!.p).toBe('none');
    expect(flat.map(modifiedOf)).toEqual(flat.map(modifiedOf).sort((a, b) => b - a));
    expect(metaPieces([])).toEqual([[]]);
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
    const all = [...full.records.values()].map(modifiedOf);
    expect(all).toEqual([...all].sort((a, b) => b - a));
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

  it("a project's rows paint from the head only when it holds a screenful of them", async () => {
    const s = store(true);
    await (await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir })).saved;
    const cwdList = async (cwd: string) => {
      const locations = resolveLocations({ cwd, env: { PI_CODING_AGENT_DIR: join(s.root, '..') } });
      const partial: boolean[] = [];
      const result = await listSessionsCached(locations, {
        scope: 'cwd',
        cacheDir: s.cacheDir,
        onCached: (_rows, isPartial) => void partial.push(isPartial),
      });
      return { partial, sessions: result.sessions.length };
    };
    // Each project holds a third of the head: more than HEAD_PAINT_ROWS.
    expect(Math.floor(META_HEAD / PROJECTS)).toBeGreaterThanOrEqual(HEAD_PAINT_ROWS);
    expect(await cwdList('/home/test/p1')).toEqual({ partial: [true, false], sessions: SESSIONS / PROJECTS });
    // None of the small project's rows are among the newest of the store: they paint once, whole.
    expect(await cwdList('/home/test/small')).toEqual({ partial: [false], sessions: SMALL });
  });

  it('a broken piece after the head drops its own records alone; they are read from their files', async () => {
    const s = store();
    const cold = await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir });
    await cold.saved;
    const { bytes, metaStart, lines } = metaLines(s.file);
    const second = metaStart + Buffer.byteLength(`${lines[0]}\n`, 'latin1');
    writeFileSync(s.file, Buffer.concat([bytes.subarray(0, second), Buffer.from('#'), bytes.subarray(second + 1)]));
    const warm = await listSessionsCached(s.locations, { scope: 'all', cacheDir: s.cacheDir });
    expect(warm.stats).toMatchObject({ catalogue: 'loaded', unchanged: META_HEAD, added: SESSIONS - META_HEAD });
    expect(warm.stats.dropped).toBe(1);
    expect(warm.sessions.map((r) => r.path)).toEqual(cold.sessions.map((r) => r.path));
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
