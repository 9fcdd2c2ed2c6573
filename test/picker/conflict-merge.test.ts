/**
 * Alt+M on a row with conflict copies: the merge measured first, then a prompt saying what
 * happens (one merged file pi loads, the files to the trash, Ctrl+Z undoes); Enter merges,
 * Esc / Ctrl+C / n cancel, other keys are swallowed; the store's refusal is said as is; the
 * scope is listed again after the merge, and the merge is this screen's own change for Ctrl+Z.
 * The key is remappable through keybindings.json (`pi-sessions.merge`) and shown in the help.
 */
import { describe, expect, it } from 'vitest';
import { screenKeymaps } from '../../src/keymap/screen-keymaps.js';
import { mergeLines } from '../../src/picker/conflict-merge.js';
import { pickerHelpLines } from '../../src/picker/help.js';
import { PICKER_BINDINGS } from '../../src/picker/keymap.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import type { ConflictMergePlan } from '../../src/store/index.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, MIN, makeInfo, NOW } from './make-info.js';

const NAME = '/s/2026-01-05T09-00-00-000Z_019b';
const COPY = `${NAME}.sync-conflict-20260105-130000-7QKMJ3X.jsonl`;
const original = makeInfo({ path: `${NAME}.jsonl`, id: 'sid', ageMs: 2 * DAY });
const copy = makeInfo({ path: COPY, id: 'sid', ageMs: DAY });
const plain = makeInfo({ path: '/s/plain.jsonl', ageMs: 3 * DAY });

const key = (name: string, text = name.length === 1 ? name : ''): PickerAction =>
  ({ type: 'key', name, text, paste: false, nowMs: NOW }) as PickerAction;
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
function loaded(sessions: SessionInfo[] = [copy, original, plain], bindings = PICKER_BINDINGS): PickerState {
  const s = initialPickerState({ printMode: false, columns: 120, rows: 20, scope: 'cwd', bindings });
  return run(s, { type: 'loadDone', scope: 'cwd', searched: '/s', skipped: 0, sessions });
}

const plan: ConflictMergePlan = {
  original: original.path,
  sessionId: 'sid',
  files: [
    { path: original.path, size: 4000, mtimeMs: 1, entries: 8, own: 2 },
    {
      path: COPY,
      copy: { path: COPY, tool: 'syncthing', device: '7QKMJ3X', time: '2026-01-05T13:00:00' },
      size: 5000,
      mtimeMs: 2,
      entries: 9,
      own: 3,
    },
  ],
  entries: 11,
  leafFrom: COPY,
  sizeBefore: 9000,
  sizeAfter: 5500,
};

describe('Alt+M: merging a row’s conflict copies', () => {
  it('measures first, prompts with what each file adds, merges on Enter and lists the scope again', () => {
    let s = run(loaded(), key('meta+m'));
    expect(s.rows[0]?.info.path).toBe(original.path);
    expect(s.effects.at(-1)).toMatchObject({
      kind: 'planMerge',
      path: original.path,
      group: { original: original.path, copies: [{ path: COPY, device: '7QKMJ3X' }] },
    });
    expect(s.busy).toBe(true);
    // While the copies are read, the question says so; keys typed before it was shown are swallowed.
    expect(s.mode).toMatchObject({ kind: 'mergeConfirm', plan: null });
    if (s.mode.kind !== 'mergeConfirm') throw new Error('no question');
    expect(mergeLines(s.mode, 'the title', s.bindings)).toMatchObject({
      what: 'Reading what each file adds…',
      keys: 'Esc cancel',
    });
    expect(run(s, key('return'))).toBe(s);
    expect(run(s, key('y'))).toBe(s);
    // Cancelled while reading: the plan that arrives after asks nothing.
    const early = run(s, key('escape'), { type: 'mergePlanned', path: original.path, plan, nowMs: NOW });
    expect(early.mode.kind).toBe('browse');
    expect(early.busy).toBe(false);
    s = run(s, { type: 'mergePlanned', path: original.path, plan, nowMs: NOW });
    expect(s.mode).toMatchObject({ kind: 'mergeConfirm', path: original.path, needsYes: false });
    if (s.mode.kind !== 'mergeConfirm') throw new Error('no prompt');
    expect(mergeLines(s.mode, 'the title', s.bindings)).toEqual({
      title: 'Merge “the title” and its 1 conflict copy into one file?',
      what: '11 entries (the original +2 · device 7QKMJ3X, 2026-01-05T13:00:00 +3) · 8.8 KB → 5.4 KB',
      how: 'Ctrl+Z undoes it. One merged file pi loads (it resumes where the copy from 7QKMJ3X left off); the 2 files merged go to the trash.',
      warning: '',
      keys: 'Enter merge · Esc cancel',
    });
    // A stray key does nothing; each cancel key cancels.
    expect(run(s, key('x'))).toBe(s);
    for (const cancel of ['escape', 'ctrl+c', 'n']) {
      const cancelled = run(s, key(cancel));
      expect(cancelled.mode.kind).toBe('browse');
      expect(cancelled.status?.text).toBe('Nothing was merged');
    }
    s = run(s, key('return'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'merge', path: original.path, group: { original: original.path } });
    const before = s.effects.length;
    s = run(s, { type: 'merged', result: { ...plan, changeId: 'c0ffee' } });
    expect(s.status?.text).toBe(
      'Merged 2 files into one of 11 entries (8.8 KB → 5.4 KB); the files merged are in the trash · Ctrl+Z undoes',
    );
    expect(s.ownChanges).toContain('c0ffee');
    expect(s.effects.slice(before)).toMatchObject([{ kind: 'load', scope: 'cwd' }]);
  });

  it('says the store’s refusal plainly; a row without copies has nothing to merge; a live copy needs y', () => {
    const refused = run(loaded(), key('meta+m'), {
      type: 'mergeFailed',
      error: `cannot merge: ${original.path} (line 2) and ${COPY} (line 2) hold different entries with the same id 00000001; nothing was merged`,
    });
    expect(refused.busy).toBe(false);
    expect(refused.mode.kind).toBe('browse');
    expect(refused.status).toMatchObject({ tone: 'error' });
    expect(refused.status?.text).toMatch(
      /^Not merged: cannot merge: .* hold different entries with the same id 00000001/,
    );
    const none = run(loaded(), key('down'), key('meta+m'));
    expect(none.effects.some((e) => e.kind === 'planMerge')).toBe(false);
    expect(none.status?.text).toMatch(/^Nothing to merge: this session has no conflict copy/);
    const liveCopy = makeInfo({ path: COPY, id: 'sid', ageMs: MIN });
    let s = run(loaded([liveCopy, original]), key('meta+m'), {
      type: 'mergePlanned',
      path: original.path,
      plan,
      nowMs: NOW,
    });
    expect(s.mode).toMatchObject({ kind: 'mergeConfirm', needsYes: true });
    expect(run(s, key('return')).mode.kind).toBe('mergeConfirm');
    s = run(s, key('y'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'merge' });
  });

  it('is remapped through keybindings.json and listed in the help', () => {
    const { picker, problems } = screenKeymaps({ 'pi-sessions.merge': 'alt+j' }, 'kb.json');
    expect(problems).toEqual([]);
    expect(run(loaded([copy, original], picker), key('meta+m')).effects.some((e) => e.kind === 'planMerge')).toBe(
      false,
    );
    expect(run(loaded([copy, original], picker), key('meta+j')).effects.at(-1)).toMatchObject({ kind: 'planMerge' });
    const help = pickerHelpLines({ bindings: PICKER_BINDINGS, size: { columns: 200, rows: 40 } });
    expect(JSON.stringify(help)).toMatch(/Alt\+M.*Merge the conflict copies/);
  });
});
