/** The picker reducer: slim (Alt+S) and the journal's undo and redo (Ctrl+Z, Ctrl+Y), each said first. */
import { describe, expect, it } from 'vitest';
import { initialPickerState, type PickerAction, type PickerState } from '../../src/picker/reducer.js';
import { DAY, MIN, makeInfo, NOW } from './make-info.js';
import { key, loaded, run, sessions } from './reducer-fixture.js';

describe('pickerReducer: slim, undo and redo', () => {
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
});
