/** The scriptable CLI, run as a separate process on copies of the corpus. */
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_SETSID, NO_SETSID, runCli, sessionsOf } from '../helpers/cli.js';
import { FIXTURES, goldenCases } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';

function corpusCopy(): { agent: string; root: string } {
  const agent = tempDir();
  cpSync(join(FIXTURES, 'pi-written', 'sessions'), join(agent, 'sessions'), { recursive: true });
  return { agent, root: join(agent, 'sessions') };
}

const noStack = (text: string): void => expect(text).not.toMatch(/\n\s+at /);

describe('pi-sessions CLI', () => {
  it('prints help and version', () => {
    const help = runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pi-sessions/);
    expect(runCli(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 on usage errors with one clear line', () => {
    for (const args of [
      ['frobnicate'],
      ['list', '--frob'],
      ['tree'],
      ['context', 'x'],
      ['rename', 'x'],
      ['list', '--permanent', '--summary', 'x'],
    ]) {
      const run = runCli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^pi-sessions: [^\n]*\n$/);
      expect(run.stdout).toBe('');
      noStack(run.stderr);
    }
  });

  it('prints the help of one command: <command> --help and help <command>', () => {
    const viaFlag = runCli(['list', '--help']);
    expect(viaFlag.code).toBe(0);
    expect(viaFlag.stdout).toMatch(/^Usage: pi-sessions list \[--all \| --tree\] \[--json\] \[--no-cache\]\n/);
    expect(runCli(['help', 'list']).stdout).toBe(viaFlag.stdout);
  });

  it('needs a terminal for the picker and says what to use instead', (ctx) => {
    ctx.skip(!HAS_SETSID, NO_SETSID);
    const run = runCli([], { noTerminal: true });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/needs a terminal \(there is no controlling terminal\).*pi-sessions list/);
  });

  it('lists every project as JSON in pi order, with our extras', () => {
    const { agent } = corpusCopy();
    const run = runCli(['list', '--all', '--json'], { env: { PI_CODING_AGENT_DIR: agent } });
    expect(run.code).toBe(0);
    const rows = sessionsOf(JSON.parse(run.stdout)) as Record<string, unknown>[];
    const golden = JSON.parse(readFileSync(join(FIXTURES, 'pi-written', 'goldens', 'list.json'), 'utf8')) as {
      sessions: { id: string }[];
    };
    expect(rows.map((r) => r['id'])).toEqual(golden.sessions.map((s) => s.id));
    expect(Object.keys(rows[0]!)).toEqual(
      expect.arrayContaining([
        'path',
        'id',
        'cwd',
        'name',
        'created',
        'modified',
        'messageCount',
        'firstMessage',
        'parentSessionPath',
        'size',
        'userMessageCount',
        'branchCount',
        'leafId',
        'usage',
        'problems',
      ]),
    );
  });

  it('prints a readable table for the current folder and says when it is empty', () => {
    const { agent } = corpusCopy();
    const run = runCli(['list', '--cwd', '/home/dev/code/webshop'], { env: { PI_CODING_AGENT_DIR: agent } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/AGE\s+PROMPTS\s+SIZE\s+ID\s+TITLE/);
    expect(run.stdout).toMatch(/10 sessions in /);
    const empty = runCli(['list', '--cwd', '/nowhere'], { env: { PI_CODING_AGENT_DIR: agent } });
    expect(empty.stdout).toMatch(/No sessions .*does not exist.*--all/);
  });

  it("prints tree JSON with the goldens' field names and values", () => {
    const c = goldenCases().find((x) => x.corpus === 'pi-written' && x.file.startsWith('2026-02-05T11-11-43-835Z'))!;
    const run = runCli(['tree', c.sessionPath, '--json']);
    expect(run.code).toBe(0);
    const tree = JSON.parse(run.stdout) as Record<string, unknown>;
    for (const key of ['leafId', 'labels', 'labelTimestamps', 'branch', 'entries', 'tree'] as const) {
      expect(tree[key], key).toEqual(c.golden[key]);
    }
    expect(tree['sessionName']).toBe(c.golden.sessionName);
    expect(tree['problems']).toEqual([]);
  });

  it('prints context JSON from the leaf or another entry, by id prefix', () => {
    const { agent } = corpusCopy();
    const c = goldenCases().find(
      (x) => x.corpus === 'pi-written' && x.golden.contextEntries.length > 4 && !x.golden.idsFromMigration,
    )!;
    const env = { PI_CODING_AGENT_DIR: agent };
    const run = runCli(['context', c.golden.sessionId!.slice(0, 13), '--json', '--cwd', c.golden.cwd!], { env });
    expect(run.code).toBe(0);
    const context = JSON.parse(run.stdout) as { contextEntries: string[]; messages: { src: string; role: string }[] };
    expect(context.contextEntries).toEqual(c.golden.contextEntries);
    expect(context.messages.map((m) => m.role)).toEqual(c.golden.context.messages.map((m) => m.role));
    const early = runCli(['context', c.sessionPath, '--json', '--leaf', c.golden.branch[1]!]);
    expect((JSON.parse(early.stdout) as { contextEntries: string[] }).contextEntries.length).toBeLessThanOrEqual(2);
    const missing = runCli(['context', c.sessionPath, '--json', '--leaf', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`pi-sessions: no entry nope in ${c.sessionPath}`);
  });

  it('renames, labels, branches and forks a session, then deletes to the trash', () => {
    const { agent, root } = corpusCopy();
    const xdg = tempDir();
    const env = { PI_CODING_AGENT_DIR: agent, XDG_DATA_HOME: xdg };
    const folder = join(root, '--home-dev-code-webshop--');
    const file = join(folder, readdirSync(folder).find((n) => n.includes('019c2d80'))!);
    expect(runCli(['rename', file, 'From the CLI'], { env }).stdout).toMatch(/Renamed to "From the CLI"/);
    const tree = () =>
      JSON.parse(runCli(['tree', file, '--json'], { env }).stdout) as {
        sessionName: string;
        labels: Record<string, string>;
        branch: string[];
        leafId: string;
      };
    expect(tree().sessionName).toBe('From the CLI');
    const first = tree().branch[0]!;
    expect(runCli(['label', file, first, 'start'], { env }).code).toBe(0);
    expect(tree().labels[first]).toBe('start');
    const target = tree().branch[3]!;
    const branched = runCli(['branch', file, target, '--summary', 'went elsewhere'], { env });
    expect(branched.code).toBe(0);
    expect(tree().branch).toContain(target);
    const fork = runCli(['fork', file], { env });
    expect(fork.code).toBe(0);
    const forkPath = fork.stdout.trim();
    expect(existsSync(forkPath)).toBe(true);
    expect(runCli(['label', file, 'nope', 'x'], { env }).code).toBe(1);

    const deleted = runCli(['delete', forkPath], { env });
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toMatch(/Moved to trash/);
    expect(existsSync(forkPath)).toBe(false);
    const infos = readdirSync(join(xdg, 'Trash', 'info'));
    expect(infos).toHaveLength(1);
    expect(readFileSync(join(xdg, 'Trash', 'info', infos[0]!), 'utf8')).toContain(`Path=${encodeURI(forkPath)}`);
    const again = runCli(['delete', forkPath], { env });
    expect(again.code).toBe(1);
    noStack(again.stderr);
  });

  it('fails clearly on files that are not sessions and on unknown ids', () => {
    const broken = join(FIXTURES, 'generated', 'sessions');
    const noHeader = readdirSync(broken, { recursive: true, encoding: 'utf8' }).find(
      (n) =>
        basename(n).length > 0 &&
        n.endsWith('.jsonl') &&
        readFileSync(join(broken, n), 'utf8').startsWith('{"type":"message"'),
    );
    if (noHeader) {
      const run = runCli(['tree', join(broken, noHeader), '--json']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/not a pi session/);
    }
    const unknown = runCli(['tree', 'deadbeef', '--json'], { env: { PI_CODING_AGENT_DIR: tempDir() } });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no session with id or id prefix "deadbeef"/);
    noStack(unknown.stderr);
  });
});
