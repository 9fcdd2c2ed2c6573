/**
 * `pi-sessions check` as a user runs it (the built CLI in a subprocess, bounded in time): the JSON
 * shape, exit codes 0 / 1 / 2, a FIFO and a 1 GB sparse file that must neither hang nor be read
 * into memory, and human output that never lets session text act on the terminal.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { smallCases } from '../hostile/corpus.js';
import { expectCleanRun, jsonOf, runCliAsync } from '../hostile/run.js';

interface CheckJson {
  version: number;
  searched: string;
  fileCount: number;
  problemCount: number;
  filesWithProblems: number;
  files: {
    path: string;
    sessionId: string | null;
    problems: {
      path: string;
      line: number;
      kind: string;
      severity: string;
      message: string;
      pi: string;
      fix: string;
    }[];
    health: { size: number } | null;
  }[];
}

/** A clean session whose cwd exists (the temp dir itself). */
function cleanSession(dir: string, name = 'clean'): string {
  const b = new SessionBuilder({ cwd: dir });
  b.user('hello');
  b.assistant('hi');
  const path = join(dir, `2026-01-05T09-00-00-000Z_${name}.jsonl`);
  writeFileSync(path, b.text());
  return path;
}

describe('pi-sessions check', () => {
  it('a clean folder: exit 0, "No problems", and JSON with an empty problem list', async () => {
    const dir = tempDir('pi-sessions-check-');
    const path = cleanSession(dir);
    const text = await runCliAsync(['check', '--session-dir', dir]);
    expectCleanRun(text, 'check');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^No problems in 1 file \(.+\) in /m);
    const json = await runCliAsync(['check', '--json', '--session-dir', dir]);
    expect(json.code).toBe(0);
    const report = jsonOf(json) as CheckJson;
    expect(report).toMatchObject({ version: 1, searched: dir, fileCount: 1, problemCount: 0, filesWithProblems: 0 });
    expect(report.files[0]!.path).toBe(path);
    expect(report.files[0]!.health!.size).toBe(readFileSync(path).length);
    const one = await runCliAsync(['check', path]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^ {2}\d+ B, 2 entries, 0 compactions, 0% tool output$/m);
  });

  it('the hostile corpus: exit 1 and every damaged file named with its problems; the same for one session', async () => {
    const dir = tempDir('pi-sessions-check-');
    for (const [name, bytes] of Object.entries(smallCases()))
      writeFileSync(join(dir, `2026-01-05T09-00-00-000Z_${name}.jsonl`), bytes);
    const run = await runCliAsync(['check', '--json', '--session-dir', dir]);
    expectCleanRun(run, 'check --json');
    expect(run.code).toBe(1);
    const report = jsonOf(run) as CheckJson;
    expect(report.fileCount).toBe(Object.keys(smallCases()).length);
    const byName = new Map(report.files.map((f) => [f.path.replace(/^.*_(.*)\.jsonl$/, '$1'), f]));
    expect(byName.get('glued-lines')!.problems.map((p) => [p.kind, p.line])).toContainEqual(['glued-line', 3]);
    expect(byName.get('bom')!.problems.find((p) => p.kind === 'bom')).toMatchObject({
      line: 1,
      severity: 'error',
      pi: expect.stringContaining('refuses'),
    });
    expect(byName.get('truncated-last-line')!.problems.some((p) => p.kind === 'torn-last-line' && p.line > 1)).toBe(
      true,
    );
    expect(byName.get('crlf')!.problems.map((p) => p.kind)).toEqual(['cwd-missing']); // /home/test/hostile is not on this machine
    const single = await runCliAsync(['check', '--json', join(dir, '2026-01-05T09-00-00-000Z_cycle-two.jsonl')]);
    expect(single.code).toBe(1);
    expect((jsonOf(single) as CheckJson).files[0]!.problems.map((p) => p.kind)).toContain('cycle');
    const text = await runCliAsync(['check', '--session-dir', dir]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^ {2}line 3: error: .* \[glued-line\]\n {4}pi 1\.6\.0 .+\n {4}what to do: .+$/m);
    expect(text.stdout).toMatch(/^\d+ problems in \d+ of \d+ files \(.+\) in .+\.$/m);
  });

  it('a FIFO and a 1 GB sparse file of NULs: reported at once, neither opened for reading nor held in memory', async () => {
    const dir = tempDir('pi-sessions-check-');
    cleanSession(dir);
    const fifo = join(dir, '2026-01-05T09-00-00-000Z_fifo.jsonl');
    const made = spawnSync('mkfifo', [fifo]);
    expect(made.status, `mkfifo: ${made.stderr}`).toBe(0);
    const sparse = join(dir, '2026-01-05T09-00-00-000Z_sparse.jsonl');
    const fd = openSync(sparse, 'w');
    ftruncateSync(fd, 1024 ** 3);
    closeSync(fd);
    // A 400 MB ceiling on the process's data (RLIMIT_DATA counts Buffers too, unlike a heap limit):
    // reading the sparse file into memory would fail under it.
    const run = await runCliAsync(['check', '--json', '--session-dir', dir], {
      wrapper: ['sh', '-c', 'ulimit -d 400000 && exec "$@"', 'sh'],
      timeoutMs: 20_000,
    });
    expectCleanRun(run, 'check with a FIFO');
    expect(run.code).toBe(1);
    const report = jsonOf(run) as CheckJson;
    const kindOf = (path: string): string[] => report.files.find((f) => f.path === path)!.problems.map((p) => p.kind);
    expect(kindOf(fifo)).toEqual(['not-regular']);
    expect(kindOf(sparse)).toEqual(['too-large']);
    expect(report.files.find((f) => f.path === fifo)!.problems[0]!.message).toContain('FIFO');
  });

  it('human output is sanitised: escapes in paths, ids and messages never reach the terminal', async () => {
    const dir = tempDir('pi-sessions-check-');
    const evil = join(dir, 'proj\u001b]0;pwned\u0007');
    mkdirSync(evil);
    const b = new SessionBuilder({ id: 'id\u001b[31mred', cwd: `${evil}/gone\u001b[2J` });
    b.user('hi');
    const path = join(evil, '2026-01-05T09-00-00-000Z_x\u001b[1m.jsonl');
    writeFileSync(path, `${b.text()}{"not closed`);
    for (const args of [
      ['check', '--session-dir', evil],
      ['check', path],
    ]) {
      const run = await runCliAsync(args);
      expectCleanRun(run, args.join(' '));
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('torn-last-line');
      expect(run.stdout).toContain('cwd-missing');
      expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    const json = await runCliAsync(['check', '--json', path]);
    expect(json.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect((jsonOf(json) as CheckJson).files[0]!.path).toBe(path);
  });

  it('usage errors exit 2; a session that does not exist exits 1 with one line', async () => {
    const dir = tempDir('pi-sessions-check-');
    const path = cleanSession(dir);
    for (const args of [
      ['check', path, '--all'],
      ['check', path, path],
      ['check', '--leaf', 'x'],
    ]) {
      const run = await runCliAsync(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(
        /^pi-sessions: [^\n]*\(usage: pi-sessions check \[session\] \[--all\] \[--json\] \[--secrets\] \[--no-cache\]\)\n$/,
      );
    }
    const missing = await runCliAsync(['check', join(dir, 'nope.jsonl')]);
    expectCleanRun(missing, 'check nope');
    expect(missing.code).toBe(1);
    const help = await runCliAsync(['help', 'check']);
    expect(help.code).toBe(0);
    // Wrapped for 80 columns: the words in order, whatever the line breaks.
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      '--json prints {version: 1, searched, fileCount, problemCount, filesWithProblems, files: [{path,',
    );
  });
});
