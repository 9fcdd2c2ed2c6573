import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/keymap.js';
import { screenKeymaps } from '../../src/keymap/screen-keymaps.js';
import { textKey } from '../../src/keymap/tokenize.js';
import { pickerHelpLines } from '../../src/picker/help.js';
import {
  initialPickerState,
  type PickerAction,
  type PickerState,
  pickerReducer,
  resumePickerState,
  selectedRow,
  takesKeys,
} from '../../src/picker/reducer.js';
import type { SessionInfo } from '../../src/store/types.js';
import { DAY, MIN, makeInfo, NOW } from './make-info.js';

/** A named key (`down`, `ctrl+r`, `a`), or with `name` undefined a run of typed text. */
const key = (
  name: KeyName | undefined,
  text = name === undefined ? '' : name === 'space' ? ' ' : [...name].length === 1 ? name : '',
): PickerAction => ({ type: 'key', name, text, paste: false, nowMs: NOW });
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
const typeText = (state: PickerState, text: string): PickerState =>
  run(state, ...[...text].map((ch) => key(textKey(ch).name, ch)));

const sessions: SessionInfo[] = Array.from({ length: 30 }, (_, i) =>
  makeInfo({
    path: `/s/${String(i).padStart(2, '0')}.jsonl`,
    ageMs: (i + 1) * DAY,
    name: i === 3 ? 'Parser work' : undefined,
    allMessagesText: i === 7 ? 'talk about parser internals' : `text ${i}`,
  }),
);

function loaded(printMode = false): PickerState {
  const s = initialPickerState({ printMode, columns: 100, rows: 13, scope: 'cwd' });
  return run(s, { type: 'loadDone', scope: 'cwd', searched: '/sessions/--home-u-proj--', skipped: 0, sessions });
}

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

  describe('Alt+S: keep only the active branch', () => {
    const plan = {
      path: '/s/01.jsonl',
      sizeBefore: 200_000,
      entries: 9,
      branchEntries: 5,
      estimatedAfter: 1500,
      parentSession: null,
      sessionId: 'x',
    };

    it('measures first, prompts with the sizes, slims on Enter and lists the scope again', () => {
      let s = run(loaded(), key('down'), key('meta+s'));
      expect(s.effects.at(-1)).toMatchObject({ kind: 'planSlim', path: '/s/01.jsonl' });
      expect(s.busy).toBe(true);
      s = run(s, { type: 'slimPlanned', path: '/s/01.jsonl', plan, nowMs: NOW });
      expect(s.mode).toMatchObject({ kind: 'slimConfirm', path: '/s/01.jsonl', needsYes: false });
      expect(s.busy).toBe(false);
      expect(run(s, key('x'))).toBe(s);
      expect(run(s, key('escape')).status?.text).toBe('Nothing was slimmed');
      s = run(s, key('return'));
      expect(s.effects.at(-1)).toMatchObject({ kind: 'slim', path: '/s/01.jsonl' });
      const before = s.effects.length;
      s = run(s, {
        type: 'slimmed',
        result: {
          path: '/s/01.jsonl',
          slimPath: '/s/new.jsonl',
          sizeBefore: 200_000,
          sizeAfter: 1600,
          entriesBefore: 9,
          entriesAfter: 6,
        },
      });
      expect(s.status?.text).toBe(
        'Slimmed 195 KB → 1.6 KB (6 entries of 9); the original is in the trash · Ctrl+Z undoes',
      );
      expect(s.effects.slice(before)).toMatchObject([{ kind: 'load', scope: 'cwd' }]);
    });

    it('nothing off the branch: says so; the session pi is in: refused; a live one needs y', () => {
      const all = run(loaded(), key('meta+s'), {
        type: 'slimPlanned',
        path: '/s/00.jsonl',
        plan: { ...plan, path: '/s/00.jsonl', branchEntries: 9 },
        nowMs: NOW,
      });
      expect(all.mode.kind).toBe('browse');
      expect(all.status?.text).toBe('Nothing to slim: every entry is on the active branch');
      const current = run(
        initialPickerState({ printMode: false, columns: 100, rows: 13, current: '/s/00.jsonl' }),
        { type: 'loadDone', scope: 'cwd', searched: '/s', skipped: 0, sessions },
        key('meta+s'),
      );
      expect(current.effects.some((e) => e.kind === 'planSlim')).toBe(false);
      expect(current.status?.tone).toBe('error');
      const live = makeInfo({ path: '/s/live.jsonl', ageMs: MIN });
      let s = run(initialPickerState({ printMode: false, columns: 100, rows: 20 }), {
        type: 'loadDone',
        scope: 'cwd',
        searched: '/x',
        skipped: 0,
        sessions: [live],
      });
      s = run(s, key('meta+s'), { type: 'slimPlanned', path: '/s/live.jsonl', plan, nowMs: NOW });
      expect(s.mode).toMatchObject({ kind: 'slimConfirm', needsYes: true });
      expect(run(s, key('return')).mode.kind).toBe('slimConfirm');
      expect(run(s, key('y')).effects.at(-1)).toMatchObject({ kind: 'slim' });
    });
  });

  describe('Ctrl+Z and Ctrl+Y: the journal’s latest change, said first', () => {
    const record = {
      kind: 'delete',
      path: '/s/01.jsonl',
      time: new Date(NOW - 3 * DAY).toISOString(),
      id: 'abcd1234',
      how: 'trash',
      trashedPath: '/t/01.jsonl',
      infoPath: null,
      title: 'Parser work',
      cwd: '/home/u/proj',
    } as const;
    const undo = 'restore it from the trash';
    const entry = { record, batch: [record], undo, changedSince: false };
    const step = (s: PickerState, value: Extract<PickerAction, { type: 'undoStep' }>['step']): PickerState =>
      run(s, { type: 'undoStep', step: value, nowMs: NOW });

    it('looks first (the dialog says so); keys pressed before the question are swallowed, Esc cancels', () => {
      let s = run(loaded(), key('ctrl+z'));
      expect(s.effects.at(-1)).toMatchObject({ kind: 'undo', request: { look: true, own: [] } });
      expect(s.mode).toEqual({ kind: 'undoConfirm', action: 'undo', question: null });
      expect(s.busy).toBe(true);
      // y before the question is shown answers nothing, and is not typed into the search either.
      const early = run(s, key('y'), key('return'), key('x'));
      expect(early.effects).toEqual(s.effects);
      expect(early.query.value).toBe('');
      // Esc: no question; when the answer comes, it is dropped.
      s = run(s, key('escape'));
      expect(s.mode.kind).toBe('browse');
      s = step(s, { kind: 'ask', entry });
      expect(s.mode.kind).toBe('browse');
      expect(s.busy).toBe(false);
    });

    it('asks what will be undone: the change, the session, its project and when; n keeps it, y and Enter undo it by id', () => {
      const asked = step(run(loaded(), key('ctrl+z')), { kind: 'ask', entry });
      expect(asked.mode).toMatchObject({
        kind: 'undoConfirm',
        question: {
          action: 'undo',
          id: 'abcd1234',
          kind: 'plain',
          title: 'Undo this change?',
          text: 'The delete of “Parser work” (01.jsonl in /home/u/proj, 3 days ago): restore it from the trash.',
        },
      });
      expect(run(asked, key('x'))).toBe(asked);
      expect(run(asked, key('s'))).toBe(asked);
      const kept = run(asked, key('n'));
      expect(kept.mode.kind).toBe('browse');
      expect(kept.status?.text).toBe('Nothing was undone');
      expect(kept.effects.filter((e) => e.kind === 'undo')).toHaveLength(1);
      for (const yes of ['y', 'return'] as const) {
        const done = run(asked, key(yes));
        expect(done.mode.kind).toBe('browse');
        expect(done.effects.at(-1)).toMatchObject({ kind: 'undo', request: { id: 'abcd1234', force: false } });
      }
    });

    it('once undone: says what, lists the scope again, and remembers it as its own (redo need not ask)', () => {
      let s = run(loaded(), key('ctrl+z'));
      const effects = s.effects.length;
      s = step(s, { kind: 'done', outcome: { record, batch: [record], undo } });
      expect(s.busy).toBe(false);
      expect(s.mode.kind).toBe('browse');
      expect(s.status).toMatchObject({
        tone: 'info',
        text: 'Undid the delete of “Parser work” (01.jsonl in /home/u/proj, 3 days ago): restore it from the trash',
      });
      expect(s.effects.slice(effects)).toMatchObject([{ kind: 'load', scope: 'cwd' }]);
      expect(s.ownChanges).toEqual(['abcd1234']);
      expect(run(s, key('ctrl+y')).effects.at(-1)).toMatchObject({
        kind: 'redo',
        request: { look: true, own: ['abcd1234'] },
      });
    });

    it('a change pi has written after is undone with force once the user says yes', () => {
      const asked = step(run(loaded(), key('ctrl+z')), { kind: 'ask', entry: { ...entry, changedSince: true } });
      expect(asked.mode).toMatchObject({ question: { kind: 'changed', title: 'Undo a change pi has written after?' } });
      expect(asked.mode.kind === 'undoConfirm' && asked.mode.question?.text).toMatch(
        /pi has written to it since; its later entries stay\.$/,
      );
      expect(run(asked, key('y')).effects.at(-1)).toMatchObject({
        kind: 'undo',
        request: { id: 'abcd1234', force: true },
      });
    });

    it('a change that cannot be undone says why; y and Enter do nothing, s skips it, n keeps it', () => {
      const blocked = 'it is no longer in the trash: the trash was emptied';
      const asked = step(run(loaded(), key('ctrl+z')), { kind: 'ask', entry: { ...entry, blocked } });
      expect(asked.mode).toMatchObject({
        question: { kind: 'blocked', title: 'This change cannot be undone', text: expect.stringContaining(blocked) },
      });
      expect(run(asked, key('y'))).toBe(asked);
      expect(run(asked, key('return'))).toBe(asked);
      const skipped = run(asked, key('s'));
      expect(skipped.mode.kind).toBe('browse');
      expect(skipped.effects.at(-1)).toMatchObject({ kind: 'undo', request: { skip: 'abcd1234' } });
      const said = step(skipped, { kind: 'skipped', outcome: { record, batch: [record], why: blocked } });
      expect(said.status?.text).toMatch(
        /^Skipped the delete of “Parser work” .*, which cannot be undone: it is no longer in the trash/,
      );
      expect(run(asked, key('n')).mode.kind).toBe('browse');
    });

    it('a rename made here is remembered by its journal id, and sent with the next look', () => {
      const renamed = run(loaded(), { type: 'renamed', path: '/s/01.jsonl', name: 'X', changeId: 'feed0001' });
      expect(run(renamed, key('ctrl+z')).effects.at(-1)).toMatchObject({
        kind: 'undo',
        request: { look: true, own: ['feed0001'] },
      });
    });

    it('Ctrl+Y asks before redoing, then redoes by id', () => {
      const change = {
        ...record,
        kind: 'rename',
        entryId: 'e1',
        previousName: 'Old',
        name: 'New',
        after: { size: 1, mtimeMs: 1, ino: 1 },
      } as const;
      const asked = run(loaded(), key('ctrl+y'), {
        type: 'redoStep',
        nowMs: NOW,
        step: {
          kind: 'ask',
          entry: {
            candidate: { change, changes: [change], undos: [] },
            redo: 'name it "New" again',
            changedSince: false,
          },
        },
      });
      expect(asked.mode).toMatchObject({
        kind: 'undoConfirm',
        action: 'redo',
        question: {
          title: 'Redo this change?',
          text: 'The rename of “Parser work” (01.jsonl in /home/u/proj, 3 days ago): name it "New".',
        },
      });
      expect(run(asked, key('y')).effects.at(-1)).toMatchObject({
        kind: 'redo',
        request: { id: 'abcd1234', force: false },
      });
      expect(run(asked, key('escape')).status?.text).toBe('Nothing was redone');
    });

    it('nothing to undo, and journal warnings, are said in the status line', () => {
      expect(step(run(loaded(), key('ctrl+z')), { kind: 'nothing' }).status).toMatchObject({
        tone: 'info',
        text: 'Nothing to undo',
      });
      const warned = step(run(loaded(), key('ctrl+z')), {
        kind: 'nothing',
        warning: 'the journal /j cannot be read (permission denied): nothing can be undone',
      });
      expect(warned.status).toMatchObject({
        tone: 'error',
        text: 'Nothing to undo: the journal /j cannot be read (permission denied): nothing can be undone',
      });
      const failed = run(loaded(), key('ctrl+z'), {
        type: 'undoFailed',
        action: 'undo',
        error: 'nothing was undone: the delete of 01.jsonl was already undone',
      });
      expect(failed.status).toMatchObject({
        tone: 'error',
        text: 'Undo failed: nothing was undone: the delete of 01.jsonl was already undone',
      });
      expect(failed.busy).toBe(false);
      expect(failed.mode.kind).toBe('browse');
    });
  });

  it('a live session needs y, not Enter', () => {
    const live = makeInfo({ path: '/s/live.jsonl', ageMs: MIN });
    let s = run(initialPickerState({ printMode: false, columns: 100, rows: 20 }), {
      type: 'loadDone',
      scope: 'cwd',
      searched: '/x',
      skipped: 0,
      sessions: [live],
    });
    s = run(s, key('ctrl+d'));
    expect(s.mode).toMatchObject({ kind: 'confirm', needsYes: true });
    expect(run(s, key('return')).mode.kind).toBe('confirm');
    expect(run(s, key('y')).effects.at(-1)).toMatchObject({ kind: 'trash' });
  });

  it('trash unavailable: asks again, with y, for permanent deletion', () => {
    let s = run(loaded(), key('ctrl+d'), key('return'));
    s = run(s, {
      type: 'trashed',
      permanent: false,
      outcome: {
        trashed: [],
        failed: [{ path: '/s/00.jsonl', error: 'could not move to the trash: no trash dir', trashUnavailable: true }],
        changeIds: [],
      },
    });
    expect(s.mode).toMatchObject({ kind: 'confirm', permanent: true, needsYes: true, paths: ['/s/00.jsonl'] });
    expect(run(s, key('return')).mode.kind).toBe('confirm');
    s = run(s, key('y'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'trash', permanent: true, paths: ['/s/00.jsonl'] });
  });

  it('marks one by one (Ctrl+Space, Shift+↓, Insert), marks all shown (Alt+A); Ctrl+D deletes the marked after a summary', () => {
    let s = run(loaded(), key('ctrl+space'), key('shift+down'), key('insert'));
    expect([...s.marks]).toEqual(['/s/00.jsonl', '/s/01.jsonl', '/s/02.jsonl']);
    expect(s.cursor).toBe(3);
    s = run(s, key('up'), key('insert'));
    expect([...s.marks]).toEqual(['/s/00.jsonl', '/s/01.jsonl']);
    s = typeText(s, 'parser');
    s = run(s, key('meta+a'));
    expect(s.marks.size).toBe(4);
    expect(s.status?.text).toBe('Marked 2 shown sessions (4 marked in all) · Ctrl+D deletes them');
    s = run(s, key('ctrl+d'));
    expect(s.mode).toMatchObject({
      kind: 'confirm',
      paths: ['/s/00.jsonl', '/s/01.jsonl', '/s/03.jsonl', '/s/07.jsonl'],
    });
    // Nothing marked: Ctrl+D deletes the highlighted session, as in pi.
    expect(run(loaded(), key('down'), key('ctrl+d')).mode).toMatchObject({ kind: 'confirm', paths: ['/s/01.jsonl'] });
    // Ctrl+A, Ctrl+T and Ctrl+X mark nothing and delete nothing (pi's line start; the tree's filter and copy).
    const untouched = run(loaded(), key('ctrl+a'), key('ctrl+t'), key('ctrl+x'));
    expect(untouched.marks.size).toBe(0);
    expect(untouched.mode.kind).toBe('browse');
  });

  it('--print with marks: Enter prints every marked path in the order marked (fzf -m); inside pi, only the chosen one', () => {
    const marked = run(
      loaded(true),
      key('down'),
      key('down'),
      key('insert'),
      key('up'),
      key('up'),
      key('up'),
      key('insert'),
    );
    expect(run(marked, key('return')).effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'printMarked', paths: ['/s/02.jsonl', '/s/00.jsonl'] },
    });
    // Without --print, Enter resumes the highlighted session as before.
    const resumed = run(loaded(false), key('insert'), key('return'));
    expect(resumed.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/01.jsonl' });
    // Inside pi (--current), pi switches to one session: the highlighted one.
    const inPi = run(
      initialPickerState({ printMode: true, columns: 100, rows: 13, current: '/s/05.jsonl' }),
      { type: 'loadDone', scope: 'cwd', searched: '/x', skipped: 0, sessions },
      key('insert'),
      key('return'),
    );
    expect(inPi.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/01.jsonl' });
  });

  it('--current: the session pi is in is never offered for deletion, alone or in a marked batch', () => {
    const withCurrent = (): PickerState =>
      run(initialPickerState({ printMode: true, columns: 100, rows: 13, current: '/s/01.jsonl' }), {
        type: 'loadDone',
        scope: 'cwd',
        searched: '/x',
        skipped: 0,
        sessions,
      });
    let s = run(withCurrent(), key('down'), key('ctrl+d'));
    expect(s.mode.kind).toBe('browse');
    expect(s.effects.some((e) => e.kind === 'trash')).toBe(false);
    expect(s.status).toMatchObject({
      tone: 'error',
      text: 'Not deleted: the session pi is in cannot be deleted from here',
    });
    // A batch with it: the others are asked about, the current one is left out and the status says so.
    s = run(withCurrent(), key('ctrl+space'), key('ctrl+space'), key('ctrl+space'), key('ctrl+d'));
    expect(s.mode).toMatchObject({ kind: 'confirm', paths: ['/s/00.jsonl', '/s/02.jsonl'] });
    expect(s.status?.text).toBe('Skipped the current session (the session pi is in cannot be deleted from here)');
    s = run(s, key('return'));
    expect(s.effects.at(-1)).toMatchObject({ kind: 'trash', paths: ['/s/00.jsonl', '/s/02.jsonl'] });
    // Marked alone: nothing to ask.
    s = run(withCurrent(), key('down'), key('ctrl+space'), key('ctrl+d'));
    expect(s.mode.kind).toBe('browse');
    expect(s.status?.text).toMatch(/^Not deleted/);
    // Other sessions are deleted as before, and the guard survives a trip to the tree and back.
    expect(run(withCurrent(), key('ctrl+d')).mode).toMatchObject({ kind: 'confirm', paths: ['/s/00.jsonl'] });
    expect(
      run(resumePickerState(withCurrent(), { columns: 100, rows: 13 }), key('down'), key('ctrl+d')).status?.text,
    ).toMatch(/^Not deleted/);
  });

  it('--query: the picker opens with the search typed in, and it filters as soon as sessions arrive', () => {
    let s = initialPickerState({ printMode: true, columns: 100, rows: 13, query: 'parser', nowMs: NOW });
    expect(s.query).toEqual({ value: 'parser', cursor: 6 });
    s = run(s, { type: 'loadDone', scope: 'cwd', searched: '/x', skipped: 0, sessions });
    expect(s.rows.map((r) => r.info.path)).toEqual(['/s/03.jsonl', '/s/07.jsonl']);
    // The typed text goes on at the end; Esc clears it like a typed search.
    s = typeText(s, ' internals');
    expect(s.rows.map((r) => r.info.path)).toEqual(['/s/07.jsonl']);
    s = run(s, key('escape'));
    expect(s.query.value).toBe('');
    expect(s.rows).toHaveLength(30);
    // A query is input like any other: no control characters get in.
    expect(
      initialPickerState({ printMode: true, columns: 100, rows: 13, query: 'a\u001b[2Jb\n' }).query.value,
    ).not.toMatch(/[\u0000-\u001f]/);
  });

  it('Enter resumes in pi (folder checked first), or prints in --print mode; → at the end of the search opens the tree; Esc in --print exits 1; Ctrl+C 130', () => {
    const entered = run(loaded(), key('return'));
    expect(entered.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/00.jsonl', cwd: '/home/u/proj' });
    // While the folder is checked, keys wait: a second Enter must not start pi twice.
    expect(takesKeys(entered)).toBe(false);
    const checked = run(entered, {
      type: 'resumeChecked',
      path: '/s/00.jsonl',
      cwd: '/home/u/proj',
      cwdExists: true,
      here: '/elsewhere',
    });
    expect(checked.effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'resume', path: '/s/00.jsonl', cwd: '/home/u/proj' },
    });
    // --print checks the file too (a path gone since the list was drawn is never printed), then
    // prints whether or not its folder is there (the caller opens it and asks).
    const printEntered = run(loaded(true), key('return'));
    expect(printEntered.effects.at(-1)).toMatchObject({ kind: 'checkResume', path: '/s/00.jsonl' });
    expect(
      run(printEntered, {
        type: 'resumeChecked',
        path: '/s/00.jsonl',
        cwd: '/x',
        cwdExists: false,
        here: '/y',
      }).effects.at(-1),
    ).toMatchObject({ kind: 'exit', exit: { kind: 'print', path: '/s/00.jsonl' } });
    expect(run(loaded(), key('right')).effects.at(-1)).toMatchObject({ kind: 'open', path: '/s/00.jsonl' });
    expect(run(loaded(true), key('right')).effects.at(-1)).toMatchObject({ kind: 'open', path: '/s/00.jsonl' });
    // Inside the search text → moves the text cursor; at its end it opens the tree.
    const typed = run(typeText(loaded(), 'text'), key('left'));
    const moved = run(typed, key('right'));
    expect(moved.query.cursor).toBe(4);
    expect(moved.effects.some((e) => e.kind === 'open')).toBe(false);
    expect(run(moved, key('right')).effects.at(-1)).toMatchObject({ kind: 'open' });
    expect(run(loaded(true), key('escape')).effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'quit', code: 1 },
    });
    expect(run(loaded(), key('ctrl+c')).effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'quit', code: 130 },
    });
  });

  it("a missing folder asks pi's question: continue here, fork here (pi --fork), or cancel; other keys are swallowed", () => {
    const gone = {
      type: 'resumeChecked',
      path: '/s/00.jsonl',
      cwd: '/gone/proj',
      cwdExists: false,
      here: '/home/me',
    } as const;
    const asked = run(loaded(), key('return'), gone);
    expect(asked.mode.kind).toBe('missingCwd');
    expect(takesKeys(asked)).toBe(true);
    expect(asked.effects.some((e) => e.kind === 'exit')).toBe(false);
    if (asked.mode.kind !== 'missingCwd') throw new Error('no question');
    expect(asked.mode.question.menu.items.map((i) => i.label)).toEqual([
      'Continue in /home/me (pi confirms once more, and asks again next time)',
      'Fork into /home/me (new session ID, original kept)',
      'Cancel',
    ]);
    // The dialog's lines come out of the list.
    expect(asked.listLines).toBe(loaded().listLines - 5);
    expect(run(asked, key('x'), key('ctrl+d'))).toBe(asked);
    expect(run(asked, key('return')).effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'resume', path: '/s/00.jsonl', cwd: '/home/me' },
    });
    const fork = run(asked, key('down'), key('return'));
    expect(fork.effects.at(-1)).toMatchObject({
      kind: 'exit',
      exit: { kind: 'resume', path: '/s/00.jsonl', cwd: '/home/me', fork: true },
    });
    for (const cancelled of [run(asked, key('escape')), run(asked, key('up'), key('return'))]) {
      expect(cancelled.mode.kind).toBe('browse');
      expect(cancelled.status?.text).toBe('Resume cancelled');
      expect(cancelled.effects.some((e) => e.kind === 'exit')).toBe(false);
      expect(cancelled.listLines).toBe(loaded().listLines);
    }
  });

  it('the help scrolls (↑↓ PgUp PgDn Home End), other keys leave it open, Esc ? q close it', () => {
    const open = run(loaded(), key('?'));
    expect(open.mode).toEqual({ kind: 'help', offset: 0 });
    expect(run(open, key('up'))).toBe(open);
    const down = run(open, key('down'), key('down'));
    expect(down.mode).toEqual({ kind: 'help', offset: 2 });
    expect(run(down, key('x'), key('ctrl+d'), key('tab'))).toBe(down);
    const end = run(open, key('end'));
    const max = pickerHelpLines(open).length - (13 - 1 - 2 - 1);
    expect(end.mode).toEqual({ kind: 'help', offset: max });
    expect(run(end, key('pagedown'))).toBe(end);
    expect(run(end, key('pageup')).mode).toEqual({ kind: 'help', offset: max - (13 - 1 - 2 - 1 - 1) });
    expect(run(end, key('home')).mode).toEqual({ kind: 'help', offset: 0 });
    for (const close of ['escape', '?', 'q'] as const) expect(run(down, key(close)).mode.kind).toBe('browse');
  });

  it('resize re-lays out and keeps the cursor visible', () => {
    let s = run(loaded(), key('ctrl+end'));
    s = run(s, { type: 'resize', columns: 40, rows: 8 });
    expect(s.listLines).toBe(4);
    expect(s.offset).toBe(26);
  });

  it('makes every status text safe to print: errors quote file names and library messages', () => {
    const hostile = "EACCES: permission denied, open '/s/\u001b]52;c;cHduZWQ=\u0007\u001b]0;TITLE\u0007.jsonl'";
    for (const action of [
      { type: 'trashFailed', error: hostile },
      { type: 'loadFailed', scope: 'cwd', error: hostile },
      { type: 'renameFailed', path: '/s/00.jsonl', previous: undefined, error: hostile },
    ] as PickerAction[]) {
      const s = run(loaded(), action);
      expect(s.status?.text, action.type).toContain("'/s/␛]52;c;cHduZWQ=\\x07␛]0;TITLE\\x07.jsonl'");
      expect(s.status?.text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });
});
