/**
 * Merging conflict copies made the way Syncthing makes them: one session copied to two machines,
 * each appending its own entries, then one file renamed `….sync-conflict-<date>-<time>-<device>.jsonl`.
 * Run as a user runs it (each CLI call a new process), checked with pi 1.6.0's SessionManager:
 * every entry of every copy in the merged file, pi's context on each copy's leaf as it was, the
 * copy modified last where pi resumes; one undo puts every file back byte for byte; two copies
 * that disagree about an entry are refused and nothing changes; a read-only folder fails in one line.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/store/index.js';
import { CLI, runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';

const NAME = '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001';
const DEVICE = '7QKMJ3X';

/** A pi-shaped entry line with an id of its own (each machine's ids are random in pi: here a prefix per machine). */
function entryLine(id: string, parentId: string, role: 'user' | 'assistant', text: string, ms: number): string {
  const message =
    role === 'user'
      ? { role, content: text, timestamp: ms }
      : {
          role,
          content: [{ type: 'text', text }],
          api: 'anthropic-messages',
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 10, cost: { total: 0.001 } },
          stopReason: 'stop',
          timestamp: ms,
        };
  return JSON.stringify({ type: 'message', id, parentId, timestamp: new Date(ms).toISOString(), message });
}

interface Store {
  dir: string;
  original: string;
  copy: string;
  env: NodeJS.ProcessEnv;
  cli: (...args: string[]) => ReturnType<typeof runCli>;
  /** The leaf each machine left. */
  laptopLeaf: string;
  serverLeaf: string;
}

/**
 * The session both machines had, then each one's turns: the laptop's stay under the session's
 * name, the server's become the conflict copy. `newer`: which file was modified last.
 */
function makeStore(newer: 'original' | 'copy', padding = 0): Store {
  const b = new SessionBuilder();
  b.user('set up the project');
  if (padding > 0) b.toolResult('read', 'x'.repeat(padding));
  const shared = b.assistant('done: package.json and src/');
  b.name('Sync test');
  const prefix = b.text();
  const at = Date.UTC(2026, 0, 5, 12, 0, 0);
  // The laptop: a turn and a label on it.
  const laptop = [
    entryLine('a1000001', shared, 'user', 'add a README (laptop)', at),
    entryLine('a1000002', 'a1000001', 'assistant', 'README added', at + 1000),
  ];
  const laptopLabel = JSON.stringify({
    type: 'label',
    id: 'a1000003',
    parentId: 'a1000002',
    timestamp: new Date(at + 2000).toISOString(),
    targetId: 'a1000002',
    label: 'readme',
  });
  // The server: two turns of its own.
  const server = [
    entryLine('b2000001', shared, 'user', 'run the tests (server)', at + 500),
    entryLine('b2000002', 'b2000001', 'assistant', 'all green', at + 1500),
    entryLine('b2000003', 'b2000002', 'user', 'and the linter', at + 2500),
    entryLine('b2000004', 'b2000003', 'assistant', 'clean', at + 3500),
  ];
  const root = tempDir();
  const dir = join(root, 'agent', 'sessions', '--home-test-project--');
  const original = join(dir, `${NAME}.jsonl`);
  const copy = join(dir, `${NAME}.sync-conflict-20260105-130000-${DEVICE}.jsonl`);
  new SessionBuilder().writeTo(original); // makes the folder
  writeFileSync(original, `${prefix}${[...laptop, laptopLabel].join('\n')}\n`);
  writeFileSync(copy, `${prefix}${server.join('\n')}\n`);
  const older = new Date(at + 60_000);
  const later = new Date(at + 120_000);
  utimesSync(original, newer === 'original' ? later : older, newer === 'original' ? later : older);
  utimesSync(copy, newer === 'copy' ? later : older, newer === 'copy' ? later : older);
  const env = {
    PI_CODING_AGENT_DIR: join(root, 'agent'),
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: tempDir(),
  };
  return {
    dir,
    original,
    copy,
    env,
    cli: (...args: string[]) => runCli(args, { env }),
    laptopLeaf: 'a1000003',
    serverLeaf: 'b2000004',
  };
}

const ok = (run: ReturnType<typeof runCli>): ReturnType<typeof runCli> => {
  expect(run.code, run.stderr).toBe(0);
  return run;
};

/** Every entry of a file, by id, as canonical JSON. */
function entriesOf(path: string): Map<string, string> {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).slice(1);
  return new Map(
    lines.map((line) => {
      const entry = JSON.parse(line) as { id: string };
      return [entry.id, canonicalJson(entry)];
    }),
  );
}

describe('pi-sessions merge-conflicts', () => {
  for (const newer of ['copy', 'original'] as const) {
    it(`merges the union of entries pi loads, the ${newer} (modified last) active, and one undo restores both byte for byte`, async () => {
      const store = makeStore(newer);
      const { dir, original, copy, cli } = store;
      const before = { original: readFileSync(original), copy: readFileSync(copy) };
      const pis = { original: (await openWithPi(original)).manager, copy: (await openWithPi(copy)).manager };
      const wanted = new Map([...entriesOf(original), ...entriesOf(copy)]);

      const run = ok(cli('merge-conflicts', copy, '--yes'));
      expect(run.stdout).toBe(`${original}\n`);
      expect(run.stderr).toContain('Merged ');
      expect(readdirSync(dir)).toEqual([basename(original)]);

      // Every entry of every copy, exactly as it was, once.
      const merged = entriesOf(original);
      expect(merged).toEqual(wanted);
      expect(readFileSync(original, 'utf8').split('\n').filter(Boolean)).toHaveLength(1 + wanted.size);

      const pi = await openWithPi(original);
      expect(pi.changedOnOpen).toBe(false);
      expect(
        pi.manager
          .getEntries()
          .map((e) => e.id)
          .sort(),
      ).toEqual([...wanted.keys()].sort());
      // pi resumes where the machine that wrote last left off.
      expect(pi.manager.getLeafId()).toBe(newer === 'copy' ? store.serverLeaf : store.laptopLeaf);
      // pi's context and branch on each copy's leaf are what that copy gave before the merge.
      for (const [which, leaf] of [
        ['original', store.laptopLeaf],
        ['copy', store.serverLeaf],
      ] as const) {
        expect(await piContextAt(pi.manager, leaf), which).toEqual(pis[which].buildSessionContext().messages);
        expect(
          pi.manager.getBranch(leaf).map((e) => e.id),
          which,
        ).toEqual(pis[which].getBranch().map((e) => e.id));
      }
      expect(pi.manager.getSessionName()).toBe('Sync test');
      expect(pi.manager.getLabel('a1000002')).toBe('readme');

      expect(ok(cli('undo', '--list')).stdout).toMatch(
        /^\S+ {2}merge {3}the merge of “Sync test” .*→ move the merged file to the trash and restore the original and its conflict copy from the trash\n/,
      );
      ok(cli('undo'));
      expect(readdirSync(dir).sort()).toEqual([basename(original), basename(copy)].sort());
      expect(readFileSync(original).equals(before.original)).toBe(true);
      expect(readFileSync(copy).equals(before.copy)).toBe(true);

      // Redo merges the same files again.
      ok(cli('redo'));
      expect(readdirSync(dir)).toEqual([basename(original)]);
      expect(entriesOf(original)).toEqual(wanted);
    });
  }

  it('refuses two copies that hold different entries with the same id: exit 1, one line, nothing changed', () => {
    const { dir, original, copy, cli } = makeStore('copy');
    // The server's copy of a shared entry differs (a sync tool or a hand edit changed it).
    const text = readFileSync(copy, 'utf8').replace('done: package.json and src/', 'done: package.json only');
    writeFileSync(copy, text);
    const before = { original: readFileSync(original), copy: readFileSync(copy) };
    const run = cli('merge-conflicts', original, '--yes');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^pi-sessions: cannot merge: .*\.jsonl \(line 3\) and .*\.jsonl \(line 3\) hold different entries with the same id 00000002; nothing was merged\n$/,
    );
    expect(readdirSync(dir).sort()).toEqual([basename(original), basename(copy)].sort());
    expect(readFileSync(original).equals(before.original)).toBe(true);
    expect(readFileSync(copy).equals(before.copy)).toBe(true);
    expect(ok(cli('undo', '--list')).stdout).toBe('Nothing to undo.\n');
  });

  it('refuses to undo while a file is at a copy’s path again (a sync brought it back), changing nothing', () => {
    const { dir, original, copy, cli } = makeStore('copy');
    ok(cli('merge-conflicts', copy, '--yes'));
    const merged = readFileSync(original);
    writeFileSync(copy, 'synced back\n');
    const run = cli('undo');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^pi-sessions: cannot undo the merge of .*: a file is at .*sync-conflict-\S+ again; `pi-sessions undo --skip` passes over it[^\n]*\n$/,
    );
    expect(readdirSync(dir).sort()).toEqual([basename(original), basename(copy)].sort());
    expect(readFileSync(original).equals(merged)).toBe(true);
    expect(readFileSync(copy, 'utf8')).toBe('synced back\n');
  });

  it('takes the same entry written with another key order as the same entry', () => {
    const { original, copy, cli } = makeStore('copy');
    const lines = readFileSync(copy, 'utf8').split('\n');
    const reordered = Object.fromEntries(Object.entries(JSON.parse(lines[1]!) as object).reverse());
    lines[1] = JSON.stringify(reordered);
    writeFileSync(copy, lines.join('\n'));
    ok(cli('merge-conflicts', original, '--yes'));
    expect(entriesOf(original).size).toBe(3 + 3 + 4);
  });

  const canUnshare = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs tmpfs /mnt']).status === 0;
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  it.skipIf(!canUnshare)(
    `with the trash on a full disk (a 64 KiB tmpfs) the file already trashed comes back and nothing changes${canUnshare ? '' : ' — SKIPPED: unshare -rm with a mount is not permitted here'}`,
    () => {
      // 40 KB each: the first fits in the trash, the second does not.
      const { dir, original, copy, env } = makeStore('copy', 40_000);
      const before = { original: readFileSync(original), copy: readFileSync(copy) };
      const script = `set -e; mount -t tmpfs -o size=64k tmpfs ${q(env['XDG_DATA_HOME']!)}; exec ${q(process.execPath)} ${q(CLI)} merge-conflicts ${q(copy)} --yes`;
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', script], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/^pi-sessions: cannot merge: [^\n]*no space left on device[^\n]*; nothing changed\n$/);
      expect(readdirSync(dir).sort()).toEqual([basename(original), basename(copy)].sort());
      expect(readFileSync(original).equals(before.original)).toBe(true);
      expect(readFileSync(copy).equals(before.copy)).toBe(true);
    },
  );
  it.skipIf(!canUnshare)(
    `in a read-only folder it fails in one line and changes nothing${canUnshare ? '' : ' — SKIPPED: unshare -rm with a mount is not permitted here'}`,
    () => {
      const { dir, original, copy, env } = makeStore('copy');
      const before = { original: readFileSync(original), copy: readFileSync(copy) };
      const script = `set -e; mount --bind ${q(dir)} ${q(dir)}; mount -o remount,bind,ro ${q(dir)} ${q(dir)}; exec ${q(process.execPath)} ${q(CLI)} merge-conflicts ${q(copy)} --yes`;
      const run = spawnSync('unshare', ['-rm', 'sh', '-c', script], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^pi-sessions: [^\n]*read-only file system[^\n]*\n$/);
      expect(readdirSync(dir).sort()).toEqual([basename(original), basename(copy)].sort());
      expect(readFileSync(original).equals(before.original)).toBe(true);
      expect(readFileSync(copy).equals(before.copy)).toBe(true);
    },
  );
});
