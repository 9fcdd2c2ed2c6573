import { describe, expect, it } from 'vitest';
import { afterPicker, afterTree, pickerArgs, treeArgs, type PiSessionFacts } from '../../src/pi-extension/plan.js';

const facts: PiSessionFacts = {
  cwd: '/home/u/proj',
  sessionFile: '/s/--home-u-proj--/a.jsonl',
  sessionDir: '/s/--home-u-proj--',
  defaultSessionDir: '/s/--home-u-proj--/',
};
const ok = (stdout: string) => ({ status: 0, stdout, stderr: '' });

describe('what the extension asks pi-sessions', () => {
  it('opens the picker printing the choice, marking the current session, with the query', () => {
    expect(pickerArgs(facts, '  sqlite idx ')).toEqual(['--print', '--current', facts.sessionFile, '--query', 'sqlite idx']);
    expect(pickerArgs({ ...facts, sessionFile: undefined }, '')).toEqual(['--print']);
  });

  it("passes pi's session folder only when pi-sessions would not find it on its own", () => {
    const custom = { ...facts, sessionDir: '/elsewhere' };
    expect(pickerArgs(custom, '')).toEqual(['--print', '--session-dir', '/elsewhere', '--current', facts.sessionFile]);
    expect(treeArgs({ ...custom, sessionFile: 'f.jsonl' })).toEqual(['tree', 'f.jsonl', '--print', '--session-dir', '/elsewhere']);
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
    expect(afterPicker({ status: 2, stdout: '', stderr: '\npi-sessions: needs a terminal\nmore\n' }, undefined)).toEqual({
      kind: 'report',
      message: 'pi-sessions: needs a terminal',
    });
    expect(afterPicker({ status: null, stdout: '', stderr: '', error: 'spawn ENOENT' }, undefined)).toMatchObject({ kind: 'report', message: expect.stringContaining('could not start') });
  });

  it('after the tree: a fork switches, a changed file reloads, an untouched one does nothing', () => {
    const before = { size: 100, mtimeMs: 1 };
    const current = facts.sessionFile!;
    expect(afterTree(ok('/s/fork.jsonl\n'), current, before, before)).toEqual({ kind: 'switch', path: '/s/fork.jsonl' });
    expect(afterTree({ status: 1, stdout: '', stderr: '' }, current, before, { size: 180, mtimeMs: 2 })).toEqual({ kind: 'reload', path: current });
    expect(afterTree({ status: 1, stdout: '', stderr: '' }, current, before, before)).toEqual({ kind: 'nothing' });
    expect(afterTree(ok(`${current}\n`), current, before, before)).toEqual({ kind: 'reload', path: current });
  });
});
