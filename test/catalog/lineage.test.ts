/**
 * Forks joined to the tree, found the way the app finds them: a fork made by pi
 * 1.6.0's own SessionManager (`createBranchedSession`, what /fork and /clone run) is found from
 * its listing row alone, at the entry pi branched at, and knows its parent at the same entry.
 */
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSessionsCached } from '../../src/catalog/index.js';
import { catalogueSessions, findLineage, lineageOf, mergeSessions, parentResolver } from '../../src/catalog/lineage.js';
import {
  buildTree,
  type LoadedSession,
  readSessionSync,
  resolveLocations,
  summarizeFileSync,
} from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';
import { openWithPi, piModule } from '../helpers/pi.js';

const WEBSHOP = join(FIXTURES, 'pi-written', 'sessions', '--home-dev-code-webshop--');
const CORPUS_PARENT = '2026-02-05T11-11-43-835Z_019c2d80-38db-70f7-9c6b-a315ccfcc493.jsonl';
const CORPUS_FORK = '2026-02-06T11-50-08-188Z_019c32c9-be3c-70f7-9c6b-a33823ddcd5b.jsonl';

const BRANCH_REEDIT = join(
  FIXTURES,
  'pi-written',
  'sessions',
  '--home-dev-code-pi-tools--',
  '2026-02-05T09-12-40-244Z_019c2d13-3834-70f7-9c6b-a3040ab3463b.jsonl',
);

function load(path: string): LoadedSession {
  const session = readSessionSync(path);
  if (!session.ok) throw new Error(session.message);
  return session;
}

function listed(path: string) {
  const info = summarizeFileSync(path);
  if ('ok' in info) throw new Error(info.message);
  return lineageOf(info);
}

describe('lineage', () => {
  it("finds a pi-made fork at the entry pi branched at, and the fork's parent at the same entry", async () => {
    const dir = join(tempDir(), 'sessions');
    mkdirSync(dir);
    const parentPath = join(dir, 'parent.jsonl');
    cpSync(BRANCH_REEDIT, parentPath);
    const parent = load(parentPath);
    const parentTree = buildTree(parent);
    // An assistant entry off the active path, so the fork is not simply the leaf's copy.
    const target = parent.entries.find(
      (e) =>
        e.type === 'message' &&
        (e as { message?: { role?: string } }).message?.role === 'assistant' &&
        e.id !== parentTree.leafId,
    )!;
    const { SessionManager } = await piModule();
    const forkPath = SessionManager.open(parentPath, dir, '/').createBranchedSession(target.id)!;
    expect(forkPath).toBeTruthy();
    const fork = load(forkPath);
    expect(fork.header.parentSession).toBe(parentPath);

    const known = mergeSessions([listed(parentPath), listed(forkPath)]);
    const fromParent = await findLineage(parentPath, parent, parentTree, known);
    // pi's fork is a copy and nothing more yet.
    expect(fromParent.forks).toEqual([{ path: forkPath, title: listed(forkPath).title, entryId: target.id, added: 0 }]);
    expect(fromParent.parent).toBeUndefined();

    const fromFork = await findLineage(forkPath, fork, buildTree(fork), known);
    expect(fromFork.forks).toEqual([]);
    expect(fromFork.parent).toEqual({ path: parentPath, title: listed(parentPath).title, entryId: target.id });
  });

  it('a fork that cannot be read, or that shares no entry, is left out; a missing parent gives no link', async () => {
    const dir = tempDir();
    const parentPath = join(dir, 'parent.jsonl');
    cpSync(BRANCH_REEDIT, parentPath);
    const parent = load(parentPath);
    const known = [
      { path: join(dir, 'gone.jsonl'), title: 'gone', parentSessionPath: parentPath },
      { path: BRANCH_REEDIT, title: 'same file elsewhere', parentSessionPath: '/somewhere/else.jsonl' },
    ];
    const got = await findLineage(parentPath, parent, buildTree(parent), known);
    expect(got.forks).toEqual([]);
    const orphan: LoadedSession = {
      ...parent,
      header: { ...parent.header, parentSession: join(dir, 'missing.jsonl') },
    };
    expect((await findLineage(parentPath, orphan, buildTree(orphan), known)).parent).toBeUndefined();
  });

  it('the corpus fork (pi wrote it, the store was moved since: its parentSession names the old place) is found at the entry pi branched at', async () => {
    const agent = tempDir();
    const dir = join(agent, 'sessions', '--home-dev-code-webshop--');
    mkdirSync(dir, { recursive: true });
    cpSync(WEBSHOP, dir, { recursive: true });
    const parentPath = join(dir, CORPUS_PARENT);
    const forkPath = join(dir, CORPUS_FORK);
    const fork = load(forkPath);
    expect(fork.header.parentSession).not.toBe(parentPath);
    // Through the catalogue, as `pi-sessions tree <session>` finds it.
    const env = { XDG_CACHE_HOME: tempDir() };
    const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agent } });
    const listing = await listSessionsCached(locations, { scope: 'all', env });
    expect(await listing.saved).toBe(true);
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const known = catalogueSessions(locations, env);
    // The catalogue file is closed again: no row was handed out that could read from it.
    expect(openFiles()).toBe(before);
    expect(known.map((s) => s.path).sort()).toEqual(listing.sessions.map((s) => s.path).sort());

    const parent = load(parentPath);
    const { forks } = await findLineage(parentPath, parent, buildTree(parent), known);
    expect(forks.map((f) => f.path)).toEqual([forkPath]);
    // pi's own answer: the parent's branch to that entry, without its labels, is exactly what the fork copied first.
    const pi = await openWithPi(parentPath);
    const branch = pi.manager
      .getBranch(forks[0]!.entryId)
      .filter((e) => (e as { type?: string }).type !== 'label')
      .map((e) => e.id);
    expect(fork.entries.slice(0, branch.length).map((e) => e.id)).toEqual(branch);
    expect(fork.entries[branch.length]?.type ?? 'label').toBe('label');

    const fromFork = await findLineage(forkPath, fork, buildTree(fork), known);
    expect(fromFork.parent).toMatchObject({ path: parentPath, entryId: forks[0]!.entryId });
  });

  it('a recorded parent path: as listed; else the one listed file of that name (a moved store); else as recorded', () => {
    const s = (path: string) => ({ path, title: path, parentSessionPath: undefined });
    const known = [s('/new/root/p/2026_a.jsonl'), s('/new/root/p/2026_b.jsonl'), s('/new/root/q/2026_b.jsonl')];
    const parentPathOf = parentResolver(known);
    expect(parentPathOf('/new/root/p/2026_b.jsonl')).toBe('/new/root/p/2026_b.jsonl');
    expect(parentPathOf('/old/home/.pi/agent/sessions/p/2026_a.jsonl')).toBe('/new/root/p/2026_a.jsonl');
    // Two listed files of that name: no guess.
    expect(parentPathOf('/old/p/2026_b.jsonl')).toBe('/old/p/2026_b.jsonl');
    expect(parentPathOf('/old/p/2026_c.jsonl')).toBe('/old/p/2026_c.jsonl');
  });

  it('without a catalogue there are no rows', () => {
    const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: tempDir() } });
    expect(catalogueSessions(locations, { XDG_CACHE_HOME: tempDir() })).toEqual([]);
  });
});
