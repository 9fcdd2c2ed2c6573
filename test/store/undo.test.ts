/**
 * `pi-sessions undo` across restarts (each CLI run is a new process reading the journal): every
 * kind of change is taken back the append-only way, checked by reloading the file in pi 1.6.0;
 * a change pi has written after is refused (exit 1, one line) unless --force.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';

// tempDir() folders are removed after the file by test/setup.ts.
const dir = (): string => tempDir();

function setup(): {
  file: string;
  env: NodeJS.ProcessEnv;
  user2: string;
  assistant1: string;
  cli: (...args: string[]) => ReturnType<typeof runCli>;
} {
  const b = new SessionBuilder();
  b.user('first');
  const assistant1 = b.assistant('answer one');
  b.entry('session_info', { name: 'Original' });
  b.entry('label', { targetId: assistant1, label: 'keep' });
  const user2 = b.user('second');
  b.assistant('answer two');
  // In a project folder of a store of its own (undo only touches sessions there), with a journal
  // and a trash of its own (the CLI is a separate process each time: a restart).
  const root = dir();
  const file = b.writeTo(join(root, 'agent', 'sessions', '--proj--', 's.jsonl'));
  const env = {
    PI_CODING_AGENT_DIR: join(root, 'agent'),
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: root,
  };
  const cli = (...args: string[]): ReturnType<typeof runCli> => runCli(args, { env });
  return { file, env, user2, assistant1, cli };
}

const ok = (run: ReturnType<typeof runCli>): ReturnType<typeof runCli> => {
  expect(run.code, run.stderr).toBe(0);
  return run;
};

describe('pi-sessions undo', () => {
  it('undoes a rename, a label and a branch, newest first, each seen by pi', async () => {
    const { file, user2, assistant1, cli } = setup();
    const leafBefore = (await openWithPi(file)).manager.getLeafId();
    ok(cli('rename', file, 'Changed'));
    ok(cli('label', file, assistant1, 'better'));
    ok(cli('branch', file, user2));
    const list = ok(cli('undo', '--list')).stdout.trim().split('\n');
    expect(list.slice(0, 3).map((l) => l.split(/\s+/)[1])).toEqual(['branch', 'label', 'rename']);
    // Each change as the screens say it: the session's title, its file and project, when.
    expect(list[0]).toMatch(
      / {2}branch {2}the branch of “Changed” \(s\.jsonl in \/home\/test\/project, just now\) → resume after [0-9a-f]{8} again$/,
    );
    expect(list[3]).toMatch(/^History since \d{4}-\d\d-\d\d \d\d:\d\d: 3 changes\.$/);

    expect(ok(cli('undo')).stdout).toMatch(
      /^Undid the branch of “Changed” \(s\.jsonl in \/home\/test\/project, just now\): resume after [0-9a-f]{8}\.\n$/,
    );
    let pi = (await openWithPi(file)).manager;
    // pi resumes where it did before the branch: same context as at the old leaf.
    expect(pi.buildSessionContext().messages).toEqual(await piContextAt(pi, leafBefore));

    ok(cli('undo'));
    pi = (await openWithPi(file)).manager;
    expect(pi.getLabel(assistant1)).toBe('keep');
    ok(cli('undo'));
    pi = (await openWithPi(file)).manager;
    expect(pi.getSessionName()).toBe('Original');
    expect(pi.buildSessionContext().messages).toEqual(await piContextAt(pi, leafBefore));

    const nothing = cli('undo');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(
      /^pi-sessions: nothing to undo: the latest change, the branch of [^\n]*, was already undone\n$/,
    );
    expect(ok(cli('undo', '--list')).stdout).toMatch(
      /^Nothing to undo: the latest change, [^\n]* was already undone\.\nHistory since [^\n]*: 3 changes\.\n$/,
    );
  });

  it('undoes a fork (to the trash) and a delete (back from the trash)', async () => {
    const { file, cli } = setup();
    const original = readFileSync(file);
    const fork = ok(cli('fork', file)).stdout.trim();
    ok(cli('undo'));
    expect(existsSync(fork)).toBe(false);
    ok(cli('delete', file));
    expect(existsSync(file)).toBe(false);
    expect(ok(cli('undo')).stdout).toMatch(
      /^Undid the delete of “Original” \(s\.jsonl in [^)]*\): restore it from the trash\.\n$/,
    );
    expect(readFileSync(file).equals(original)).toBe(true);
    expect((await openWithPi(file)).manager.getSessionName()).toBe('Original');
  });

  it('a delete of several sessions comes back in one undo', () => {
    const { file, env, cli } = setup();
    const second = new SessionBuilder();
    second.user('another');
    const other = second.writeTo(join(file, '..', 'other.jsonl'));
    const bytes = [readFileSync(file), readFileSync(other)];
    ok(cli('delete', file, other));
    // One line for the two (they are undone together), then the history line.
    expect(ok(cli('undo', '--list')).stdout.trim().split('\n')).toHaveLength(2);
    expect(ok(cli('undo')).stdout).toMatch(
      /^Undid the delete of 2 sessions \(“another”, “Original”, just now\): restore the 2 sessions deleted together from the trash\.\n$/,
    );
    expect([readFileSync(file), readFileSync(other)]).toEqual(bytes);
    expect(ok(runCli(['undo', '--list'], { env })).stdout).toMatch(/^Nothing to undo: /);
  });

  it('refuses a change pi has written after (exit 1, one line, nothing changed) unless --force', async () => {
    const { file, cli } = setup();
    ok(cli('rename', file, 'Ours'));
    // pi appends a message after our rename.
    const pi = (await openWithPi(file)).manager;
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'message', id: 'abcdef01', parentId: pi.getLeafId(), timestamp: new Date().toISOString(), message: { role: 'user', content: 'more', timestamp: Date.now() } })}\n`,
    );
    const before = readFileSync(file);
    expect(ok(cli('undo', '--list')).stdout).toContain('(pi has written since: needs --force)');
    const refused = cli('undo');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^pi-sessions: [^\n]*changed since pi-sessions' rename \(pi has written to it\); nothing was undone \(--force undoes it anyway\)\n$/,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    ok(cli('undo', '--force'));
    const after = (await openWithPi(file)).manager;
    expect(after.getSessionName()).toBe('Original');
    // pi's message is still there: undo only appended.
    expect(after.getEntries().some((e) => e.id === 'abcdef01')).toBe(true);
    expect(cli('undo', '--list', '--force').code).toBe(2);
  });
});
