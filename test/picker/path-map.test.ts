/**
 * The picker with a path map (a store synced from another machine): forks recorded under the
 * other machine's paths nest under their parents in the threaded sort, Enter checks and resumes
 * in the mapped folder, `host:` finds what a mapping or a conflict copy says about the machine,
 * and the preview says where a session was written and where its folder is here.
 */
import { describe, expect, it } from 'vitest';
import { previewLines } from '../../components/picker/PreviewPane.js';
import type { KeyName } from '../../src/keymap/keymap.js';
import { textKey } from '../../src/keymap/tokenize.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import type { PathMap } from '../../src/store/index.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const MAP: PathMap = [{ from: '/Users/ana', to: '/home/ana', host: 'ana-mac' }];
const ROOT = '/home/ana/.pi/agent/sessions/--Users-ana-code-app--';
const parent = makeInfo({ path: `${ROOT}/parent.jsonl`, cwd: '/Users/ana/code/app', ageMs: 3 * DAY });
const fork = makeInfo({
  path: `${ROOT}/fork.jsonl`,
  cwd: '/Users/ana/code/app',
  // Recorded on the Mac: the store was in /Users/ana/.pi there.
  parentSessionPath: '/Users/ana/.pi/agent/sessions/--Users-ana-code-app--/parent.jsonl',
  ageMs: 1 * DAY,
});
const other = makeInfo({ path: `${ROOT}/other.jsonl`, cwd: '/Users/ana/code/app', ageMs: 2 * DAY });
const copy = makeInfo({
  path: '/home/ana/.pi/agent/sessions/--home-ana-code-app--/x.sync-conflict-20260105-091500-ABCDEF1.jsonl',
  cwd: '/home/ana/code/app',
  ageMs: 4 * DAY,
});

const key = (name: KeyName): PickerAction => ({ type: 'key', name, text: '', paste: false, nowMs: NOW });
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
const typed = (state: PickerState, text: string): PickerState =>
  run(
    state,
    ...[...text].map(
      (ch): PickerAction => ({ type: 'key', name: textKey(ch).name, text: ch, paste: false, nowMs: NOW }),
    ),
  );

function loaded(pathMap?: PathMap): PickerState {
  const s = initialPickerState({
    printMode: false,
    columns: 120,
    rows: 20,
    scope: 'all',
    ...(pathMap ? { pathMap } : {}),
  });
  return run(s, { type: 'loadDone', scope: 'all', searched: '/x', skipped: 0, sessions: [fork, other, parent, copy] });
}

const order = (s: PickerState): string[] =>
  s.rows.map((r) => `${'  '.repeat(r.depth)}${r.info.path.split('/').at(-1)}`);

describe('the picker with a path map', () => {
  it('threaded: a fork whose parent was recorded under the mapped prefix nests under it', () => {
    expect(order(loaded())).toEqual(['fork.jsonl', 'other.jsonl', 'parent.jsonl', copy.path.split('/').at(-1)]);
    expect(order(loaded(MAP))).toEqual(['parent.jsonl', '  fork.jsonl', 'other.jsonl', copy.path.split('/').at(-1)]);
  });

  it('Enter checks the mapped folder, and pi resumes there', () => {
    const s = run(loaded(MAP), key('return'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: parent.path, cwd: '/home/ana/code/app' });
    const resumed = run(s, {
      type: 'resumeChecked',
      path: parent.path,
      cwd: '/home/ana/code/app',
      cwdExists: true,
      here: '/tmp',
    });
    expect(resumed.effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'resume', path: parent.path, cwd: '/home/ana/code/app' },
    });
    // Without the map, the recorded folder is the one checked.
    expect(run(loaded(), key('return')).effects.at(-1)).toMatchObject({ cwd: '/Users/ana/code/app' });
  });

  it('host: finds the sessions of a mapping’s host and a conflict copy’s device, case-insensitively', () => {
    const names = (s: PickerState): string[] => s.rows.map((r) => r.info.path.split('/').at(-1)!).sort();
    expect(names(typed(loaded(MAP), 'host:ANA-MAC'))).toEqual(['fork.jsonl', 'other.jsonl', 'parent.jsonl']);
    expect(names(typed(loaded(MAP), 'host:abcdef1'))).toEqual([copy.path.split('/').at(-1)]);
    expect(names(typed(loaded(MAP), '!host:ana'))).toEqual([copy.path.split('/').at(-1)]);
    expect(names(typed(loaded(), 'host:ana-mac'))).toEqual([]);
  });

  it('the preview says where a session was written and where its folder is here', () => {
    const lines = previewLines(fork, undefined, 100, NOW, '/home/ana', false, MAP).map((l) => l.text);
    expect(lines).toContain('Cwd      /Users/ana/code/app → ~/code/app');
    expect(lines).toContain('Written  on ana-mac');
    const plain = previewLines(fork, undefined, 100, NOW, '/home/ana').map((l) => l.text);
    expect(plain).toContain('Cwd      /Users/ana/code/app');
    expect(plain.some((l) => l.startsWith('Written'))).toBe(false);
    expect(previewLines(copy, undefined, 100, NOW, '/home/ana', false, MAP).map((l) => l.text)).toContain(
      'Written  on ABCDEF1',
    );
  });
});
