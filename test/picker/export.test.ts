/**
 * The picker's Export (pure reducer paths): Alt+E asks the format in a menu, then the path (a new
 * file named after the session in the folder pi-sessions runs in, editable), then runs the export
 * as an effect that stops on secrets; found secrets bring a menu whose first (default) choice
 * redacts, the second keeps them; Esc anywhere exports nothing. Keys one at a time and in one read
 * mean the same.
 */
import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/key-name.js';
import { defaultExportName } from '../../src/picker/export.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const sessions = [makeInfo({ path: '/s/a.jsonl', ageMs: DAY }), makeInfo({ path: '/s/b.jsonl', ageMs: 2 * DAY })];
const named = (name: KeyName, text = ''): PickerAction => ({ type: 'key', name, text, paste: false, nowMs: NOW });
const typed = (text: string): PickerAction => ({ type: 'key', name: undefined, text, paste: false, nowMs: NOW });
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
const loaded = (): PickerState =>
  run(initialPickerState({ printMode: false, columns: 100, rows: 20, here: '/work/here' }), {
    type: 'loadDone',
    scope: 'cwd',
    searched: '/s',
    skipped: 0,
    sessions,
  });
const exports = (s: PickerState) => s.effects.filter((e) => e.kind === 'export');
const FINDING = { entryId: '00000003', line: 4, kind: 'GITHUB_TOKEN', masked: 'ghp_************ (40 characters)' };

describe('Export in the picker', () => {
  it('Alt+E: the format menu, then the path prefilled in the folder it runs in, then the export effect', () => {
    let s = run(loaded(), named('down'), named('meta+e'));
    expect(s.mode).toMatchObject({ kind: 'export', path: '/s/b.jsonl', step: { kind: 'format' } });
    s = run(s, named('down'), named('return'));
    const id = sessions[1]!.id;
    expect(s.mode).toMatchObject({
      step: { kind: 'path', format: 'html', input: { value: defaultExportName(id, 'html') } },
    });
    s = run(s, named('return'));
    expect(s.mode).toMatchObject({ kind: 'export', step: { kind: 'running', format: 'html' } });
    expect(s.busy).toBe(true);
    // A key typed ahead while it scans is swallowed: an Enter must not resume the session under the dialog.
    expect(run(s, named('return'), named('escape'), typed('x'))).toEqual(s);
    expect(exports(s)).toEqual([
      {
        id: expect.any(Number),
        kind: 'export',
        path: '/s/b.jsonl',
        format: 'html',
        out: `/work/here/${defaultExportName(id, 'html')}`,
        secrets: 'stop',
      },
    ]);
    s = run(s, { type: 'exported', format: 'html', out: '/work/here/x.html', bytes: 2048, redacted: 0, kept: 0 });
    expect(s.busy).toBe(false);
    expect(s.mode).toEqual({ kind: 'browse' });
    expect(s.status?.text).toBe('Exported html (2.0 KB) to /work/here/x.html');
  });

  it('a typed path (relative: in the folder it runs in; absolute as it is); an empty one is refused', () => {
    let s = run(loaded(), named('meta+e'), named('return'), named('ctrl+u'));
    expect(s.mode).toMatchObject({ step: { kind: 'path', input: { value: '' } } });
    s = run(s, named('return'));
    expect(s.status).toMatchObject({ tone: 'error', text: 'Type the path of a new file to export to' });
    expect(exports(s)).toEqual([]);
    const relative = run(s, typed('notes/a.md'), named('return'));
    expect(exports(relative)[0]).toMatchObject({ format: 'md', out: '/work/here/notes/a.md' });
    const absolute = run(s, typed('/tmp/a.md'), named('return'));
    expect(exports(absolute)[0]).toMatchObject({ out: '/tmp/a.md' });
  });

  it('found secrets: a menu whose default redacts, the second keeps them, Cancel or Esc exports nothing', () => {
    const request = { path: '/s/a.jsonl', format: 'md' as const, out: '/work/here/a.md', secrets: 'stop' as const };
    const asked = run(loaded(), { type: 'exportStopped', request, findings: [FINDING] });
    expect(asked.mode).toMatchObject({ kind: 'export', step: { kind: 'secrets', findings: [FINDING] } });
    expect(asked.busy).toBe(false);
    expect(exports(run(asked, named('return')))).toEqual([
      { id: expect.any(Number), kind: 'export', ...request, secrets: 'redact' },
    ]);
    expect(exports(run(asked, named('down'), named('return')))[0]).toMatchObject({ secrets: 'keep' });
    for (const keys of [[named('up'), named('return')], [named('escape')]]) {
      const none = run(asked, ...keys);
      expect(exports(none)).toEqual([]);
      expect(none.mode).toEqual({ kind: 'browse' });
      expect(none.status?.text).toBe('Nothing was exported');
    }
  });

  it('keys in one read mean the keys one by one; text typed into the path goes into the path', () => {
    const start = run(loaded(), named('meta+e'));
    // ↓ then Enter as one read is two named keys; the path then takes a run of text whole.
    const one = run(start, named('down'), named('return'), named('ctrl+u'), typed('x.html'));
    const split = run(start, named('down'), named('return'), named('ctrl+u'), ...[...'x.html'].map((c) => typed(c)));
    expect(one.mode).toEqual(split.mode);
    expect(one.mode).toMatchObject({ step: { kind: 'path', input: { value: 'x.html' } } });
  });

  it('a failed export says why and frees the list', () => {
    const s = run(loaded(), named('meta+e'), named('return'), named('return'), {
      type: 'exportFailed',
      error: 'cannot write /work/here/a.md: the file exists',
    });
    expect(s.busy).toBe(false);
    expect(s.status).toMatchObject({
      tone: 'error',
      text: 'Not exported: cannot write /work/here/a.md: the file exists',
    });
  });
});
