/**
 * The check view's secrets filter (pure): `s` asks for the scan once and says it runs, the report
 * shows only the files with findings (most first, titled from the audit, each finding masked as
 * the CLI prints it), `s` again shows the audit and back the kept report without scanning again;
 * Enter opens a file from the filter; a scan cut short by opening a tree starts again on return;
 * `?` shows the keys (the filter among them) and any key closes it.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_BINDINGS, CHECK_MODE_TITLES } from '../../src/check/keymap.js';
import {
  type CheckAction,
  type CheckState,
  checkReducer,
  initialCheckState,
  resumeCheckState,
} from '../../src/check/reducer.js';
import { helpLines } from '../../src/keymap/help-view.js';
import type { KeyName } from '../../src/keymap/key-name.js';
import type { CheckReport, SecretReport } from '../../src/store/index.js';

const key = (name: KeyName): CheckAction => ({ type: 'key', name });
const run = (state: CheckState, ...actions: CheckAction[]): CheckState => actions.reduce(checkReducer, state);

const audit: CheckReport = {
  searched: '/s',
  files: ['a', 'b', 'c'].map((n) => ({
    path: `/s/${n}.jsonl`,
    sessionId: n,
    title: `session ${n}`,
    problems: [],
    health: null,
  })) as unknown as CheckReport['files'],
};
const secrets: SecretReport = {
  searched: '/s',
  files: [
    {
      path: '/s/a.jsonl',
      sessionId: 'a',
      findings: [{ entryId: '0000000a', line: 4, kind: 'GITHUB_TOKEN', masked: 'ghp_************ (40 characters)' }],
    },
    { path: '/s/b.jsonl', sessionId: 'b', findings: [] },
    {
      path: '/s/c.jsonl',
      sessionId: 'c',
      findings: [
        { entryId: '0000000c', line: 2, kind: 'AWSSecretAccessKey', masked: '************ (40 characters)' },
        { entryId: '0000000d', line: 9, kind: 'PrivateKey', masked: '************ (1674 characters)' },
      ],
    },
  ],
};
const scans = (s: CheckState) => s.effects.filter((e) => e.kind === 'scanSecrets');
const text = (s: CheckState) => s.view.lines.map((l) => l.text);

describe('the check view’s secrets filter', () => {
  it('s scans once, shows only the files with findings, masked; s again: the audit; and back without a new scan', () => {
    let s = run(initialCheckState(40, undefined, 120), { type: 'report', report: audit });
    s = run(s, key('s'));
    expect(scans(s)).toHaveLength(1);
    expect(text(s)).toEqual(['Scanning for secrets: 0/? files…']);
    s = run(s, { type: 'secretsProgress', done: 1, total: 3 });
    expect(text(s)).toEqual(['Scanning for secrets: 1/3 files…']);
    s = run(s, { type: 'secretsReport', report: secrets });
    expect(text(s)).toEqual([
      '3 secrets in 2 of 3 files in /s (masked; pi-sessions redact <session> removes them)',
      '',
      'session c · 2 secrets',
      '  /s/c.jsonl',
      '  line 2  entry 0000000c  AWSSecretAccessKey  ************ (40 characters)',
      '  line 9  entry 0000000d  PrivateKey  ************ (1674 characters)',
      '',
      'session a · 1 secret',
      '  /s/a.jsonl',
      '  line 4  entry 0000000a  GITHUB_TOKEN  ghp_************ (40 characters)',
    ]);
    expect(s.view.files.map((f) => f.path)).toEqual(['/s/c.jsonl', '/s/a.jsonl']);
    s = run(s, key('down'), key('return'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'open', path: '/s/a.jsonl' });

    s = run({ ...s, leaving: false, effects: [] }, key('s'));
    expect(s.view.files.map((f) => f.path)).toEqual(['/s/a.jsonl', '/s/b.jsonl', '/s/c.jsonl']);
    s = run(s, key('s'));
    expect(scans(s)).toEqual([]);
    expect(s.view.files).toHaveLength(2);
  });

  it('the report may come before the audit: titles follow when it arrives', () => {
    let s = run(initialCheckState(40, undefined, 120), key('s'), { type: 'secretsReport', report: secrets });
    expect(text(s)[2]).toBe('c.jsonl · 2 secrets');
    s = run(s, { type: 'report', report: audit });
    expect(text(s)[2]).toBe('session c · 2 secrets');
  });

  it('a scan cut short by opening a tree starts again when the view comes back', () => {
    let s = run(initialCheckState(40, undefined, 120), { type: 'report', report: audit }, key('s'), key('s'));
    expect(s.secrets.progress).toBeDefined();
    s = resumeCheckState(run(s, key('return')));
    expect(scans(s)).toHaveLength(1);
    s = resumeCheckState(run(s, { type: 'secretsReport', report: secrets }));
    expect(scans(s)).toEqual([]);
  });

  it('? shows the keys, the secrets filter among them; any key closes it', () => {
    let s = run(initialCheckState(40, undefined, 120), { type: 'report', report: audit }, key('?'));
    expect(s.mode).toBe('help');
    const rows = helpLines(CHECK_BINDINGS, CHECK_MODE_TITLES, [], 200).filter((l) => l.kind === 'row');
    expect(rows).toContainEqual(
      expect.objectContaining({ keys: 's', description: expect.stringMatching(/^Secrets: only the sessions/) }),
    );
    s = run(s, key('x'));
    expect(s.mode).toBe('list');
    expect(scans(s)).toEqual([]);
  });

  it('a run of characters in one read means the same keys one by one; a paste is never a command', () => {
    const start = run(initialCheckState(40, undefined, 120), { type: 'report', report: audit });
    const burst = run(start, { type: 'key', name: undefined, text: 's?' });
    const oneByOne = run(start, key('s'), key('?'));
    expect(burst).toEqual(oneByOne);
    expect(burst).toMatchObject({ mode: 'help', secrets: { on: true } });
    expect(run(start, { type: 'key', name: undefined, text: 's?', paste: true })).toBe(start);
  });
});
