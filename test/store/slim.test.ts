/**
 * `pi-sessions slim` as a user runs it (each CLI run a new process: undo works across
 * a restart): the slim copy holds the active path as pi sees it, one undo puts the original back
 * byte for byte and trashes the copy, and real failures (no usable trash, the trash on a full tmpfs,
 * a read-only folder) lose nothing and leave no copy behind.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';

function setup(): {
  file: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  cli: (...args: string[]) => ReturnType<typeof runCli>;
} {
  const b = new SessionBuilder();
  b.user('first');
  const a1 = b.assistant('answer one');
  b.label(a1, 'keep me');
  b.user('an abandoned try');
  b.toolResult('read', 'x'.repeat(200_000));
  b.assistant('abandoned answer');
  b.branchFrom(a1);
  b.name('Slim me');
  b.user('second');
  b.assistant('answer two');
  // A project folder of a store of its own: undo only touches sessions there.
  const root = tempDir();
  const dir = join(root, 'agent', 'sessions', '--proj--');
  const file = b.writeTo(join(dir, '2026-01-05T09-00-00-000Z_s.jsonl'));
  const env = {
    PI_CODING_AGENT_DIR: join(root, 'agent'),
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: tempDir(),
  };
  return { file, dir, env, cli: (...args: string[]) => runCli(args, { env }) };
}

const ok = (run: ReturnType<typeof runCli>): ReturnType<typeof runCli> => {
  expect(run.code, run.stderr).toBe(0);
  return run;
};

describe('pi-sessions slim', () => {
  it('without --yes only says what it would do', () => {
    const { file, dir, cli } = setup();
    const before = readFileSync(file);
    const run = ok(cli('slim', file));
    expect(run.stdout).toMatch(
      /^Would keep the active branch of .*: 5 entries of 9, 19[0-9.]+ KB → about [0-9.]+ KB; the original would go to the trash\.\n$/,
    );
    // The advice is a message for the user, not the plan: stderr.
    expect(run.stderr).toMatch(/^Run again with --yes/);
    const plan = JSON.parse(ok(cli('slim', file, '--json')).stdout) as {
      done: boolean;
      entries: number;
      branchEntries: number;
      sizeBefore: number;
    };
    expect(plan).toMatchObject({ done: false, entries: 9, branchEntries: 5, sizeBefore: before.length });
    expect(readdirSync(dir)).toEqual([basename(file)]);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('keeps the active path as pi sees it, and one undo restores both byte for byte', async () => {
    const { file, dir, cli } = setup();
    const before = readFileSync(file);
    const piBefore = (await openWithPi(file)).manager;
    const run = ok(cli('slim', file, '--yes'));
    const slim = run.stdout.trim();
    expect(run.stderr).toMatch(
      /^Slimmed 19[0-9.]+ KB → [0-9.]+ [KB]+ \(6 entries of 9\); the original is in the trash/,
    );
    expect(readdirSync(dir)).toEqual([basename(slim)]);
    expect(existsSync(file)).toBe(false);

    const pi = await openWithPi(slim);
    expect(pi.changedOnOpen).toBe(false);
    expect(pi.manager.buildSessionContext().messages).toEqual(piBefore.buildSessionContext().messages);
    expect(pi.manager.getSessionName()).toBe('Slim me');
    expect(pi.manager.getLabel(piBefore.getBranch()[1]!.id)).toBe('keep me');
    expect(
      pi.manager
        .getBranch()
        .map((e) => e.id)
        .filter((id) => piBefore.getBranch().some((o) => o.id === id)),
    ).toHaveLength(5);
    expect(pi.manager.getHeader()?.['parentSession']).toBeUndefined();
    expect(readFileSync(slim).length).toBeLessThan(before.length / 10);

    expect(ok(cli('undo', '--list')).stdout).toMatch(
      /^\S+ {2}slim {4}the slim of “Slim me” .*→ restore the original from the trash and move the slim copy to the trash\n/,
    );
    expect(ok(cli('undo')).stdout).toMatch(
      /^Undid the slim of .*: restore the original from the trash and move the slim copy to the trash\.\n$/,
    );
    expect(readdirSync(dir)).toEqual([basename(file)]);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(ok(cli('undo', '--list')).stdout).toMatch(
      /^Nothing to undo: the latest change, the slim of .*, was already undone\.\n/,
    );
  });

  it('refuses a session that is all active branch (exit 1, nothing written)', () => {
    const b = new SessionBuilder();
    b.user('only');
    b.assistant('path');
    const file = b.writeTo(join(tempDir(), 'linear.jsonl'));
    const env = { XDG_STATE_HOME: join(tempDir(), 'state'), XDG_DATA_HOME: tempDir() };
    const run = runCli(['slim', file, '--yes'], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^pi-sessions: .*linear\.jsonl: nothing to slim: every entry is on the active branch\n$/,
    );
    expect(readdirSync(join(file, '..'))).toEqual(['linear.jsonl']);
  });

  it('with no usable trash it fails in one line, keeps the original and removes the copy', () => {
    const { file, dir, env } = setup();
    const before = readFileSync(file);
    // XDG_DATA_HOME is a regular file: the home trash cannot be made under it (ENOTDIR, for real).
    const notADir = join(tempDir(), 'data');
    writeFileSync(notADir, '');
    const run = runCli(['slim', file, '--yes'], { env: { ...env, XDG_DATA_HOME: notADir } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^pi-sessions: cannot slim .*: could not move to the trash: [^\n]+; nothing changed\n$/);
    expect(readdirSync(dir)).toEqual([basename(file)]);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(ok(runCli(['undo', '--list'], { env })).stdout).toBe('Nothing to undo.\n');
  });

  const canUnshare = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs tmpfs /mnt']).status === 0;
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

  it.skipIf(!canUnshare)(
    `with the trash on a full disk (a 64 KiB tmpfs) it removes the copy and keeps the original${canUnshare ? '' : ' — SKIPPED: unshare -rm with a mount is not permitted here'}`,
    () => {
      const { file, dir, env } = setup();
      const before = readFileSync(file);
      // The trash is another file system: the 200 KB original cannot be copied into it.
      const script = `set -e; mount -t tmpfs -o size=64k tmpfs ${q(env['XDG_DATA_HOME']!)}; exec ${q(process.execPath)} ${q(CLI)} slim ${q(file)} --yes`;
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', script], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toMatch(
        /^pi-sessions: cannot slim .*: [^\n]*no space left on device[^\n]*; nothing changed\n$/,
      );
      expect(readdirSync(dir)).toEqual([basename(file)]);
      expect(readFileSync(file).equals(before)).toBe(true);
    },
  );
  it.skipIf(!canUnshare)(
    `in a read-only folder it fails in one line and writes nothing${canUnshare ? '' : ' — SKIPPED: unshare -rm with a mount is not permitted here'}`,
    () => {
      const { file, dir, env } = setup();
      const before = readFileSync(file);
      const script = `set -e; mount --bind ${q(dir)} ${q(dir)}; mount -o remount,bind,ro ${q(dir)} ${q(dir)}; exec ${q(process.execPath)} ${q(CLI)} slim ${q(file)} --yes`;
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', script], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^pi-sessions: [^\n]*read-only file system[^\n]*\n$/);
      expect(readdirSync(dir)).toEqual([basename(file)]);
      expect(readFileSync(file).equals(before)).toBe(true);
    },
  );
});
