/**
 * The trash loses nothing, tested for real: the trash on another file
 * system is a tmpfs mounted over `XDG_DATA_HOME` inside `unshare -rm` (it vanishes with the
 * namespace, so each script copies the trash out before it ends); pi still appending is a writer
 * process appending numbered lines as fast as it can; a read-only folder is a read-only bind mount.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { REPO_ROOT } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { expectCleanRun, runCliAsync } from './run.js';

const canUnshare = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs tmpfs /mnt']).status === 0;
const SKIP = canUnshare ? '' : ' — SKIPPED: unshare -rm with a tmpfs mount is not permitted here';
const ID = '019b0000-0000-7000-8000-00000000dddd';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

interface Scene {
  root: string;
  session: string;
  /** XDG_DATA_HOME: a tmpfs inside the namespace. */
  xdg: string;
  /** Where the script copies the trash before the namespace (and its tmpfs) goes. */
  out: string;
}

function scene(sessionBytes: number): Scene {
  root = tempDir('pi-sessions-trash-');
  const dir = join(root, 'sessions');
  const xdg = join(root, 'xdg');
  const out = join(root, 'out');
  for (const d of [dir, xdg, out]) mkdirSync(d);
  const builder = new SessionBuilder({ id: ID });
  builder.user('keep every line');
  const filler = 'z'.repeat(64 * 1024);
  for (let bytes = 0; bytes < sessionBytes; bytes += filler.length)
    builder.entry('custom', { customType: 'filler', data: filler });
  const session = builder.writeTo(join(dir, `2026-01-05T09-00-00-000Z_${ID}.jsonl`));
  return { root, session, xdg, out };
}

/** Runs `body` in a user+mount namespace where XDG_DATA_HOME is a fresh tmpfs, then copies the trash out. */
function inNamespace(s: Scene, body: string): { status: number | null; stderr: string } {
  const script = `set -e; mount -t tmpfs -o size=256m tmpfs ${q(s.xdg)}; ${body}; if [ -d ${q(join(s.xdg, 'Trash'))} ]; then cp -a ${q(join(s.xdg, 'Trash'))} ${q(s.out)}/; fi`;
  const run = spawnSync('unshare', ['-rm', 'sh', '-c', script], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: s.root, XDG_DATA_HOME: s.xdg },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stderr: run.stderr };
}

function trashContents(s: Scene): { files: string[]; infos: string[] } {
  const trash = join(s.out, 'Trash');
  const list = (d: string): string[] => (existsSync(join(trash, d)) ? readdirSync(join(trash, d)) : []);
  return { files: list('files'), infos: list('info') };
}

/** The tick numbers in a file's lines (the writer's appended lines). */
function ticks(path: string): number[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"customType":"tick"'))
    .map((l) => (JSON.parse(l) as { data: number }).data);
}

const WRITER = `
import { appendFileSync, existsSync } from 'node:fs';
const [path, stop, started] = process.argv.slice(2);
let n = 0;
// Like pi: one appendFileSync (open by path, write, close) per entry, as fast as it can.
while (!existsSync(stop)) {
  n++;
  appendFileSync(path, JSON.stringify({ type: 'custom', customType: 'tick', id: 't' + n, parentId: null, timestamp: '2026-01-05T09:00:00.000Z', data: n }) + '\\n');
  if (n === 50) appendFileSync(started, 'go');
}
console.log(n);
`;

describe.runIf(canUnshare)(`the trash on another file system${SKIP}`, () => {
  it('deleting a session that pi is appending to loses no line, and says what happened', () => {
    const s = scene(48 * 1024 * 1024);
    const original = readFileSync(s.session);
    const writer = join(s.root, 'writer.mjs');
    writeFileSync(writer, WRITER);
    const [stop, started, count, out, err, code] = ['stop', 'started', 'count', 'stdout', 'stderr', 'code'].map((n) =>
      join(s.root, n),
    ) as [string, string, string, string, string, string];
    const node = q(process.execPath);
    const body = [
      `${node} ${q(writer)} ${q(s.session)} ${q(stop)} ${q(started)} > ${q(count)} & W=$!`,
      `while [ ! -e ${q(started)} ]; do sleep 0.01; done`,
      `set +e; ${node} ${q(CLI)} delete ${q(s.session)} > ${q(out)} 2> ${q(err)}; echo $? > ${q(code)}; set -e`,
      `touch ${q(stop)}; wait $W`,
    ].join('; ');
    const run = inNamespace(s, body);
    expect(run.status, run.stderr).toBe(0);
    const written = Number(readFileSync(count, 'utf8').trim());
    const stdout = readFileSync(out, 'utf8');
    const stderr = readFileSync(err, 'utf8');
    const exit = Number(readFileSync(code, 'utf8').trim());
    const trash = trashContents(s);
    const trashed = trash.files.map((f) => join(s.out, 'Trash', 'files', f));
    // Every line the writer appended is somewhere: in the file, in the trash copy, or in the new
    // file the writer created at the path after the unlink (what pi itself would do).
    const all = [...ticks(s.session), ...trashed.flatMap(ticks)].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: written }, (_, i) => i + 1));
    expect(trash.infos.length, 'an info file per trashed file, and no other').toBe(trash.files.length);
    if (exit === 0) {
      // Moved: the trash holds the session whole, up to where the writer's lines continue.
      expect(stdout.trim()).toBe(`Moved to trash: ${s.session}`);
      expect(trash.files).toHaveLength(1);
      expect(readFileSync(trashed[0]!).subarray(0, original.length).equals(original)).toBe(true);
    } else {
      // Kept: the file grew during the copy; the message says so and the trash holds nothing.
      expect(exit).toBe(1);
      expect(stderr.trim()).toBe(
        `pi-sessions: ${basename(s.session)}: it changed while it was being copied (is pi still writing to it?); kept it, nothing was deleted`,
      );
      expect(trash).toEqual({ files: [], infos: [] });
      expect(readFileSync(s.session).subarray(0, original.length).equals(original)).toBe(true);
    }
    console.log(`cross-device delete under a live writer: exit ${exit}, ${written} lines appended, none lost`);
  }, 180_000);

  it('a quiet session is copied across, verified, unlinked, and undo brings it back across devices', () => {
    const s = scene(4 * 1024 * 1024);
    const before = readFileSync(s.session);
    const script = join(s.root, 'undo.mjs');
    const result = join(s.root, 'result.json');
    writeFileSync(
      script,
      `import { trashSessions, restoreSessions } from ${JSON.stringify(join(REPO_ROOT, 'dist', 'src', 'store', 'trash', 'trash.js'))};
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
const trashed = await trashSessions([process.argv[2]]);
const goneAfterTrash = !existsSync(process.argv[2]);
const infosAfterTrash = readdirSync(process.env.XDG_DATA_HOME + '/Trash/info');
const restored = await restoreSessions(trashed.trashed);
writeFileSync(process.argv[3], JSON.stringify({ trashed, goneAfterTrash, infosAfterTrash, restored, infosAfterUndo: readdirSync(process.env.XDG_DATA_HOME + '/Trash/info') }));`,
    );
    const run = inNamespace(s, `${q(process.execPath)} ${q(script)} ${q(s.session)} ${q(result)}`);
    expect(run.status, run.stderr).toBe(0);
    const r = JSON.parse(readFileSync(result, 'utf8')) as {
      trashed: { trashed: { trashedPath: string }[]; failed: unknown[] };
      goneAfterTrash: boolean;
      infosAfterTrash: string[];
      restored: { restored: string[]; failed: unknown[] };
      infosAfterUndo: string[];
    };
    expect(r.trashed.failed).toEqual([]);
    expect(r.trashed.trashed[0]!.trashedPath.startsWith(s.xdg)).toBe(true);
    expect(r.goneAfterTrash).toBe(true);
    expect(r.infosAfterTrash).toEqual([`${basename(s.session)}.trashinfo`]);
    expect(r.restored).toEqual({ restored: [s.session], failed: [] });
    expect(r.infosAfterUndo).toEqual([]);
    expect(readFileSync(s.session).equals(before)).toBe(true);
  }, 120_000);

  it('a delete from a read-only folder fails clearly and leaves no .trashinfo behind', () => {
    const s = scene(64 * 1024);
    const before = readFileSync(s.session);
    const dir = join(s.root, 'sessions');
    const [out, err, code] = ['stdout', 'stderr', 'code'].map((n) => join(s.root, n)) as [string, string, string];
    const body = [
      `mount --bind ${q(dir)} ${q(dir)}`,
      `mount -o remount,bind,ro ${q(dir)} ${q(dir)}`,
      `set +e; ${q(process.execPath)} ${q(CLI)} delete ${q(s.session)} > ${q(out)} 2> ${q(err)}; echo $? > ${q(code)}; set -e`,
    ].join('; ');
    const run = inNamespace(s, body);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(code, 'utf8').trim()).toBe('1');
    expect(readFileSync(err, 'utf8').trim()).toBe(
      `pi-sessions: ${basename(s.session)}: cannot remove it from its folder: read-only file system; kept it, nothing was deleted`,
    );
    expect(trashContents(s)).toEqual({ files: [], infos: [] });
    expect(readFileSync(s.session).equals(before)).toBe(true);
  }, 60_000);
});

describe('delete deduplicates by real path', () => {
  it('the same session by path and by id is moved once, exit 0', async () => {
    const s = scene(1024);
    const xdg = join(s.root, 'xdg');
    const run = await runCliAsync(
      ['delete', s.session, ID.slice(0, 13), join(s.root, 'sessions', '..', 'sessions', basename(s.session))],
      {
        env: {
          XDG_DATA_HOME: xdg,
          PI_CODING_AGENT_SESSION_DIR: join(s.root, 'sessions'),
          XDG_CACHE_HOME: join(s.root, 'cache'),
        },
        cwd: s.root,
      },
    );
    expectCleanRun(run, 'delete FILE ID FILE');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`Moved to trash: ${s.session}`);
    expect(readdirSync(join(xdg, 'Trash', 'info'))).toEqual([`${basename(s.session)}.trashinfo`]);
    expect(existsSync(s.session)).toBe(false);
  });
});

describe('a delete that the folder refuses (permissions) leaves no .trashinfo', () => {
  const wrapper = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  const canDropRoot =
    spawnSync(wrapper[0]!, [...wrapper.slice(1), 'true']).status === 0 &&
    spawnSync(wrapper[0]!, [...wrapper.slice(1), process.execPath, CLI, '--version']).status === 0;
  it.runIf(canDropRoot)(
    `as uid 65534 (setpriv) in a folder only root may write${canDropRoot ? '' : ' — SKIPPED: cannot run the CLI as uid 65534 here'}`,
    async () => {
      const s = scene(1024);
      const before = readFileSync(s.session);
      const xdg = join(s.root, 'xdg');
      for (const d of [s.root, join(s.root, 'sessions')]) chmodSync(d, 0o755);
      chownSync(xdg, 65534, 65534);
      const run = await runCliAsync(['delete', s.session], { wrapper, env: { XDG_DATA_HOME: xdg, HOME: xdg } });
      expectCleanRun(run, 'delete from a folder the user may not write');
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(
        `pi-sessions: ${basename(s.session)}: cannot move it out of its folder: permission denied; nothing was deleted`,
      );
      expect(readdirSync(join(xdg, 'Trash', 'info'))).toEqual([]);
      expect(readdirSync(join(xdg, 'Trash', 'files'))).toEqual([]);
      expect(readFileSync(s.session).equals(before)).toBe(true);
    },
  );
});
