/** Locations, listing scopes, session arguments and the trash. */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  encodeCwd,
  listSessions,
  resolveLocations,
  resolveSessionArg,
  restoreSessions,
  StoreError,
  type TrashFunction,
  trashSessions,
} from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

describe('locations (pi 1.6 precedence)', () => {
  const home = '/home/u';
  it('encodes cwds exactly like pi', () => {
    expect(encodeCwd('/home/u/my proj')).toBe('--home-u-my proj--');
    expect(encodeCwd('/home/u/a/b')).toBe(encodeCwd('/home/u/a-b'));
    expect(encodeCwd('/')).toBe('----');
    expect(encodeCwd('C:\\Users\\me\\proj')).toBe('--C--Users-me-proj--');
    expect(encodeCwd('\\\\srv\\share\\x')).toBe('---srv-share-x--');
  });

  it('defaults to ~/.pi/agent/sessions/--cwd--', () => {
    const l = resolveLocations({ cwd: '/home/u/proj/', env: {}, home });
    expect(l).toMatchObject({
      cwd: '/home/u/proj',
      agentDir: '/home/u/.pi/agent',
      sessionDir: '/home/u/.pi/agent/sessions/--home-u-proj--',
      customDir: false,
      source: 'default',
    });
  });

  it('honours PI_CODING_AGENT_DIR, the flag, the env var and settings, in that order', () => {
    const agent = tempDir();
    const cwd = tempDir();
    writeFileSync(join(agent, 'settings.json'), JSON.stringify({ sessionDir: '~/global-sessions' }));
    const base = { cwd, home, env: { PI_CODING_AGENT_DIR: agent } as NodeJS.ProcessEnv };
    expect(resolveLocations(base)).toMatchObject({
      sessionDir: '/home/u/global-sessions',
      customDir: true,
      source: 'global-settings',
    });
    mkdirSync(join(cwd, '.pi'));
    writeFileSync(join(cwd, '.pi', 'settings.json'), JSON.stringify({ sessionDir: '/proj-sessions' }));
    expect(resolveLocations(base)).toMatchObject({ sessionDir: '/proj-sessions', source: 'project-settings' });
    expect(resolveLocations({ ...base, env: { ...base.env, PI_CODING_AGENT_SESSION_DIR: '~/env' } })).toMatchObject({
      sessionDir: '/home/u/env',
      source: 'env',
    });
    expect(resolveLocations({ ...base, sessionDir: 'file:///flag' })).toMatchObject({
      sessionDir: '/flag',
      source: 'flag',
    });
    expect(resolveLocations({ ...base, env: { PI_CODING_AGENT_DIR: '~/agent' } }).agentDir).toBe('/home/u/agent');
  });

  it('ignores unreadable settings', () => {
    const agent = tempDir();
    writeFileSync(join(agent, 'settings.json'), '{not json');
    expect(resolveLocations({ cwd: '/x', env: { PI_CODING_AGENT_DIR: agent }, home }).source).toBe('default');
  });
});

function store(): { root: string; agent: string } {
  const agent = tempDir();
  const root = join(agent, 'sessions');
  const make = (cwd: string, id: string, startMs: number, name?: string): void => {
    const b = new SessionBuilder({ cwd, id, startMs });
    b.user(`prompt in ${cwd}`);
    b.assistant('answer');
    if (name) b.name(name);
    b.writeTo(join(root, encodeCwd(cwd), `${new Date(startMs).toISOString().replace(/[:.]/g, '-')}_${id}.jsonl`));
  };
  make('/work/app', 'aaaa1111-0000-7000-8000-000000000001', Date.UTC(2026, 0, 1), 'first');
  make('/work/app', 'aaaa2222-0000-7000-8000-000000000002', Date.UTC(2026, 0, 3));
  make('/work/app/sub', 'bbbb1111-0000-7000-8000-000000000003', Date.UTC(2026, 0, 2));
  make('/elsewhere', 'cccc1111-0000-7000-8000-000000000004', Date.UTC(2026, 0, 4));
  writeFileSync(join(root, encodeCwd('/work/app'), 'notes.txt'), 'not a session');
  writeFileSync(join(root, encodeCwd('/work/app'), 'broken.jsonl'), 'garbage\n');
  writeFileSync(join(root, 'stray.jsonl'), 'ignored: files directly in the root are not listed');
  return { root, agent };
}

describe('listSessions', () => {
  it('lists the current folder, its sub-folders, or every project, newest first', async () => {
    const { agent } = store();
    const l = resolveLocations({ cwd: '/work/app', env: { PI_CODING_AGENT_DIR: agent } });
    const cwd = await listSessions(l, { scope: 'cwd' });
    expect(cwd.sessions.map((s) => s.id.slice(0, 8))).toEqual(['aaaa2222', 'aaaa1111']);
    expect(cwd.skipped.map((s) => s.reason)).toEqual(['no-header']);
    const tree = await listSessions(l, { scope: 'cwd-tree' });
    expect(tree.sessions.map((s) => s.id.slice(0, 8))).toEqual(['aaaa2222', 'bbbb1111', 'aaaa1111']);
    const all = await listSessions(l, { scope: 'all' });
    expect(all.sessions.map((s) => s.id.slice(0, 8))).toEqual(['cccc1111', 'aaaa2222', 'bbbb1111', 'aaaa1111']);
    expect(all.sessions.find((s) => s.name)?.name).toBe('first');
  });

  it('streams sessions and progress, and can be cancelled', async () => {
    const { agent } = store();
    const l = resolveLocations({ cwd: '/work/app', env: { PI_CODING_AGENT_DIR: agent } });
    const seen: string[] = [];
    const progress: [number, number][] = [];
    await listSessions(l, {
      scope: 'all',
      onSession: (s) => seen.push(s.id),
      onProgress: (a, b) => progress.push([a, b]),
    });
    expect(seen).toHaveLength(4);
    expect(progress.at(-1)).toEqual([5, 5]);
    const controller = new AbortController();
    controller.abort();
    await expect(listSessions(l, { scope: 'all', signal: controller.signal })).rejects.toThrow();
  });

  it('filters a flat custom dir by header cwd for the current folder, not for all', async () => {
    const dir = tempDir();
    for (const [cwd, id] of [
      ['/a', 'a0000000-0000-7000-8000-000000000001'],
      ['/b', 'b0000000-0000-7000-8000-000000000002'],
    ] as const) {
      const b = new SessionBuilder({ cwd, id });
      b.user('x');
      b.writeTo(join(dir, `${id}.jsonl`));
    }
    const l = resolveLocations({ cwd: '/a', sessionDir: dir, env: {} });
    expect(l.customDir).toBe(true);
    expect((await listSessions(l, { scope: 'cwd' })).sessions.map((s) => s.cwd)).toEqual(['/a']);
    expect((await listSessions(l, { scope: 'all' })).sessions).toHaveLength(2);
  });

  it('reports a missing folder, a file in its place, and follows symlinked project folders', async () => {
    const agent = tempDir();
    const l = resolveLocations({ cwd: '/x', env: { PI_CODING_AGENT_DIR: agent } });
    expect(await listSessions(l, { scope: 'all' })).toMatchObject({ sessions: [], dirMissing: true });
    writeFileSync(join(agent, 'sessions'), 'oops');
    expect((await listSessions(l, { scope: 'all' })).dirProblem).toMatch(/not a directory/);

    const { agent: other, root } = store();
    const linked = tempDir();
    symlinkSync(join(root, encodeCwd('/elsewhere')), join(linked, 'link'));
    const viaLink = resolveLocations({ cwd: '/x', env: { PI_CODING_AGENT_DIR: other } });
    expect((await listSessions(viaLink, { scope: 'all' })).sessions).toHaveLength(4);
    mkdirSync(join(linked, 'sessions'));
    symlinkSync(join(root, encodeCwd('/elsewhere')), join(linked, 'sessions', 'proj'));
    symlinkSync(join(linked, 'sessions', 'loop'), join(linked, 'sessions', 'loop'));
    const loops = await listSessions(resolveLocations({ cwd: '/x', env: { PI_CODING_AGENT_DIR: linked } }), {
      scope: 'all',
    });
    expect(loops.sessions).toHaveLength(1);
  });
});

describe('resolveSessionArg', () => {
  it('accepts a path, an id, or a unique prefix, and explains ambiguity', async () => {
    const { agent, root } = store();
    const l = resolveLocations({ cwd: '/work/app', env: { PI_CODING_AGENT_DIR: agent } });
    const file = readdirSync(join(root, encodeCwd('/elsewhere')))[0]!;
    expect(await resolveSessionArg(join(root, encodeCwd('/elsewhere'), file), l)).toContain(file);
    expect(await resolveSessionArg('cccc1111-0000-7000-8000-000000000004', l)).toContain(file);
    expect(await resolveSessionArg('cccc', l)).toContain(file);
    await expect(resolveSessionArg('aaaa', l)).rejects.toThrow(/matches 2 sessions/);
    await expect(resolveSessionArg('ffff', l)).rejects.toThrow(StoreError);
    await expect(resolveSessionArg('/no/such.jsonl', l)).rejects.toThrow(/no such session file/);
  });
});

describe('trash', () => {
  it('moves files with the injected trash, restores them, and reports failures per file', async () => {
    const dir = tempDir();
    const trashDir = tempDir();
    const a = join(dir, 'a.jsonl');
    writeFileSync(a, 'a');
    const fakeTrash: TrashFunction = async (paths) => {
      const { renameSync } = await import('node:fs');
      return paths.map((p) => {
        const target = join(trashDir, 'files', 'x');
        mkdirSync(join(trashDir, 'files'), { recursive: true });
        renameSync(p, target);
        writeFileSync(join(trashDir, 'x.trashinfo'), `Path=${p}`);
        return { path: target, info: join(trashDir, 'x.trashinfo') };
      });
    };
    const outcome = await trashSessions([a, join(dir, 'missing.jsonl')], { trash: fakeTrash });
    expect(outcome.trashed).toEqual([
      { path: a, how: 'trash', trashedPath: join(trashDir, 'files', 'x'), infoPath: join(trashDir, 'x.trashinfo') },
    ]);
    expect(outcome.failed).toEqual([{ path: join(dir, 'missing.jsonl'), error: 'no such file or directory' }]);
    expect(existsSync(a)).toBe(false);
    const restored = await restoreSessions(outcome.trashed);
    expect(restored.restored).toEqual([a]);
    expect(readFileSync(a, 'utf8')).toBe('a');
    expect(existsSync(join(trashDir, 'x.trashinfo'))).toBe(false);
  });

  it('never deletes permanently when the trash fails, and says so', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    writeFileSync(a, 'a');
    const broken: TrashFunction = async () => {
      throw new Error('no trash here');
    };
    const outcome = await trashSessions([a], { trash: broken });
    expect(outcome.failed[0]!.error).toMatch(/could not move to the trash: no trash here/);
    expect(existsSync(a)).toBe(true);
    const permanent = await trashSessions([a], { permanent: true, trash: broken });
    expect(permanent.trashed).toEqual([{ path: a, how: 'deleted' }]);
    expect(existsSync(a)).toBe(false);
    expect((await restoreSessions(permanent.trashed)).failed[0]!.error).toMatch(/permanently/);
  });

  it('refuses to restore over a file that exists again', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl');
    writeFileSync(a, 'new');
    const result = await restoreSessions([{ path: a, how: 'trash', trashedPath: join(dir, 'gone') }]);
    expect(result.failed[0]!.error).toMatch(/exists again/);
    expect(readFileSync(a, 'utf8')).toBe('new');
  });
});
