/**
 * The whole committed corpus against pi 1.6.0's own answers (test/fixtures/{pi-written,generated}/goldens).
 *
 * Deliberate differences, each asserted below rather than skipped:
 * - A duplicated line (same id twice): pi's getTree attaches the node once per occurrence, so it
 *   and its subtree appear twice; we show each id once (the last occurrence wins).
 * - A file with a UTF-8 BOM: pi refuses it; we read it and report a `bom` problem.
 * - An empty file: pi writes a new header into it on open; we never write on read and report it
 *   as not a session ("empty").
 * - Version-1 files: pi invents random ids; ours are derived from the header id and position,
 *   so ids differ and the structure is compared through a position map.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildContext,
  buildTree,
  getBranch,
  listSessions,
  readSessionSync,
  resolveLocations,
  type SessionInfo,
} from '../../src/store/index.js';
import { CORPORA, canonicalJson, FIXTURES, goldenCases, sessionsRoot, sha1 } from '../helpers/corpus.js';

const cases = goldenCases();

describe('corpus goldens', () => {
  it('finds the corpus', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  for (const c of cases) {
    const g = c.golden;
    it(`${c.corpus}: ${c.folder}/${c.file}`, () => {
      const bytesBefore = readFileSync(c.sessionPath);
      const mtimeBefore = statSync(c.sessionPath).mtimeMs;
      const result = readSessionSync(c.sessionPath);
      // Reading never writes, even where pi does (newline repair, migration, empty-file header).
      expect(readFileSync(c.sessionPath).equals(bytesBefore)).toBe(true);
      expect(statSync(c.sessionPath).mtimeMs).toBe(mtimeBefore);

      if (g.generatedHeader) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.reason).toBe('empty');
        return;
      }
      if (g.error) {
        if (result.ok) {
          // Deliberate difference: a BOM file is read, with the problem reported.
          expect(result.problems.map((p) => p.kind)).toContain('bom');
        } else {
          expect(['no-header', 'bom']).toContain(result.reason);
        }
        return;
      }
      expect(result.ok).toBe(true);
      if (!result.ok) return;

      // Map pi's ids to ours by file position (identity except for migrated v1 files).
      expect(result.entries.map((e) => e.type)).toEqual(g.entries.map((e) => e.type));
      const idMap = new Map<string | null, string | null>([[null, null]]);
      g.entries.forEach((e, i) => {
        idMap.set(e.id, result.entries[i]!.id);
      });
      const ours = (id: string | null): string | null => (idMap.has(id) ? idMap.get(id)! : id);
      if (!g.idsFromMigration) expect(result.entries.map((e) => e.id)).toEqual(g.entries.map((e) => e.id));
      expect(result.entries.map((e) => e.parentId)).toEqual(g.entries.map((e) => ours(e.parentId)));

      const header = { ...result.header };
      expect(header['version']).toBe(g.header!['version']);
      expect(header['id']).toBe(g.sessionId);
      expect(result.diskVersion).toBe(g.diskVersion);

      const tree = buildTree(result);
      expect(tree.leafId).toBe(ours(g.leafId));
      expect(tree.sessionName ?? null).toBe(g.sessionName || null);
      expect(Object.fromEntries([...tree.labels].map(([k, v]) => [k, v]))).toEqual(mapKeys(g.labels, ours));
      expect(Object.fromEntries(tree.labelTimestamps)).toEqual(mapKeys(g.labelTimestamps, ours));
      expect(tree.roots.map((e) => e.id)).toEqual(g.tree.roots.map(ours));

      const duplicated = g.entries.length !== new Set(g.entries.map((e) => e.id)).size;
      for (const [parent, kids] of Object.entries(g.tree.children)) {
        const expected = kids.map(ours);
        const actual = (tree.children.get(ours(parent)!) ?? []).map((e) => e.id);
        if (duplicated && new Set(expected).size !== expected.length) {
          // Deliberate difference: pi lists a duplicated id twice; we list it once.
          expect(actual).toEqual([...new Set(expected)]);
        } else {
          expect(actual).toEqual(expected);
        }
      }

      expect(getBranch(tree, tree.leafId).map((e) => e.id)).toEqual(g.branch.map(ours));
      // The corpus has no retainedTail, so the format's rule and pi 1.6.0's agree; pi's is asked for.
      const context = buildContext(tree, tree.leafId, { asPi: true });
      expect(context.contextEntries.map((e) => e.id)).toEqual(g.contextEntries.map(ours));
      expect(context.model).toEqual(g.context.model);
      expect(context.thinkingLevel).toBe(g.context.thinkingLevel);
      expect(context.sources).toEqual(g.context.messages.map((m) => ({ entryId: ours(m.src) })));
      expect(context.messages.map((m) => m['role'])).toEqual(g.context.messages.map((m) => m.role));
      context.messages.forEach((m, i) => {
        const expected = g.context.messages[i]!;
        expect(sha1(canonicalJson(m)), `message ${i} (${expected.role} from ${expected.src})`).toBe(expected.csha1);
        if (!g.idsFromMigration) expect(sha1(JSON.stringify(m)), `message ${i} raw`).toBe(expected.sha1);
      });
      expect(buildContext(tree).messages, 'the format rule equals pi without a retainedTail').toEqual(context.messages);
    });
  }
});

function mapKeys(record: Record<string, string>, map: (id: string) => string | null): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [map(k) ?? k, v]));
}

interface GoldenInfo {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: string;
  modified: string;
  messageCount: number;
  firstMessage: string;
  allMessagesText: string;
}

function comparable(info: SessionInfo, root: string): GoldenInfo {
  const out: GoldenInfo = {
    path: relative(root, info.path),
    id: info.id,
    cwd: info.cwd,
    created: info.created.toISOString(),
    modified: info.modified.toISOString(),
    messageCount: info.messageCount,
    firstMessage: info.firstMessage,
    allMessagesText: info.allMessagesText,
  };
  if (info.name !== undefined) out.name = info.name;
  if (info.parentSessionPath !== undefined) out.parentSessionPath = basename(info.parentSessionPath);
  return out;
}

function goldenComparable(g: GoldenInfo): GoldenInfo {
  const out = { ...g };
  if (out.parentSessionPath !== undefined) out.parentSessionPath = basename(out.parentSessionPath);
  if (out.name === undefined) delete out.name;
  return out;
}

describe('corpus listing goldens', () => {
  for (const corpus of CORPORA) {
    it(`${corpus}: listAll over every project matches pi (plus the files pi hides, with their problems)`, async () => {
      const root = sessionsRoot(corpus);
      const golden = JSON.parse(readFileSync(join(FIXTURES, corpus, 'goldens', 'list.json'), 'utf8')) as {
        sessions: GoldenInfo[];
      };
      const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: join(FIXTURES, corpus) } });
      const { sessions } = await listSessions(locations, { scope: 'all' });
      const piPaths = new Set(golden.sessions.map((s) => s.path));
      const ours = sessions.map((s) => comparable(s, root));
      expect(ours.filter((s) => piPaths.has(s.path))).toEqual(golden.sessions.map(goldenComparable));
      // Sessions pi hides are ones it cannot open or list; we list them and say why.
      for (const extra of sessions.filter((s) => !piPaths.has(relative(root, s.path)))) {
        expect(extra.problems.length, `${extra.path} is listed by us only, so it must carry a problem`).toBeGreaterThan(
          0,
        );
      }
    });

    it(`${corpus}: listAll(folder) for each project matches pi`, async () => {
      const root = sessionsRoot(corpus);
      const listsDir = join(FIXTURES, corpus, 'goldens', 'lists');
      for (const name of (await import('node:fs')).readdirSync(listsDir)) {
        const folder = name.replace(/\.json$/, '');
        const golden = JSON.parse(readFileSync(join(listsDir, name), 'utf8')) as { sessions: GoldenInfo[] };
        const locations = resolveLocations({ cwd: '/nonexistent', sessionDir: join(root, folder), env: {} });
        const { sessions } = await listSessions(locations, { scope: 'all' });
        const piPaths = new Set(golden.sessions.map((s) => basename(s.path)));
        const ours = sessions
          .map((s) => comparable(s, join(root, folder)))
          .filter((s) => piPaths.has(basename(s.path)));
        expect(ours.map((s) => ({ ...s, path: basename(s.path) }))).toEqual(
          golden.sessions.map((s) => ({ ...goldenComparable(s), path: basename(s.path) })),
        );
      }
    });
  }
});
