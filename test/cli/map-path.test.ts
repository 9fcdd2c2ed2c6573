/**
 * The path map from the command line, as a user runs it (the built CLI in a subprocess): map-path
 * adds, replaces and lists mappings in <agentDir>/pi-sessions.json without losing its other keys,
 * refuses relative paths, a broken file and a folder it cannot write with one clear line; a
 * broken file is one warning line for other commands; check suggests a mapping; list's
 * "this folder" takes the sessions recorded under the mapped path.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeCwd } from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { OTHER_UID, otherUserUnavailable } from '../helpers/tiny-disk.js';
import { expectCleanRun, jsonOf, runCliAsync } from '../hostile/run.js';

function setup(): { root: string; agent: string; env: Record<string, string> } {
  const root = tempDir('pi-sessions-map-path-');
  const agent = join(root, 'agent');
  mkdirSync(agent, { recursive: true });
  return { root, agent, env: { PI_CODING_AGENT_DIR: agent, HOME: join(root, 'home') } };
}

describe('pi-sessions map-path', () => {
  it('adds, replaces and lists mappings, keeping the other keys of the file', async () => {
    const { agent, env } = setup();
    const file = join(agent, 'pi-sessions.json');
    writeFileSync(file, JSON.stringify({ theme: 'dark', pathMap: [{ from: '/Users/bo', to: '/home/bo' }] }));
    const empty = await runCliAsync(['map-path', '/Users/ana/', '/home/ana', '--host', 'ana-mac'], { env });
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe(`Mapped /Users/ana → /home/ana (written on ana-mac) in ${file}.\n`);
    const replaced = await runCliAsync(['map-path', '/Users/bo', '/srv/bo'], { env });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      theme: 'dark',
      pathMap: [
        { from: '/Users/bo', to: '/srv/bo' },
        { from: '/Users/ana', to: '/home/ana', host: 'ana-mac' },
      ],
    });
    // Nothing left beside it: the temp file was renamed over the file.
    expect(readdirSync(agent)).toEqual(['pi-sessions.json']);
    const listed = await runCliAsync(['map-path'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('/Users/bo → /srv/bo\n/Users/ana → /home/ana (written on ana-mac)\n');
  });

  it('says there are none, and refuses relative paths, FROM alone and a broken file with one line', async () => {
    const { agent, env } = setup();
    const none = await runCliAsync(['map-path'], { env });
    expect(none.stdout).toBe(`No path mappings in ${join(agent, 'pi-sessions.json')}.\n`);
    const relative = await runCliAsync(['map-path', 'Users/ana', '/home/ana'], { env });
    expectCleanRun(relative, 'relative FROM');
    expect(relative.code).toBe(1);
    expect(relative.stderr).toBe('pi-sessions: FROM must be an absolute path: Users/ana\n');
    const alone = await runCliAsync(['map-path', '/Users/ana'], { env });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/^pi-sessions: map-path needs FROM and TO/);
    writeFileSync(join(agent, 'pi-sessions.json'), '{"pathMap": [');
    const broken = await runCliAsync(['map-path', '/Users/ana', '/home/ana'], { env });
    expectCleanRun(broken, 'broken file');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe(
      `pi-sessions: ${join(agent, 'pi-sessions.json')}: not valid JSON; fix or remove it first\n`,
    );
    expect(readFileSync(join(agent, 'pi-sessions.json'), 'utf8')).toBe('{"pathMap": [');
    // Other commands go on without the mappings, with one warning line.
    const list = await runCliAsync(['list', '--all'], { env });
    expect(list.code).toBe(0);
    expect(list.stderr).toBe(`pi-sessions: warning: ${join(agent, 'pi-sessions.json')}: not valid JSON, ignored\n`);
  });

  it.skipIf(otherUserUnavailable() !== undefined)(
    'in a folder it cannot write: one line, the file unchanged',
    async () => {
      const { root, agent } = setup();
      const home = join(root, 'home');
      mkdirSync(home, { recursive: true });
      chmodSync(root, 0o755);
      chmodSync(agent, 0o555);
      const run = await runCliAsync(['map-path', '/Users/ana', '/home/ana'], {
        env: { PI_CODING_AGENT_DIR: agent, HOME: home },
        wrapper: ['setpriv', `--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups'],
      });
      expectCleanRun(run, 'read-only folder');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`pi-sessions: cannot write ${join(agent, 'pi-sessions.json')}: permission denied\n`);
      expect(readdirSync(agent)).toEqual([]);
    },
  );
});

/** A session recorded on a Mac (cwd under /Users/ana) in pi's folder for that cwd. */
function macSession(sessions: string, cwd: string, name: string, parent?: string): string {
  const dir = join(sessions, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true });
  const b = new SessionBuilder({
    cwd,
    id: `019b0000-0000-7000-8000-00000000000${name.length}`,
    ...(parent ? { parentSession: parent } : {}),
  });
  b.user(`hello from ${name}`);
  b.assistant('hi');
  const path = join(dir, `2026-01-05T09-00-00-000Z_${name}.jsonl`);
  writeFileSync(path, b.text());
  return path;
}

describe('the path map in check and list', () => {
  it('check suggests the mapping (text and pathSuggestions), and no longer once it is made', async () => {
    const { root, agent, env } = setup();
    mkdirSync(join(root, 'home', 'code', 'app'), { recursive: true });
    macSession(join(agent, 'sessions'), '/Users/ana/code/app', 'a');
    macSession(join(agent, 'sessions'), '/Users/ana/code/app', 'bb');
    const text = await runCliAsync(['check', '--all'], { env });
    expect(text.stdout).toContain(
      `Paths from another machine: 2 sessions recorded under /Users/ana, which is missing here (/Users/ana/code/app is ${join(root, 'home', 'code', 'app')} here?)\n  to map them: pi-sessions map-path /Users/ana ${join(root, 'home')}\n`,
    );
    const json = jsonOf(await runCliAsync(['check', '--all', '--json'], { env })) as {
      pathSuggestions: unknown[];
      problemCount: number;
    };
    expect(json.pathSuggestions).toEqual([
      {
        from: '/Users/ana',
        to: join(root, 'home'),
        sessions: 2,
        example: { cwd: '/Users/ana/code/app', mapped: join(root, 'home', 'code', 'app') },
      },
    ]);
    expect(json.problemCount).toBe(2);
    expect((await runCliAsync(['map-path', '/Users/ana', join(root, 'home')], { env })).code).toBe(0);
    const after = jsonOf(await runCliAsync(['check', '--all', '--json'], { env })) as typeof json;
    expect(after.pathSuggestions).toEqual([]);
    // The folders exist where the map puts them: not missing any more.
    expect(after.problemCount).toBe(0);
  });

  it('list: "this folder" (and --tree) take the sessions recorded under the mapped path', async () => {
    const { root, agent, env } = setup();
    const app = join(root, 'home', 'code', 'app');
    mkdirSync(app, { recursive: true });
    const mine = macSession(join(agent, 'sessions'), '/Users/ana/code/app', 'a');
    macSession(join(agent, 'sessions'), '/Users/ana/code/other', 'bb');
    const paths = async (args: string[]): Promise<string[]> =>
      (
        jsonOf(await runCliAsync(['list', '--json', '--no-cache', '--cwd', app, ...args], { env })) as {
          sessions: { path: string }[];
        }
      ).sessions.map((s) => s.path);
    expect(await paths([])).toEqual([]);
    expect(await paths(['--tree'])).toEqual([]);
    writeFileSync(
      join(agent, 'pi-sessions.json'),
      JSON.stringify({ pathMap: [{ from: '/Users/ana', to: join(root, 'home') }] }),
    );
    expect(await paths([])).toEqual([mine]);
    expect(await paths(['--tree'])).toEqual([mine]);
    // With the catalogue too (its rows of the mapped folder count as this folder's).
    const cached = async (): Promise<string[]> =>
      (
        jsonOf(
          await runCliAsync(['list', '--json', '--cwd', app], { env: { ...env, XDG_CACHE_HOME: join(root, 'cache') } }),
        ) as {
          sessions: { path: string }[];
        }
      ).sessions.map((s) => s.path);
    expect(await cached()).toEqual([mine]);
    expect(await cached()).toEqual([mine]);
  });
});
