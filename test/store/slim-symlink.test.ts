/**
 * Sessions listed through a symlink (a file kept outside the store and linked in, or a link to
 * another session of the store), as a user runs the CLI: slim writes its copy beside the link,
 * in the store where pi finds it, and trashes the link, never the file behind it; undo puts the
 * same link back (its text as written, relative or not); a fork goes beside the link too; delete
 * moves the link alone. Also with the trash on another file system, where a link cannot be
 * hard-linked into it and is made anew.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';

interface LinkedStore {
  /** The store's project folder, where pi lists the link. */
  dir: string;
  link: string;
  /** The file behind the link. */
  target: string;
  /** The link's text as written. */
  linkText: string;
  env: NodeJS.ProcessEnv;
  cli: (...args: string[]) => ReturnType<typeof runCli>;
}

/** A session with an abandoned branch, kept `where` ('outside' the store, or 'inside' another project folder) and linked in. */
function linked(where: 'outside' | 'inside'): LinkedStore {
  const b = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000001ab' });
  b.user('first');
  const a1 = b.assistant('answer one');
  b.user('an abandoned try');
  b.toolResult('read', 'x'.repeat(50_000));
  b.assistant('abandoned answer');
  b.branchFrom(a1);
  b.user('second');
  b.assistant('answer two');
  const root = tempDir();
  const agent = join(root, 'agent');
  const dir = join(agent, 'sessions', '--home-test-project--');
  mkdirSync(dir, { recursive: true });
  const target =
    where === 'outside'
      ? b.writeTo(join(root, 'my-notes', 'kept-here.jsonl'))
      : b.writeTo(join(agent, 'sessions', '--home-test-other--', '2026-01-05T09-00-00-000Z_other.jsonl'));
  // Outside: an absolute link, as `ln -s ~/my-notes/…` makes; inside: a relative one.
  const linkText = where === 'outside' ? target : join('..', basename(dirname(target)), basename(target));
  const link = join(dir, '2026-01-05T09-00-00-000Z_linked.jsonl');
  symlinkSync(linkText, link);
  const env = {
    PI_CODING_AGENT_DIR: agent,
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CACHE_HOME: join(root, 'cache'),
  };
  return { dir, link, target, linkText, env, cli: (...args) => runCli(args, { env }) };
}

const ok = (run: ReturnType<typeof runCli>): ReturnType<typeof runCli> => {
  expect(run.code, run.stderr).toBe(0);
  return run;
};

const isLink = (path: string): boolean => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

/** The freedesktop trash's files folder under the store's XDG_DATA_HOME. */
const trashFiles = (s: LinkedStore): string[] => {
  const dir = join(s.env['XDG_DATA_HOME']!, 'Trash', 'files');
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
};

describe('slim of a session listed through a symlink', () => {
  for (const where of ['outside', 'inside'] as const) {
    it(`a link to a file ${where} the store: the copy beside the link, the link to the trash, its file untouched; undo puts the link back`, async () => {
      const s = linked(where);
      const before = readFileSync(s.target);
      const piBefore = (await openWithPi(s.link)).manager;
      const plan = JSON.parse(ok(s.cli('slim', s.link, '--json')).stdout) as { path: string; linkTarget: string };
      expect(plan).toMatchObject({ path: s.link, linkTarget: s.target });
      expect(ok(s.cli('slim', s.link)).stdout).toContain(
        `the link would go to the trash (the file it leads to, ${s.target}, stays as it is)`,
      );

      const run = ok(s.cli('slim', s.link, '--yes'));
      const slim = run.stdout.trim();
      expect(dirname(slim)).toBe(s.dir);
      expect(run.stderr).toContain(`the link is in the trash and the file it led to, ${s.target}, is untouched`);
      // The store holds the copy where the link was; the link's file is as it was, where it was.
      expect(readdirSync(s.dir)).toEqual([basename(slim)]);
      expect(isLink(slim)).toBe(false);
      expect(readFileSync(s.target).equals(before)).toBe(true);
      // The trash holds the link itself, not a copy of its file.
      const trashed = trashFiles(s);
      expect(trashed).toHaveLength(1);
      expect(isLink(trashed[0]!)).toBe(true);
      expect(readlinkSync(trashed[0]!)).toBe(s.linkText);
      // pi lists the copy and sees the active path.
      const listed = JSON.parse(ok(s.cli('list', '--all', '--json')).stdout) as { sessions: { path: string }[] };
      expect(listed.sessions.map((r) => r.path)).toContain(slim);
      const pi = await openWithPi(slim);
      expect(pi.manager.buildSessionContext().messages).toEqual(piBefore.buildSessionContext().messages);

      ok(s.cli('undo'));
      expect(isLink(s.link)).toBe(true);
      expect(readlinkSync(s.link)).toBe(s.linkText);
      expect(readFileSync(s.link).equals(before)).toBe(true);
      expect(readFileSync(s.target).equals(before)).toBe(true);
      expect(readdirSync(s.dir)).toEqual([basename(s.link)]);
      // The copy is in the trash now, the link no longer.
      expect(trashFiles(s).map((p) => basename(p))).toEqual([basename(slim)]);
    });
  }

  const canUnshare = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs tmpfs /mnt']).status === 0;
  const q = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
  it.skipIf(!canUnshare)(
    `the trash on another file system: the link is made anew in it, and made anew back on undo${canUnshare ? '' : ' — SKIPPED: unshare -rm with a mount is not permitted here'}`,
    () => {
      const s = linked('inside');
      const before = readFileSync(s.target);
      const data = s.env['XDG_DATA_HOME']!;
      mkdirSync(data, { recursive: true });
      const script = [
        'set -e',
        `mount -t tmpfs -o size=1m tmpfs ${q(data)}`,
        `${q(process.execPath)} ${q(CLI)} slim ${q(s.link)} --yes > /dev/null`,
        `test -L ${q(join(data, 'Trash', 'files', basename(s.link)))}`,
        `readlink ${q(join(data, 'Trash', 'files', basename(s.link)))}`,
        `${q(process.execPath)} ${q(CLI)} undo > /dev/null`,
      ].join('; ');
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', script], {
        env: { ...process.env, ...s.env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(s.linkText);
      expect(isLink(s.link)).toBe(true);
      expect(readlinkSync(s.link)).toBe(s.linkText);
      expect(readFileSync(s.target).equals(before)).toBe(true);
      expect(readdirSync(s.dir)).toEqual([basename(s.link)]);
    },
  );
});

describe('fork and delete of a session listed through a symlink', () => {
  it('a fork goes beside the link (in the store), naming the link as its parent; the file behind it is untouched', async () => {
    for (const where of ['outside', 'inside'] as const) {
      const s = linked(where);
      const before = readFileSync(s.target);
      const fork = ok(s.cli('fork', s.link)).stdout.trim();
      expect(dirname(fork)).toBe(s.dir);
      const pi = await openWithPi(fork);
      expect(pi.manager.getHeader()?.['parentSession']).toBe(s.link);
      expect(readFileSync(s.target).equals(before)).toBe(true);
      expect(isLink(s.link)).toBe(true);
    }
  });

  it('delete moves the link alone to the trash, and undo puts it back', () => {
    const s = linked('outside');
    const before = readFileSync(s.target);
    ok(s.cli('delete', s.link));
    expect(existsSync(s.link) || isLink(s.link)).toBe(false);
    expect(readFileSync(s.target).equals(before)).toBe(true);
    ok(s.cli('undo'));
    expect(readlinkSync(s.link)).toBe(s.linkText);
  });

  it('a link and the session it leads to, deleted together, are two deletes', () => {
    const s = linked('inside');
    const run = ok(s.cli('delete', s.link, s.target));
    expect(run.stderr + run.stdout).not.toMatch(/not a regular file/);
    expect(isLink(s.link)).toBe(false);
    expect(existsSync(s.target)).toBe(false);
    expect(trashFiles(s)).toHaveLength(2);
  });
});
