/**
 * `pi-sessions merge-conflicts` and `check` on a folder a sync tool is writing to, as a user runs
 * them (the built CLI in a subprocess): `check` warns on the original with what each copy adds
 * and never lists the sync's temp files; `merge-conflicts` plans without --yes (or with
 * --dry-run), merges with it, prints JSON, rejects bad usage with exit 2, and a copy's hostile
 * name never acts on the terminal.
 */
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

const NAME = '2026-01-05T09-00-00-000Z_019b0000-0000-7000-8000-000000000001';

/** A folder with a session, its Syncthing conflict copy (two entries of its own) and a sync's temp files. */
function syncedFolder(copyName = `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`) {
  const dir = tempDir('pi-sessions-merge-cli-');
  const b = new SessionBuilder({ cwd: dir });
  b.user('shared question');
  const shared = b.assistant('shared answer');
  const prefix = b.text();
  b.user('on the laptop');
  const original = b.writeTo(join(dir, `${NAME}.jsonl`));
  const copy = join(dir, copyName);
  const at = Date.UTC(2026, 0, 5, 13, 0, 0);
  const line = (id: string, parentId: string, text: string) =>
    JSON.stringify({
      type: 'message',
      id,
      parentId,
      timestamp: new Date(at).toISOString(),
      message: { role: 'user', content: text, timestamp: at },
    });
  writeFileSync(
    copy,
    `${prefix}${line('b2000001', shared, 'on the server')}\n${line('b2000002', 'b2000001', 'again')}\n`,
  );
  // What Syncthing and Dropbox leave while they write: half a session, never a session themselves.
  const half = prefix.slice(0, 40);
  const temps = [
    `.syncthing.${NAME}.jsonl.tmp`,
    `~syncthing~${NAME}.jsonl`,
    `${NAME}.jsonl.partial`,
    `.~${NAME}.jsonl`,
  ];
  for (const name of temps) writeFileSync(join(dir, name), half);
  // The server wrote last.
  utimesSync(original, new Date(at), new Date(at));
  utimesSync(copy, new Date(at + 60_000), new Date(at + 60_000));
  const env = { XDG_STATE_HOME: join(tempDir(), 'state'), XDG_DATA_HOME: tempDir() };
  const cli = (...args: string[]) => runCli([...args, '--session-dir', dir], { env });
  return { dir, original, copy, temps, cli };
}

interface CheckJson {
  fileCount: number;
  files: { path: string; problems: { kind: string; severity: string; message: string; fix: string }[] }[];
}

describe('check on a synced folder', () => {
  it('warns on the original with what the copy adds, and never reads the temp files', () => {
    const { original, copy, temps, cli } = syncedFolder();
    const json = cli('check', '--json');
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as CheckJson;
    expect(report.fileCount).toBe(2);
    expect(report.files.map((f) => f.path).sort()).toEqual([copy, original].sort());
    const problems = report.files.find((f) => f.path === original)!.problems;
    expect(problems).toEqual([
      expect.objectContaining({
        kind: 'conflict-copy',
        severity: 'warning',
        message: `a conflict copy of this session: ${basename(copy)} adds 2 entries (device 7QKMJ3X, 2026-01-05T13:00:00)`,
      }),
    ]);
    expect(problems[0]!.fix).toMatch(/^pi-sessions merge-conflicts FILE --yes/);
    expect(report.files.find((f) => f.path === copy)!.problems).toEqual([]);
    const text = cli('check');
    expect(text.stdout).toContain(`adds 2 entries (device 7QKMJ3X`);
    for (const temp of temps) {
      expect(json.stdout).not.toContain(temp);
      expect(text.stdout + text.stderr).not.toContain(temp);
    }
    const list = JSON.parse(cli('list', '--all', '--json').stdout) as { sessions: { path: string }[] };
    expect(list.sessions.map((s) => s.path).sort()).toEqual([copy, original].sort());
  });
});

describe('pi-sessions merge-conflicts', () => {
  it('without --yes, and with --dry-run, says what each file adds and writes nothing', () => {
    const { dir, original, copy, cli } = syncedFolder();
    const names = readdirSync(dir).sort();
    const bytes = [readFileSync(original), readFileSync(copy)];
    for (const args of [[], ['--dry-run']]) {
      const run = cli('merge-conflicts', ...args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(
        [
          `Would merge ${original} and 1 conflict copy into one file of 5 entries (${run.stdout.match(/\((\S+ \S+ → \S+ \S+)\)/)![1]}):`,
          `  ${basename(original)}: 3 entries, 1 of them in no other file (the original)`,
          `  ${basename(copy)}: 4 entries, 2 of them in no other file (device 7QKMJ3X, 2026-01-05T13:00:00)`,
          `  pi resumes where ${basename(copy)} left off (modified last); the files would go to the trash.`,
          '',
        ].join('\n'),
      );
      expect(run.stderr).toBe('Run again with --yes to do it (pi-sessions undo takes back each merge).\n');
    }
    const json = cli('merge-conflicts', original, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({
      version: 1,
      done: false,
      groups: [
        {
          original,
          entries: 5,
          files: [
            { path: original, tool: null, device: null, entries: 3, own: 1 },
            { path: copy, tool: 'syncthing', device: '7QKMJ3X', time: '2026-01-05T13:00:00', entries: 4, own: 2 },
          ],
        },
      ],
    });
    expect(readdirSync(dir).sort()).toEqual(names);
    expect(readFileSync(original).equals(bytes[0]!)).toBe(true);
    expect(readFileSync(copy).equals(bytes[1]!)).toBe(true);
  });

  it('--yes --json merges the folder and says so; then there is nothing to merge', () => {
    const { dir, original, copy, temps, cli } = syncedFolder();
    const run = cli('merge-conflicts', '--yes', '--json');
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { done: boolean; searched: string; groups: { changeId: string }[] };
    expect(out).toMatchObject({ done: true, searched: dir, groups: [{ original, entries: 5 }] });
    expect(out.groups[0]!.changeId).toMatch(/^[0-9a-f]{8}$/);
    expect(readdirSync(dir).sort()).toEqual([basename(original), ...temps].sort());
    expect(readdirSync(dir)).not.toContain(basename(copy));
    const again = cli('merge-conflicts');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`No conflict copies in ${dir}.\n`);
  });

  it('says why a file has nothing to merge (exit 1), and rejects bad usage (exit 2)', () => {
    const { original, cli } = syncedFolder();
    const alone = join(tempDir(), 'alone.jsonl');
    new SessionBuilder().writeTo(alone);
    const none = runCli(['merge-conflicts', alone]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^pi-sessions: nothing to merge: .*alone\.jsonl has no conflict copy beside it/);
    const both = cli('merge-conflicts', original, '--all');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^pi-sessions: merge-conflicts takes a session or --all, not both \(usage: /);
    const choice = cli('merge-conflicts', '--dry-run', '--yes');
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/^pi-sessions: --dry-run and --yes cannot be combined/);
  });

  it("a copy's hostile name (escape sequences, a bidi override) never reaches the terminal raw", () => {
    const hostile = `${NAME} (\u001b]0;owned\u0007Eve\u202e\u001b[2J's conflicted copy 2026-01-05).jsonl`;
    const { dir, original, cli } = syncedFolder(hostile);
    for (const args of [['check'], ['merge-conflicts'], ['merge-conflicts', '--yes']]) {
      const run = cli(...args);
      expect([0, 1], `${args.join(' ')}: ${run.stderr}`).toContain(run.code);
      for (const stream of [run.stdout, run.stderr]) expect(stream).not.toMatch(/[\u001b\u0007\u202e]/);
      if (args[0] === 'merge-conflicts') expect(run.stdout + run.stderr).toContain('Eve');
    }
    expect(readdirSync(dir)).not.toContain(hostile);
    expect(readdirSync(dir)).toContain(basename(original));
  });
});
