/**
 * Hostile input through every entry point: `list`, `tree --json`, `context --json` (subprocesses,
 * bounded time), the picker and the tree view (real pty). Each case must end with a clear message
 * or a listed problem, a documented exit code (0, or 1 with one "pi-sessions: …" line), no stack
 * trace, no hang, and the file byte-identical afterwards. The corpus is generated here (see
 * corpus.ts); the big cases are in big.test.ts.
 *
 * Environment-dependent cases use real mechanisms where the machine allows them and say so in the
 * test name otherwise: permission denied needs a non-root user (tests run as root, who may read
 * anything), done with `setpriv` to uid 65534; the read-only file system is a read-only bind mount
 * inside a user + mount namespace (`unshare -rm`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, sessionsOf } from '../helpers/cli.js';
import { tempDir } from '../helpers/factory.js';
import { PTY_KEYS, startPty } from '../helpers/pty.js';
import { otherUserUnavailable } from '../helpers/tiny-disk.js';
import { smallCases, writeLinearChain } from './corpus.js';
import { expectCleanRun, jsonOf, type Run, runCliAsync } from './run.js';

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

let dir: string;
let files: Record<string, string>;
let hashes: Record<string, string>;

beforeAll(() => {
  dir = join(tempDir('pi-sessions-hostile-'), 'sessions');
  mkdirSync(dir);
  files = {};
  hashes = {};
  for (const [name, bytes] of Object.entries(smallCases())) {
    const path = join(dir, `2026-01-05T09-00-00-000Z_${name}.jsonl`);
    writeFileSync(path, bytes);
    files[name] = path;
    hashes[name] = sha(path);
  }
});

function expectUntouched(): void {
  for (const [name, path] of Object.entries(files)) expect(sha(path), `${name} changed`).toBe(hashes[name]);
}

describe('hostile files through the CLI', () => {
  it('list --all --json and the table list every readable session, and name the rest as skipped or with problems', async () => {
    const json = await runCliAsync(['list', '--all', '--json', '--session-dir', dir]);
    expectCleanRun(json, 'list --json');
    expect(json.code).toBe(0);
    const rows = sessionsOf(jsonOf(json)) as { path: string; problems: unknown[] }[];
    const listed = new Set(rows.map((r) => r.path));
    // Files pi would open are listed; problems are data, not crashes.
    for (const name of [
      'crlf',
      'invalid-utf8',
      'truncated-last-line',
      'glued-lines',
      'cycle-self',
      'cycle-two',
      'cycle-long-through-leaf',
      'duplicate-ids',
      'orphans',
      'unknown-types',
      'message-without-message',
      'content-null',
      'header-only',
    ]) {
      expect(listed, name).toContain(files[name]);
    }
    for (const name of ['truncated-last-line', 'invalid-utf8', 'glued-lines']) {
      expect(
        rows.find((r) => r.path === files[name])!.problems.length,
        `${name} has its problem listed`,
      ).toBeGreaterThan(0);
    }
    const table = await runCliAsync(['list', '--all', '--session-dir', dir]);
    expectCleanRun(table, 'list');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/\d+ sessions in .*; \d+ with problems \(!\); \d+ files? skipped \(not sessions\)/);
    expectUntouched();
  });

  it('stats (charts and --json) over every case: exit 0, no escape byte in the charts, nothing written', async () => {
    for (const args of [
      ['stats', '--all'],
      ['stats', '--all', '--json'],
      ['stats', '--all', '--by', 'month'],
    ]) {
      const run = await runCliAsync([...args, '--session-dir', dir], { env: { FORCE_COLOR: '0' } });
      expectCleanRun(run, args.join(' '));
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout, args.join(' ')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    expectUntouched();
  });

  it('tree --json and context --json on every case: JSON with problems, or one clear line and exit 1', async () => {
    const refusedByDesign = new Set([
      'empty',
      'no-header',
      'binary-garbage',
      'not-json-at-all',
      'json-but-not-objects',
      'header-with-numbers',
    ]);
    for (const [name, path] of Object.entries(files)) {
      for (const args of [
        ['tree', path, '--json'],
        ['context', path, '--json'],
      ]) {
        const run = await runCliAsync(args, { timeoutMs: 15_000 });
        const what = `${args[0]} ${name}`;
        expectCleanRun(run, what);
        if (run.code === 0) {
          const parsed = jsonOf(run) as Record<string, unknown>;
          if (args[0] === 'tree') {
            expect(Array.isArray(parsed['entries']), what).toBe(true);
            expect(Array.isArray(parsed['problems']), what).toBe(true);
          } else {
            expect(Array.isArray(parsed['messages']), what).toBe(true);
          }
        } else {
          expect(
            refusedByDesign.has(name) ||
              name === 'bom' ||
              name === 'header-not-first' ||
              name === 'binary-after-header',
            `${what} refused: ${run.stderr}`,
          ).toBe(true);
          expect(run.stderr).toContain(path);
        }
      }
    }
    // Damage is reported, not hidden.
    const truncated = jsonOf(await runCliAsync(['tree', files['truncated-last-line']!, '--json'])) as {
      problems: unknown[];
    };
    expect(truncated.problems.length).toBeGreaterThan(0);
    const cycle = jsonOf(await runCliAsync(['tree', files['cycle-long-through-leaf']!, '--json'])) as {
      problems: unknown[];
      branch: string[];
    };
    expect(cycle.problems.length).toBeGreaterThan(0);
    expect(cycle.branch.length).toBeLessThanOrEqual(500);
    expectUntouched();
  });

  it('writes to a damaged file append cleanly or refuse clearly, and never rewrite what was there', async () => {
    for (const name of [
      'truncated-last-line',
      'crlf',
      'cycle-two',
      'duplicate-ids',
      'numbers-for-strings',
      'empty',
      'binary-garbage',
    ]) {
      const copy = join(tempDir('pi-sessions-hostile-write-'), 'copy.jsonl');
      writeFileSync(copy, readFileSync(files[name]!));
      const before = readFileSync(copy);
      const run = await runCliAsync(['rename', copy, 'renamed'], { timeoutMs: 15_000 });
      expectCleanRun(run, `rename ${name}`);
      const after = readFileSync(copy);
      // Append-only: the old bytes are a prefix of the new file (a missing last newline may be added first).
      const prefix = after.subarray(0, before.length);
      expect(prefix.equals(before), `${name}: old bytes rewritten`).toBe(true);
      if (run.code === 1) expect(after.equals(before), `${name}: refused but changed`).toBe(true);
    }
  });
});

describe('session folders that are not what they seem', () => {
  it('a missing folder, a file in its place, a symlink loop: a clear message and exit 1, or an empty list', async () => {
    const root = tempDir('pi-sessions-hostile-dirs-');
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a folder');
    const loop = join(root, 'loop');
    symlinkSync(loop, loop);
    const nested = join(root, 'nested');
    mkdirSync(nested);
    symlinkSync(nested, join(nested, 'self')); // a directory cycle through a symlink
    for (const target of [join(root, 'missing'), file, loop, nested]) {
      for (const args of [
        ['list', '--all', '--session-dir', target],
        ['list', '--all', '--json', '--session-dir', target],
      ]) {
        const run = await runCliAsync(args, { timeoutMs: 15_000 });
        expectCleanRun(run, `${args.join(' ')}`);
        if (run.code === 0 && args.includes('--json')) expect(sessionsOf(jsonOf(run))).toEqual([]);
        if (run.code === 0 && !args.includes('--json')) expect(run.stdout).toMatch(/No sessions/);
      }
    }
    // The same folders through the agent dir (PI_CODING_AGENT_DIR/sessions).
    const agent = join(root, 'agent');
    mkdirSync(agent);
    symlinkSync(join(agent, 'sessions'), join(agent, 'sessions'));
    const viaEnv = await runCliAsync(['list', '--all'], { env: { PI_CODING_AGENT_DIR: agent } });
    expectCleanRun(viaEnv, 'list with a looping sessions root');
  });

  const noOtherUser = otherUserUnavailable();
  it.runIf(noOtherUser === undefined)(
    `an unreadable folder and file (permission denied, as uid 65534 via setpriv)${noOtherUser ? ` — SKIPPED: ${noOtherUser}` : ''}`,
    async () => {
      const root = tempDir('pi-sessions-hostile-perm-');
      chmodSync(root, 0o755);
      const locked = join(root, 'locked');
      mkdirSync(locked);
      writeFileSync(join(locked, 'a.jsonl'), readFileSync(files['crlf']!));
      chmodSync(locked, 0o000);
      const open = join(root, 'open');
      mkdirSync(open);
      const secret = join(open, '2026-01-05T09-00-00-000Z_secret.jsonl');
      writeFileSync(secret, readFileSync(files['crlf']!));
      chmodSync(secret, 0o000);
      writeFileSync(join(open, '2026-01-05T09-00-00-000Z_fine.jsonl'), readFileSync(files['duplicate-ids']!), {
        mode: 0o644,
      });
      const wrapper = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
      const env = { HOME: root };
      const dirRun = await runCliAsync(['list', '--all', '--session-dir', locked], { wrapper, env });
      expectCleanRun(dirRun, 'list of an unreadable folder');
      expect(dirRun.code).toBe(1);
      expect(dirRun.stderr).toMatch(/permission|EACCES|cannot read/i);
      const fileList = await runCliAsync(['list', '--all', '--json', '--session-dir', open], { wrapper, env });
      expectCleanRun(fileList, 'list with an unreadable file');
      expect(fileList.code).toBe(0);
      expect((sessionsOf(jsonOf(fileList)) as { path: string }[]).map((r) => r.path)).toEqual([
        join(open, '2026-01-05T09-00-00-000Z_fine.jsonl'),
      ]);
      for (const command of ['tree', 'context']) {
        const run = await runCliAsync([command, secret, '--json'], { wrapper, env });
        expectCleanRun(run, `${command} of an unreadable file`);
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(/permission|EACCES|cannot read/i);
      }
      chmodSync(locked, 0o755);
    },
  );

  const canUnshare = spawnSync('unshare', ['-rm', 'true']).status === 0;
  it.runIf(canUnshare)(
    `a read-only file system (bind mount in a user namespace): reads work, writes fail clearly, nothing changes${canUnshare ? '' : ' — SKIPPED: unshare -rm is not permitted here'}`,
    async () => {
      const root = tempDir('pi-sessions-hostile-ro-');
      const path = join(root, '2026-01-05T09-00-00-000Z_ro.jsonl');
      writeFileSync(path, readFileSync(files['crlf']!));
      const hash = sha(path);
      const script = (cli: string): string =>
        `mount --bind '${root}' '${root}' && mount -o remount,bind,ro '${root}' '${root}' && exec ${cli}`;
      // `runCliAsync` appends node + CLI after the wrapper: they become the script's unused "$1 $2".
      const inRo = (args: string[]): Promise<Run> => {
        const quoted = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
        return runCliAsync([], { wrapper: ['unshare', '-rm', 'sh', '-c', script(quoted), 'sh'], timeoutMs: 15_000 });
      };
      const list = await inRo(['list', '--all', '--json', '--session-dir', root]);
      expectCleanRun(list, 'list on a read-only fs');
      expect(sessionsOf(JSON.parse(list.stdout))).toHaveLength(1);
      const tree = await inRo(['tree', path, '--json']);
      expectCleanRun(tree, 'tree on a read-only fs');
      expect(tree.code).toBe(0);
      for (const args of [
        ['rename', path, 'x'],
        ['label', path, '00000001', 'x'],
        ['branch', path, '00000001'],
        ['fork', path],
        ['delete', path, '--permanent'],
      ]) {
        const run = await inRo(args);
        expectCleanRun(run, `${args[0]} on a read-only fs`);
        expect(run.code, `${args[0]}: ${run.stderr}`).toBe(1);
        expect(run.stderr, args[0]).toMatch(/read-only/i);
      }
      expect(sha(path)).toBe(hash);
      expect(existsSync(path)).toBe(true);
    },
  );
});

describe('files that change while they are read', () => {
  it('files deleted while the list is being built: listed or skipped, never a crash', async () => {
    const root = tempDir('pi-sessions-hostile-vanish-');
    const good = readFileSync(files['crlf']!);
    const paths: string[] = [];
    for (let i = 0; i < 400; i++) {
      const path = join(
        root,
        `2026-01-05T09-00-${String(i % 60).padStart(2, '0')}-${String(i).padStart(3, '0')}Z_${i}.jsonl`,
      );
      writeFileSync(path, good);
      paths.push(path);
    }
    const running = runCliAsync(['list', '--all', '--json', '--session-dir', root], { timeoutMs: 20_000 });
    // Delete every other file while the child reads them (from the end, which it reads last).
    for (let i = paths.length - 1; i >= 0; i -= 2) {
      unlinkSync(paths[i]!);
      if (i % 40 === 1) await new Promise((resolve) => setImmediate(resolve));
    }
    const run = await running;
    expectCleanRun(run, 'list while files vanish');
    expect(run.code).toBe(0);
    const listed = (sessionsOf(jsonOf(run)) as { path: string }[]).map((r) => r.path);
    for (const path of listed) expect(paths).toContain(path);
    expect(listed.length).toBeGreaterThanOrEqual(200);
  });

  it('a big file truncated while tree --json reads it: a consistent tree or a clear refusal', async () => {
    const root = tempDir('pi-sessions-hostile-shrink-');
    const path = join(root, 'shrinking.jsonl');
    writeLinearChain(path, 300_000);
    const running = runCliAsync(['tree', path, '--json'], { timeoutMs: 30_000, stdoutFile: join(root, 'out.json') });
    await new Promise((resolve) => setTimeout(resolve, 30));
    truncateSync(path, 1_000_000);
    const run = await running;
    expectCleanRun(run, 'tree while the file shrinks');
    if (run.code === 0)
      expect((jsonOf(run, join(root, 'out.json')) as { entries: unknown[] }).entries.length).toBeGreaterThan(0);
    rmSync(root, { recursive: true, force: true });
  });
});

describe('hostile files in the full-screen views', () => {
  it('the picker lists the hostile folder and opens every readable case in the tree view', async () => {
    const pty = startPty({
      args: ['--all', '--session-dir', dir],
      cols: 120,
      rows: 40,
      env: { HOME: dir },
      timeoutMs: 20_000,
    });
    await pty.waitForText(/pi sessions \d+\/\d+ · all projects/, 10_000);
    expect(pty.screen()).not.toMatch(/Error|at .*\.js/);
    await pty.press(PTY_KEYS.ctrlC);
    expect(await pty.waitForExit()).toBe(130);
  });

  it('the tree view opens each case (or says it cannot), and Esc leaves cleanly', async () => {
    const one = async ([name, path]: [string, string]): Promise<void> => {
      const pty = startPty({ args: ['tree', path], cols: 100, rows: 20, env: { HOME: dir }, timeoutMs: 20_000 });
      const screen = await pty
        // "No entries found": every entry is one pi's default filter hides (numbers-for-strings: its
        // only message is an answer with no text and no stopReason), as pi's /tree says then.
        .waitForText(
          /leaf: pi resumes here|Cannot open the session|No entries in this session|No entries found/,
          10_000,
        )
        .catch((error: Error) => {
          throw new Error(`${name}: ${error.message}`);
        });
      expect(screen, name).not.toMatch(/\n\s+at /);
      await pty.press(PTY_KEYS.escape);
      expect(await pty.waitForExit(), name).toBe(0);
      expect(pty.isAlternateScreen(), name).toBe(false);
    };
    // Four at a time: each is a separate process, mostly waiting on the pty.
    const cases = Object.entries(files);
    for (let i = 0; i < cases.length; i += 4) await Promise.all(cases.slice(i, i + 4).map(one));
    expectUntouched();
  });
});
