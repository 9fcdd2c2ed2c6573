/**
 * The picker reducer: delete prompts and marks, --print, --current and --query, Enter and a missing
 * folder, the help, a resize, and status messages made safe to show.
 */
import { describe, expect, it } from 'vitest';
import { pickerHelpLines } from '../../src/picker/help.js';
import {
  initialPickerState,
  type PickerAction,
  type PickerState,
  resumePickerState,
  takesKeys,
} from '../../src/picker/reducer.js';
import { MIN, makeInfo, NOW } from './make-info.js';
import { key, loaded, run, sessions, typeText } from './reducer-fixture.js';

describe('pickerReducer: deletes, resume, help and messages', () => {
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
