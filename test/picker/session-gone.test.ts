/**
 * A listed session whose file was deleted or moved since the list was drawn: the picker's reducer
 * says so, drops the row and lists again; the store effects never act on it, and a failure on a
 * file that turned out to be gone is said as gone, not as a failed write.
 */
import { describe, expect, it, vi } from 'vitest';
import { runStoreEffect } from '../../components/picker/store-effects.js';
import type { KeyName } from '../../src/keymap/keymap.js';
import {
  initialPickerState,
  type PickerAction,
  type PickerState,
  pickerReducer,
  selectedRow,
  takesKeys,
} from '../../src/picker/reducer.js';
import type { SessionSource } from '../../src/picker/session-source.js';
import { goneMessage } from '../../src/state/session-gone.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { DAY, makeInfo, NOW } from './make-info.js';

const key = (name: KeyName): PickerAction => ({ type: 'key', name, text: '', paste: false, nowMs: NOW });
const run = (state: PickerState, ...actions: PickerAction[]): PickerState => actions.reduce(pickerReducer, state);
const sessions = [0, 1, 2].map((i) => makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY }));
const ADVICE = 'was deleted or moved since the list was drawn';

function loaded(): PickerState {
  const s = initialPickerState({ printMode: false, columns: 100, rows: 13, scope: 'cwd' });
  return run(s, { type: 'loadDone', scope: 'cwd', searched: '/sessions', skipped: 0, sessions });
}

describe('a session gone since the list was drawn', () => {
  it('Enter that finds it gone: says so, drops the row (cursor on the next), takes keys again, lists again', () => {
    const entered = run(loaded(), key('return'));
    expect(takesKeys(entered)).toBe(false);
    const s = run(entered, { type: 'sessionGone', paths: ['/s/0.jsonl'] });
    expect(s.status).toMatchObject({ tone: 'error', text: `/s/0.jsonl ${ADVICE}` });
    expect(s.rows.map((r) => r.info.path)).toEqual(['/s/1.jsonl', '/s/2.jsonl']);
    expect(selectedRow(s)?.info.path).toBe('/s/1.jsonl');
    expect(takesKeys(s)).toBe(true);
    expect(s.effects.at(-1)).toMatchObject({ kind: 'load', scope: 'cwd' });
    // No exit was queued: pi is never started on it.
    expect(s.effects.some((e) => e.kind === 'exit')).toBe(false);
  });

  it('closes a dialog about it (rename), keeps one about another session, and unmarks it', () => {
    const renaming = run(loaded(), key('ctrl+r'));
    expect(renaming.mode.kind).toBe('rename');
    expect(run(renaming, { type: 'sessionGone', paths: ['/s/0.jsonl'] }).mode.kind).toBe('browse');
    expect(run(renaming, { type: 'sessionGone', paths: ['/s/2.jsonl'] }).mode.kind).toBe('rename');
    const marked = run(loaded(), key('ctrl+space'));
    expect(marked.marks.has('/s/0.jsonl')).toBe(true);
    expect(run(marked, { type: 'sessionGone', paths: ['/s/0.jsonl'] }).marks.size).toBe(0);
  });

  it('a delete of several of which some were gone: the others are trashed, the gone ones said and dropped', () => {
    const item = { path: '/s/1.jsonl', how: 'trash' as const, trashedPath: '/t/1.jsonl' };
    const s = run(loaded(), {
      type: 'trashed',
      permanent: false,
      outcome: { trashed: [item], failed: [], changeIds: [] },
      gone: ['/s/0.jsonl'],
    });
    expect(s.rows.map((r) => r.info.path)).toEqual(['/s/2.jsonl']);
    expect(s.status?.text).toMatch(
      /^Moved 1 session to the trash; 1 other was deleted or moved since the list was drawn/,
    );
    // All of them gone: the gone message itself.
    const allGone = run(loaded(), {
      type: 'trashed',
      permanent: false,
      outcome: { trashed: [], failed: [], changeIds: [] },
      gone: ['/s/0.jsonl', '/s/1.jsonl'],
    });
    expect(allGone.status?.text).toBe('/s/0.jsonl (and 1 more) were deleted or moved since the list was drawn');
  });
});

/** A source whose files are gone when `gone` says so; every store call recorded. */
function fakeSource(gone: (path: string) => boolean, over: Partial<SessionSource> = {}) {
  const calls: string[] = [];
  const source = {
    list: vi.fn(),
    rename: async (path: string) => {
      calls.push(`rename ${path}`);
      return { name: 'x' };
    },
    trash: async (paths: string[]) => {
      calls.push(`trash ${paths.join(',')}`);
      return {
        trashed: paths.map((path) => ({ path, how: 'trash' as const, trashedPath: `/t${path}` })),
        failed: [],
        changeIds: [],
      };
    },
    undoStep: vi.fn(),
    planSlim: async (path: string) => {
      calls.push(`planSlim ${path}`);
      throw new Error('unused');
    },
    slim: async (path: string) => {
      calls.push(`slim ${path}`);
      throw new Error('unused');
    },
    preview: vi.fn(),
    isGone: gone,
    ...over,
  } as unknown as SessionSource;
  return { source, calls };
}

async function effectActions(source: SessionSource, effect: Parameters<typeof runStoreEffect>[1]) {
  const actions: PickerAction[] = [];
  runStoreEffect(
    source,
    effect,
    (a) => actions.push(a),
    () => NOW,
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  return actions;
}

describe('store effects on a session gone since the list was drawn', () => {
  const gone = (path: string) => path === '/s/0.jsonl';

  it('rename, slim and its measure never reach the store: the session is said to be gone', async () => {
    for (const effect of [
      { id: 1, kind: 'rename', path: '/s/0.jsonl', name: 'x', previous: undefined },
      { id: 2, kind: 'planSlim', path: '/s/0.jsonl' },
      { id: 3, kind: 'slim', path: '/s/0.jsonl' },
    ] as const) {
      const { source, calls } = fakeSource(gone);
      expect(await effectActions(source, effect)).toEqual([{ type: 'sessionGone', paths: ['/s/0.jsonl'] }]);
      expect(calls).toEqual([]);
    }
  });

  it('a rename that fails because the file went meanwhile says gone, not "Rename failed"', async () => {
    let there = true;
    const { source } = fakeSource(() => !there, {
      rename: async () => {
        there = false;
        throw new Error('/s/0.jsonl: no such session file');
      },
    });
    const actions = await effectActions(source, {
      id: 1,
      kind: 'rename',
      path: '/s/0.jsonl',
      name: 'x',
      previous: undefined,
    });
    expect(actions).toEqual([{ type: 'sessionGone', paths: ['/s/0.jsonl'] }]);
    // A failure on a file still there is a failure.
    const { source: full } = fakeSource(() => false, {
      rename: async () => {
        throw new Error('disk full');
      },
    });
    const failed = await effectActions(full, {
      id: 1,
      kind: 'rename',
      path: '/s/0.jsonl',
      name: 'x',
      previous: undefined,
    });
    expect(failed).toMatchObject([{ type: 'renameFailed', error: 'disk full' }]);
  });

  it('a delete trashes only the files still there and carries the gone ones', async () => {
    const { source, calls } = fakeSource(gone);
    const actions = await effectActions(source, {
      id: 1,
      kind: 'trash',
      paths: ['/s/0.jsonl', '/s/1.jsonl'],
      permanent: false,
    });
    expect(calls).toEqual(['trash /s/1.jsonl']);
    expect(actions).toMatchObject([{ type: 'trashed', gone: ['/s/0.jsonl'], outcome: { failed: [] } }]);
    const { source: allGone, calls: none } = fakeSource(() => true);
    expect(await effectActions(allGone, { id: 1, kind: 'trash', paths: ['/s/0.jsonl'], permanent: false })).toEqual([
      { type: 'sessionGone', paths: ['/s/0.jsonl'] },
    ]);
    expect(none).toEqual([]);
  });
});

describe('goneMessage', () => {
  it('keeps the file name and the advice whole, whatever the length of the folder', () => {
    const path = `/tmp/${'t'.repeat(150)}/agent/sessions/--tmp-proj--/2026-01-05T09-00-00-000Z_abc.jsonl`;
    for (const columns of [60, 80, 120, 200]) {
      const message = goneMessage([path], columns);
      expect(displayWidth(`✗ ${message}`)).toBeLessThanOrEqual(columns);
      // Room for the name: whole after the cut; too narrow for it: its end (the id and extension).
      expect(message, String(columns)).toMatch(
        columns >= 100
          ? /^\/tmp\/t+…\/2026-01-05T09-00-00-000Z_abc\.jsonl was deleted or moved since the list was drawn$/
          : /^…[-\dTZ]*_abc\.jsonl was deleted or moved since the list was drawn$/,
      );
    }
    expect(goneMessage([path], 400)).toBe(`${path} ${ADVICE}`);
    expect(goneMessage(['/a.jsonl', '/b.jsonl', '/c.jsonl'], 100)).toBe(
      '/a.jsonl (and 2 more) were deleted or moved since the list was drawn',
    );
    expect(goneMessage(['/a.jsonl'], 100, 'it was opened')).toBe('/a.jsonl was deleted or moved since it was opened');
  });

  it('escapes a hostile name', () => {
    expect(goneMessage(['/s/\u001b]0;T\u0007.jsonl'], 100)).toBe(`/s/␛]0;T\\x07.jsonl ${ADVICE}`);
  });
});
