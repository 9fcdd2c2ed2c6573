/**
 * `pi-sessions redo` as a user runs it (each CLI run a new process): every kind of change is
 * undone and redone, and pi 1.6.0's SessionManager reads the file as the change left it (name,
 * label, leaf); a redo is a change again, so it can be undone; a new change ends the redo history.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';

function setup(): {
  file: string;
  project: string;
  user2: string;
  assistant1: string;
  cli: (...args: string[]) => ReturnType<typeof runCli>;
} {
  const b = new SessionBuilder();
  b.user('first');
  const assistant1 = b.assistant('answer one');
  b.name('Original');
  const user2 = b.user('second');
  b.assistant('answer two');
  const root = tempDir();
  const project = join(root, 'agent', 'sessions', '--proj--');
  const file = b.writeTo(join(project, 's.jsonl'));
  const env = {
    PI_CODING_AGENT_DIR: join(root, 'agent'),
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_DATA_HOME: root,
  };
  return { file, project, user2, assistant1, cli: (...args) => runCli(args, { env }) };
}

const ok = (run: ReturnType<typeof runCli>): ReturnType<typeof runCli> => {
  expect(run.code, run.stderr).toBe(0);
  return run;
};

describe('pi-sessions redo', () => {
  it('rename, label and branch: undone, redone (pi reads them again), undone again', async () => {
    const { file, user2, assistant1, cli } = setup();
    ok(cli('rename', file, 'Renamed'));
    ok(cli('label', file, assistant1, 'bookmark'));
    ok(cli('branch', file, user2));
    const branchedLeaf = (await openWithPi(file)).manager.getLeafId();
    const branchedContext = (await openWithPi(file)).manager.buildSessionContext().messages;

    ok(cli('undo'));
    ok(cli('undo'));
    ok(cli('undo'));
    let pi = (await openWithPi(file)).manager;
    expect(pi.getSessionName()).toBe('Original');
    expect(pi.getLabel(assistant1)).toBeUndefined();

    expect(ok(cli('redo')).stdout).toMatch(
      /^Redid the rename of “Renamed” \(s\.jsonl in [^)]*\): name it "Renamed"\.\n$/,
    );
    pi = (await openWithPi(file)).manager;
    expect(pi.getSessionName()).toBe('Renamed');
    expect(ok(cli('redo')).stdout).toMatch(/^Redid the label of .*: label [0-9a-f]{8} "bookmark"\.\n$/);
    expect((await openWithPi(file)).manager.getLabel(assistant1)).toBe('bookmark');
    ok(cli('redo'));
    pi = (await openWithPi(file)).manager;
    // pi resumes where the branch left it: under the entry the branch appended, with the same context.
    const leaf = pi.getLeafId()!;
    expect(pi.getEntries().find((e) => e.id === leaf)?.parentId).toBe(branchedLeaf);
    expect(pi.buildSessionContext().messages).toEqual(branchedContext);
    const nothing = cli('redo');
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toBe('pi-sessions: nothing to redo: no undo to take back since the latest change\n');

    // A redo is a change: undone again like any other.
    ok(cli('undo'));
    expect((await openWithPi(file)).manager.getLeafId()).not.toBe(branchedLeaf);
    ok(cli('undo'));
    expect((await openWithPi(file)).manager.getLabel(assistant1)).toBeUndefined();
    const reopened = await openWithPi(file);
    expect(reopened.changedOnOpen).toBe(false);
  });

  it('a delete trashes again; a fork comes back from the trash (the same session); a new change ends redo', async () => {
    const { file, project, cli } = setup();
    const bytes = readFileSync(file);
    ok(cli('delete', file));
    ok(cli('undo'));
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(ok(cli('redo')).stdout).toMatch(/^Redid the delete of “Original” .*: move it to the trash\.\n$/);
    expect(existsSync(file)).toBe(false);
    ok(cli('undo'));
    expect(readFileSync(file).equals(bytes)).toBe(true);

    const fork = ok(cli('fork', file)).stdout.trim();
    const forkBytes = readFileSync(fork);
    const forkId = (await openWithPi(fork)).manager.getHeader()?.['id'];
    ok(cli('undo'));
    expect(existsSync(fork)).toBe(false);
    expect(ok(cli('redo')).stdout).toMatch(/^Redid the fork of .*: restore the fork from the trash\.\n$/);
    expect(readFileSync(fork).equals(forkBytes)).toBe(true);
    expect((await openWithPi(fork)).manager.getHeader()?.['id']).toBe(forkId);
    // ...and undone again: the fork goes back to the trash.
    ok(cli('undo'));
    expect(existsSync(fork)).toBe(false);

    // A new change after an undo: nothing older can be redone.
    ok(cli('rename', file, 'Fresh'));
    expect(cli('redo').code).toBe(1);
    expect(readdirSync(project)).toEqual(['s.jsonl']);
  });

  it('a slim: undone (the original back), redone (slimmed again, pi reads the same context)', async () => {
    const b = new SessionBuilder();
    b.user('plan');
    const answer = b.assistant('a plan');
    b.user('an abandoned idea');
    b.assistant('x'.repeat(50_000));
    b.branchFrom(answer);
    b.name('Slim me');
    b.user('the kept idea');
    b.assistant('kept answer');
    const root = tempDir();
    const project = join(root, 'agent', 'sessions', '--proj--');
    const file = b.writeTo(join(project, 's.jsonl'));
    const env = {
      PI_CODING_AGENT_DIR: join(root, 'agent'),
      HOME: join(root, 'home'),
      XDG_STATE_HOME: join(root, 's'),
      XDG_DATA_HOME: root,
    };
    const cli = (...args: string[]): ReturnType<typeof runCli> => runCli(args, { env });
    const context = (await openWithPi(file)).manager.buildSessionContext().messages;
    ok(cli('slim', file, '--yes'));
    ok(cli('undo'));
    expect(readdirSync(project)).toEqual(['s.jsonl']);
    expect(ok(cli('redo')).stdout).toMatch(/^Redid the slim of “Slim me” .*: slim it/);
    const [copy, ...others] = readdirSync(project);
    expect(others).toEqual([]);
    expect(copy).not.toBe('s.jsonl');
    const pi = (await openWithPi(join(project, copy!))).manager;
    expect(pi.buildSessionContext().messages).toEqual(context);
    expect(pi.getSessionName()).toBe('Slim me');
  });
});
