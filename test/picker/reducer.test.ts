import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { screenKeymaps } from '../../src/keymap/screen-keymaps.js';
import {
  initialPickerState,
  type PickerAction,
  type PickerState,
  selectedRow,
  takesKeys,
} from '../../src/picker/reducer.js';
import { MIN, makeInfo, NOW } from './make-info.js';
import { key, loaded, run, sessions, typeText } from './reducer-fixture.js';

describe('pickerReducer', () => {
  it('starts loading the initial scope and lays out the list (13 rows → 9 list lines)', () => {
    const s = initialPickerState({ printMode: false, columns: 100, rows: 13 });
    expect(s.effects).toEqual([{ id: 1, kind: 'load', scope: 'cwd' }]);
    expect(s.listLines).toBe(9);
  });

  it('→ opens the tree on a full-text hit (its text and place), and plainly on a name match', () => {
    const onHit = run(typeText(loaded(), 'internals'), key('right'));
    expect(onHit.effects.at(-1)).toMatchObject({
      kind: 'open',
      path: '/s/07.jsonl',
      focus: { text: 'internals', place: 'active' },
    });
    const onName = run(typeText(loaded(), 'parser work'), key('right'));
    expect(onName.effects.at(-1)).toEqual({ id: expect.any(Number), kind: 'open', path: '/s/03.jsonl' });
  });

  it('moves, pages and scrolls the viewport with the cursor', () => {
    let s = loaded();
    expect(selectedRow(s)?.info.path).toBe('/s/00.jsonl');
    s = run(s, key('down'), key('down'));
    expect(s.cursor).toBe(2);
    s = run(s, key('pagedown'));
    expect(s.cursor).toBe(10);
    expect(s.offset).toBe(2);
    // Home and End are the search's (as in pi); Ctrl+Home and Ctrl+End go to the ends of the list.
    expect(run(s, key('end'), key('home'))).toBe(s);
    s = run(s, key('ctrl+end'));
    expect([s.cursor, s.offset]).toEqual([29, 21]);
    s = run(s, key('up'), key('ctrl+home'));
    expect([s.cursor, s.offset]).toEqual([0, 0]);
    expect(run(s, key('up'))).toBe(s); // clamped, same object
  });

  it("the search edits with pi's keys: a paste, Home, then Q inserts Q at the start", () => {
    const paste: PickerAction = { type: 'key', name: undefined, text: 'parser work', paste: true, nowMs: NOW };
    const edited = (...names: KeyName[]): { value: string; cursor: number } =>
      run(loaded(), paste, ...names.map((n) => key(n))).query;
    expect(edited('home', 'Q')).toEqual({ value: 'Qparser work', cursor: 1 });
    expect(edited('ctrl+a', 'Q')).toEqual({ value: 'Qparser work', cursor: 1 });
    expect(edited('ctrl+a', 'ctrl+e', 'Q')).toEqual({ value: 'parser workQ', cursor: 12 });
    expect(edited('meta+b', 'ctrl+k')).toEqual({ value: 'parser ', cursor: 7 });
    expect(edited('ctrl+left', 'ctrl+u')).toEqual({ value: 'work', cursor: 0 });
    expect(edited('ctrl+w')).toEqual({ value: 'parser ', cursor: 7 });
    expect(edited('meta+backspace', 'meta+backspace')).toEqual({ value: '', cursor: 0 });
    expect(edited('home', 'delete', 'delete')).toEqual({ value: 'rser work', cursor: 0 });
    expect(edited('home', 'meta+f', 'meta+d')).toEqual({ value: 'parser', cursor: 6 });
    expect(edited('left', 'left', 'ctrl+b', 'right', 'ctrl+f', 'backspace')).toEqual({
      value: 'parser wok',
      cursor: 9,
    });
    // None of them marks, slims, checks or moves in the list.
    const s = run(loaded(), paste, ...(['home', 'ctrl+a', 'ctrl+e', 'ctrl+k', 'end'] as const).map((n) => key(n)));
    expect(s.marks.size).toBe(0);
    expect(s.effects.filter((e) => e.kind === 'openCheck' || e.kind === 'planSlim')).toEqual([]);
    expect(s.mode.kind).toBe('browse');
  });

  it('Ctrl+J (LF) resumes like Enter, unless keybindings.json gives it to tui.select.down', () => {
    const open = run(loaded(), key('ctrl+j'));
    expect(open.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/00.jsonl' });
    const bindings = screenKeymaps({ 'tui.select.down': ['down', 'ctrl+j'] }, 'kb.json').picker;
    const remapped = run({ ...loaded(), bindings }, key('ctrl+j'), key('ctrl+j'));
    expect(remapped.cursor).toBe(2);
    expect(remapped.effects.some((e) => e.kind === 'checkResume')).toBe(false);
    expect(run(remapped, key('return')).effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/02.jsonl' });
  });

  it('a run of typed text means what its keys typed one by one mean, and costs one search', () => {
    for (const text of ['parser', 'p?x', 'internals$', '?', '$']) {
      const burst = run(loaded(), key(undefined, text));
      const single = typeText(loaded(), text);
      expect(
        [burst.mode, burst.query.value, burst.rows.map((r) => r.info.path), burst.effects.map((e) => e.kind)],
        text,
      ).toEqual([
        single.mode,
        single.query.value,
        single.rows.map((r) => r.info.path),
        single.effects.map((e) => e.kind),
      ]);
    }
    // On an empty search the burst's first letter is not searched alone (a full scan of every text).
    const burst = run(loaded(), key(undefined, 'parser'));
    expect([...(burst.index?.patternCache.keys() ?? [])]).toEqual(['parser']);
  });

  it('the same sessions in a new array keep their search index (and its caches); other sessions get a new one', () => {
    const s = typeText(loaded(), 'text');
    const same = run(s, {
      type: 'loadDone',
      scope: 'cwd',
      searched: '/sessions/--home-u-proj--',
      skipped: 0,
      sessions: [...sessions],
    });
    expect(same.index).toBe(s.index);
    const fewer = run(s, {
      type: 'loadDone',
      scope: 'cwd',
      searched: '/sessions/--home-u-proj--',
      skipped: 0,
      sessions: sessions.slice(1),
    });
    expect(fewer.index).not.toBe(s.index);
    expect(fewer.rows.map((r) => r.info.path)).not.toContain('/s/00.jsonl');
  });

  it('a keystroke that changes only the spacing keeps the rows and the cursor (no new search)', () => {
    const typed = run(typeText(loaded(), 'text'), key('down'), key('down'));
    const spaced = run(typed, key('space', ' '));
    expect(spaced.query.value).toBe('text ');
    expect(spaced.rows).toBe(typed.rows);
    expect(spaced.cursor).toBe(2);
    const back = run(spaced, key('backspace'));
    expect(back.rows).toBe(typed.rows);
    // A new word is a new search, from the top.
    const more = typeText(spaced, '1');
    expect(more.rows).not.toBe(typed.rows);
    expect(more.cursor).toBe(0);
  });

  it('typing searches: the name hit ranks above the text hit and the cursor goes to the top', () => {
    let s = run(loaded(), key('down'), key('down'));
    s = typeText(s, 'parser');
    expect(s.query.value).toBe('parser');
    expect(s.rows.map((r) => r.info.path)).toEqual(['/s/03.jsonl', '/s/07.jsonl']);
    expect(s.cursor).toBe(0);
    expect(s.rows[1]!.textHit).toBeDefined();
    s = run(s, key('escape'));
    expect(s.query.value).toBe('');
    expect(s.rows).toHaveLength(30);
    s = run(s, key('escape'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'exit', exit: { kind: 'quit', code: 0 } });
  });

  it("opened with a query (`--query`, pi's /sessions QUERY), Esc leaves at once while it stands unedited, as pi's /resume does", () => {
    const opened = (): PickerState => {
      const s = initialPickerState({ printMode: true, columns: 100, rows: 13, scope: 'cwd', query: 'parser' });
      return run(s, { type: 'loadDone', scope: 'cwd', searched: '/sessions/--home-u-proj--', skipped: 0, sessions });
    };
    expect(opened().query.value).toBe('parser');
    // Unedited: Esc is pi's cancel, back at once (print mode: exit 1, nothing chosen).
    const left = run(opened(), key('escape'));
    expect(left.effects.at(-1)).toMatchObject({ kind: 'exit', exit: { kind: 'quit', code: 1 } });
    expect(left.leaving).toBe(true);
    // Edited: the first Esc clears the search (text typed next searches afresh), the second leaves.
    let edited = typeText(opened(), 's');
    edited = run(edited, key('escape'));
    expect(edited.query.value).toBe('');
    expect(edited.effects.some((e) => e.kind === 'exit')).toBe(false);
    expect(run(edited, key('escape')).effects.at(-1)).toMatchObject({ kind: 'exit', exit: { kind: 'quit', code: 1 } });
    // Typed back to the text it opened with, the search is that one again: Esc leaves at once.
    expect(run(typeText(run(opened(), key('backspace')), 'r'), key('escape')).leaving).toBe(true);
  });

  it('an invalid query is an error value with no rows', () => {
    const s = typeText(loaded(), 're:(');
    expect(s.parsed.ok).toBe(false);
    expect(s.rows).toEqual([]);
  });

  it('? opens help only when the query is empty', () => {
    expect(run(loaded(), key('?')).mode.kind).toBe('help');
    const typed = typeText(loaded(), 'a?');
    expect(typed.query.value).toBe('a?');
    expect(typed.mode.kind).toBe('browse');
  });

  it('$ opens the stats screen (and takes no more keys) only when the query is empty', () => {
    const opened = run(loaded(), key('down'), key('$'));
    expect(opened.effects.map((e) => e.kind)).toContain('stats');
    expect(takesKeys(opened)).toBe(false);
    const typed = typeText(loaded(), 'a$');
    expect(typed.query.value).toBe('a$');
    expect(typed.effects.map((e) => e.kind)).not.toContain('stats');
  });

  it('keeps the cursor on the chosen session by path as rows arrive', () => {
    let s = run(loaded(), key('down'), key('down'));
    const chosen = selectedRow(s)!.info.path;
    const newer = makeInfo({ path: '/s/new.jsonl', ageMs: MIN * 30 });
    s = run(s, { type: 'sessions', scope: 'cwd', sessions: [newer, ...sessions], loaded: 31, total: 31 });
    expect(selectedRow(s)!.info.path).toBe(chosen);
  });

  it('cycles scope (loading an unloaded one), sort, named and paths', () => {
    let s = run(loaded(), { type: 'effectsTaken', upTo: 99 }, key('tab'));
    expect(s.scope).toBe('cwd-tree');
    expect(s.effects).toMatchObject([{ kind: 'load', scope: 'cwd-tree' }]);
    s = run(s, key('shift+tab'), key('ctrl+s'));
    expect([s.scope, s.sort]).toEqual(['cwd', 'recent']);
    s = run(s, key('ctrl+n'));
    expect(s.rows.map((r) => r.info.path)).toEqual(['/s/03.jsonl']);
    expect(run(s, key('ctrl+p')).showPaths).toBe(true);
  });

  it('rename: pre-filled, cursor at end, updates the row at once and emits the effect', () => {
    let s = run(loaded(), key('down'), key('down'), key('down'), key('ctrl+r'));
    expect(s.mode).toMatchObject({ kind: 'rename', path: '/s/03.jsonl', input: { value: 'Parser work', cursor: 11 } });
    s = run(s, key('!'), key('return'));
    expect(s.mode.kind).toBe('browse');
    expect(selectedRow(s)!.info.name).toBe('Parser work!');
    expect(s.effects.at(-1)).toMatchObject({
      kind: 'rename',
      path: '/s/03.jsonl',
      name: 'Parser work!',
      previous: 'Parser work',
    });
    s = run(s, { type: 'renameFailed', path: '/s/03.jsonl', previous: 'Parser work', error: 'disk full' });
    expect(selectedRow(s)!.info.name).toBe('Parser work');
    expect(s.status).toMatchObject({ tone: 'error', text: 'Rename failed: disk full' });
  });

  it("Ctrl+C cancels a prompt or the help, as pi's prompts do (escape / ctrl+c cancel); it quits only from the list", () => {
    const renaming = run(loaded(), key('ctrl+r'), key('x'), key('ctrl+c'));
    expect(renaming.mode.kind).toBe('browse');
    expect(renaming.effects.some((e) => e.kind === 'rename' || e.kind === 'exit')).toBe(false);
    const deleting = run(loaded(), key('down'), key('ctrl+d'), key('ctrl+c'));
    expect(deleting.mode.kind).toBe('browse');
    expect(deleting.effects.some((e) => e.kind === 'trash' || e.kind === 'exit')).toBe(false);
    const helping = run(loaded(), key('?'), key('ctrl+c'));
    expect(helping.mode.kind).toBe('browse');
    expect(helping.effects.some((e) => e.kind === 'exit')).toBe(false);
    expect(run(helping, key('ctrl+c')).effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'quit', code: 130 },
    });
  });

  it('rename: Esc cancels; an empty name clears', () => {
    let s = run(loaded(), key('ctrl+r'), key('x'), key('escape'));
    expect(s.mode.kind).toBe('browse');
    expect(s.effects.some((e) => e.kind === 'rename')).toBe(false);
    s = run(loaded(), key('down'), key('down'), key('down'), key('ctrl+r'), key('ctrl+u'), key('return'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'rename', name: '' });
    expect(selectedRow(s)!.info.name).toBeUndefined();
  });

  it('delete: confirm swallows other keys; Enter trashes', () => {
    let s = run(loaded(), key('down'), key('ctrl+d'));
    expect(s.mode).toMatchObject({ kind: 'confirm', paths: ['/s/01.jsonl'], permanent: false, needsYes: false });
    expect(run(s, key('x'))).toBe(s);
    s = run(s, key('return'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'trash', paths: ['/s/01.jsonl'], permanent: false });
    const item = {
      path: '/s/01.jsonl',
      how: 'trash' as const,
      trashedPath: '/t/01.jsonl',
      infoPath: '/t/01.trashinfo',
    };
    s = run(s, {
      type: 'trashed',
      permanent: false,
      outcome: { trashed: [item], failed: [], changeIds: ['c0ffee01'] },
    });
    expect(s.rows.some((r) => r.info.path === '/s/01.jsonl')).toBe(false);
    // This screen's own change: a Ctrl+Z in the next minute needs no question (the store checks the age).
    expect(s.ownChanges).toEqual(['c0ffee01']);
    expect(selectedRow(s)!.info.path).toBe('/s/02.jsonl');
    expect(s.status?.text).toMatch(/Moved 1 session to the trash · Ctrl\+Z undoes/);
  });

  it('a change made but not journalled says so in the status line (it cannot be undone)', () => {
    const warning =
      'the change was made but not recorded in the journal (/j: permission denied), so it cannot be undone with pi-sessions undo';
    const renamed = run(loaded(), { type: 'renamed', path: '/s/01.jsonl', name: 'X', journalWarning: warning });
    expect(renamed.status).toMatchObject({ tone: 'error', text: `Renamed; warning: ${warning}` });
    const item = { path: '/s/01.jsonl', how: 'trash' as const, trashedPath: '/t/01.jsonl' };
    const trashed = run(loaded(), {
      type: 'trashed',
      permanent: false,
      outcome: { trashed: [item], failed: [], changeIds: [], journalWarning: warning },
    });
    expect(trashed.status).toMatchObject({ tone: 'error', text: `Moved 1 session to the trash; warning: ${warning}` });
  });
});
