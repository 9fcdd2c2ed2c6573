import { describe, expect, it } from 'vitest';
import {
  afterPicker,
  afterTree,
  cliCandidates,
  missingCliMessage,
  type PiSessionFacts,
  pickerArgs,
  treeArgs,
} from '../../src/pi-extension/plan.js';

const facts: PiSessionFacts = {
  cwd: '/home/u/proj',
  sessionFile: '/s/--home-u-proj--/a.jsonl',
  sessionDir: '/s/--home-u-proj--',
  defaultSessionDir: '/s/--home-u-proj--/',
};
const ok = (stdout: string) => ({ status: 0, stdout, stderr: '' });

describe('what the extension asks pi-sessions', () => {
  it('opens the picker printing the choice, marking the current session, with the query', () => {
    expect(pickerArgs(facts, '  sqlite idx ')).toEqual([
      '--print',
      '--current',
      facts.sessionFile,
      '--query',
      'sqlite idx',
    ]);
    expect(pickerArgs({ ...facts, sessionFile: undefined }, '')).toEqual(['--print']);
  });

  it("passes pi's session folder only when pi-sessions would not find it on its own", () => {
    const custom = { ...facts, sessionDir: '/elsewhere' };
    expect(pickerArgs(custom, '')).toEqual(['--print', '--session-dir', '/elsewhere', '--current', facts.sessionFile]);
    expect(treeArgs({ ...custom, sessionFile: 'f.jsonl' })).toEqual([
      'tree',
      'f.jsonl',
      '--print-entry',
      '--session-dir',
      '/elsewhere',
    ]);
  });
});

describe('where the extension finds pi-sessions', () => {
  it('beside it in the package (two bundles), else the unbundled CLI one folder up', () => {
    expect(cliCandidates('/pkg/bin')).toEqual(['/pkg/bin/pi-sessions.js', '/pkg/cli.js']);
    expect(cliCandidates('/pkg/dist/src/pi-extension')).toEqual([
      '/pkg/dist/src/pi-extension/pi-sessions.js',
      '/pkg/dist/src/cli.js',
    ]);
    const message = missingCliMessage(cliCandidates('/pkg/bin'));
    expect(message).toBe(
      'pi-sessions could not start: its program is missing (looked for /pkg/bin/pi-sessions.js and /pkg/cli.js); reinstall the package',
    );
    expect(message).not.toContain('\n');
  });
});

describe('what the extension does with the answer', () => {
  it('switches to a chosen session, does nothing on Esc, Ctrl+C or the current one', () => {
    expect(afterPicker(ok('/s/b.jsonl\n'), facts.sessionFile)).toEqual({ kind: 'switch', path: '/s/b.jsonl' });
    expect(afterPicker({ status: 1, stdout: '', stderr: '' }, facts.sessionFile)).toEqual({ kind: 'nothing' });
    expect(afterPicker({ status: 130, stdout: '', stderr: '' }, facts.sessionFile)).toEqual({ kind: 'nothing' });
    expect(afterPicker(ok(`${facts.sessionFile}\n`), facts.sessionFile)).toEqual({ kind: 'nothing' });
  });

  it('reports a failure in one line', () => {
    expect(
      afterPicker({ status: 2, stdout: '', stderr: '\npi-sessions: needs a terminal\nmore\n' }, undefined),
    ).toEqual({
      kind: 'report',
      message: 'pi-sessions: needs a terminal',
    });
    expect(afterPicker({ status: null, stdout: '', stderr: '', error: 'spawn ENOENT' }, undefined)).toMatchObject({
      kind: 'report',
      message: expect.stringContaining('could not start'),
    });
  });

  it('Ctrl+C before the picker took the terminal (SIGINT) is a quiet cancel; another signal or a 1 with a message is reported', () => {
    expect(afterPicker({ status: null, signal: 'SIGINT', stdout: '', stderr: '' }, facts.sessionFile)).toEqual({
      kind: 'nothing',
    });
    expect(afterPicker({ status: null, signal: 'SIGKILL', stdout: '', stderr: '' }, facts.sessionFile)).toEqual({
      kind: 'report',
      message: 'pi-sessions was stopped by SIGKILL',
    });
    expect(
      afterPicker({ status: 1, stdout: '', stderr: 'pi-sessions: unexpected error: boom\n' }, facts.sessionFile),
    ).toEqual({ kind: 'report', message: 'pi-sessions: unexpected error: boom' });
    // Esc: ink shows the cursor on stderr as it exits; that is not a message.
    expect(afterPicker({ status: 1, stdout: '', stderr: '\u001b[?25h' }, facts.sessionFile)).toEqual({
      kind: 'nothing',
    });
    // A message quoting a hostile file name reaches pi's notice with nothing a terminal acts on.
    const hostile = afterPicker(
      { status: 1, stdout: '', stderr: '\u001b[?25hpi-sessions: /s/\u001b]0;T\u0007x\u0007.jsonl: not a session\n' },
      undefined,
    );
    expect(hostile).toEqual({ kind: 'report', message: 'pi-sessions: /s/x\\x07.jsonl: not a session' });
  });

  it("after the picker renamed pi's own session: reload it; a switch elsewhere wins", () => {
    const before = { size: 100, mtimeMs: 1 };
    const renamed = { size: 160, mtimeMs: 2 };
    expect(afterPicker({ status: 1, stdout: '', stderr: '' }, facts.sessionFile, before, renamed)).toEqual({
      kind: 'reload',
      path: facts.sessionFile,
    });
    expect(afterPicker({ status: 1, stdout: '', stderr: '' }, facts.sessionFile, before, before)).toEqual({
      kind: 'nothing',
    });
    expect(afterPicker(ok('/s/b.jsonl\n'), facts.sessionFile, before, renamed)).toEqual({
      kind: 'switch',
      path: '/s/b.jsonl',
    });
    expect(afterPicker(ok('/s/b.jsonl\n'), undefined)).toEqual({ kind: 'switch', path: '/s/b.jsonl' });
  });

  it('after the tree: a fork switches, a changed file reloads, an untouched one does nothing', () => {
    const before = { size: 100, mtimeMs: 1 };
    const current = facts.sessionFile!;
    expect(afterTree(ok('/s/fork.jsonl\n'), current, before, before)).toEqual({
      kind: 'switch',
      path: '/s/fork.jsonl',
    });
    expect(afterTree({ status: 1, stdout: '', stderr: '' }, current, before, { size: 180, mtimeMs: 2 })).toEqual({
      kind: 'reload',
      path: current,
    });
    expect(afterTree({ status: 1, stdout: '', stderr: '' }, current, before, before)).toEqual({ kind: 'nothing' });
    expect(afterTree(ok(`${current}\n`), current, before, before)).toEqual({ kind: 'reload', path: current });
  });

  it('after the tree handed "Resume from here" back: pi moves there itself, reading the file again first when the tree wrote to it', () => {
    const before = { size: 100, mtimeMs: 1 };
    const labelled = { size: 180, mtimeMs: 2 };
    const current = facts.sessionFile!;
    expect(afterTree(ok('entry 0000a1b2\n'), current, before, before)).toEqual({
      kind: 'navigate',
      entryId: '0000a1b2',
    });
    // A label (or a summary, an undo) written before it: pi must know the file as it is now.
    expect(afterTree(ok('entry 0000a1b2\n'), current, before, labelled)).toEqual({
      kind: 'navigate',
      entryId: '0000a1b2',
      reloadFirst: current,
    });
    // The file gone meanwhile counts as changed: the switch then says what pi found.
    expect(afterTree(ok('entry 0000a1b2\n'), current, before, undefined)).toMatchObject({ reloadFirst: current });
    // The id is the rest of stdout, whole (any id a file holds, spaces and line breaks included).
    expect(afterTree(ok('entry a b\nc\r\n'), current, before, before)).toEqual({ kind: 'navigate', entryId: 'a b\nc' });
    // Only a status 0 hands an entry back; an empty id is nothing to move to.
    expect(afterTree({ status: 130, stdout: 'entry x\n', stderr: '' }, current, before, before)).toEqual({
      kind: 'nothing',
    });
    expect(afterTree(ok('entry \n'), current, before, before)).toEqual({ kind: 'nothing' });
    // A path is never mistaken for an entry, and the picker never reads one as a path.
    expect(afterTree(ok('/s/entry x.jsonl\n'), current, before, before)).toEqual({
      kind: 'switch',
      path: '/s/entry x.jsonl',
    });
    expect(afterPicker(ok('entry 0000a1b2\n'), current)).toEqual({ kind: 'nothing' });
  });
});
