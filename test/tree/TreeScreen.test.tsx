import { describe, expect, test, vi } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { type TreeExit, TreeScreen, type TreeStore } from '../../components/tree/TreeScreen.js';
import type { UndoRequest, UndoStep } from '../../src/store/undo/undo.js';
import { ctrl, KEYS, renderInk } from '../helpers/ink.js';
import { piSample, sessionOf } from './helpers.js';

interface Calls {
  labels: [string, string | undefined][];
  branches: [string, string | undefined][];
  forks: string[];
  /** The `confirmed` of each undoStep call ('' when none). */
  undos: string[];
}

const RECORD = {
  kind: 'rename',
  path: '/s/other.jsonl',
  time: '2026-02-05T11:00:00Z',
  id: 'abcd1234',
  after: { size: 1, mtimeMs: 1, ino: 1 },
  entryId: 'e1',
  previousName: 'Old',
} as const;

/** The fake journal: its latest change (made elsewhere) was written over by pi, so Ctrl+Z asks; the answer undoes it by id, forced. */
async function fakeUndo(calls: Calls, request: UndoRequest): Promise<UndoStep> {
  calls.undos.push(
    'look' in request ? 'look' : 'id' in request ? `${request.id}${request.force ? ' force' : ''}` : 'skip',
  );
  const undo = 'name it "Old" again';
  if (!('id' in request)) return { kind: 'ask', entry: { record: RECORD, batch: [RECORD], undo, changedSince: true } };
  return { kind: 'done', outcome: { record: RECORD, batch: [RECORD], undo } };
}

function fakeStore(calls: Calls): TreeStore {
  return {
    readSession: async () => sessionOf(piSample()),
    setLabel: async (_path, id, label) => {
      calls.labels.push([id, label]);
      return { entryId: 'new' };
    },
    branchInPlace: async (_path, id, options) => {
      calls.branches.push([id, options?.summary]);
      // pi's rule: a user message → its parent.
      return id === 'uB' ? { leafId: 'a1', editorText: 'Actually approach B' } : { leafId: id };
    },
    forkSession: async (_path, id) => {
      calls.forks.push(id ?? '');
      return { path: '/tmp/forked.jsonl' };
    },
    undoStep: (_scope, request) => fakeUndo(calls, request),
    redoStep: async () => ({ kind: 'nothing' }),
  };
}

function mount(columns = 100, rows = 30) {
  const calls: Calls = { labels: [], branches: [], forks: [], undos: [] };
  const exits: TreeExit[] = [];
  let backs = 0;
  const app = renderInk(
    <InputRouter>
      <TreeScreen
        path="/tmp/test.jsonl"
        store={fakeStore(calls)}
        live={false}
        onBack={() => backs++}
        onExit={(r) => exits.push(r)}
        now={() => Date.parse('2026-02-05T12:00:00Z')}
      />
    </InputRouter>,
    { columns, rows },
  );
  // Input handlers subscribe in effects that run just after the first frame is written.
  const ready = async (): Promise<void> => {
    await app.waitFor('approach A please');
    await app.settle();
  };
  return { app, calls, exits, backs: () => backs, ready };
}

describe('TreeScreen', () => {
  test('a label made but not journalled says so in the status line', async () => {
    const calls: Calls = { labels: [], branches: [], forks: [], undos: [] };
    const warning =
      'the change was made but not recorded in the journal (/j: permission denied), so it cannot be undone with pi-sessions undo';
    const store: TreeStore = {
      ...fakeStore(calls),
      setLabel: async () => ({ entryId: 'new', journalWarning: warning }),
    };
    const app = renderInk(
      <InputRouter>
        <TreeScreen
          path="/tmp/test.jsonl"
          store={store}
          live={false}
          onBack={() => undefined}
          onExit={() => undefined}
          now={() => Date.parse('2026-02-05T12:00:00Z')}
        />
      </InputRouter>,
      { columns: 200, rows: 30 },
    );
    await app.waitFor('approach A please');
    await app.settle();
    await app.type('L');
    await app.waitFor('Label (empty to remove):');
    await app.type('x');
    await app.press(KEYS.enter);
    await app.waitFor('the change was made but not recorded in the journal');
  });

  test('Ctrl+Z undoes the journal’s latest change: asked first when pi wrote since; n keeps it, y undoes it', async () => {
    const { app, calls, ready } = mount();
    await ready();
    await app.press(ctrl('z'));
    let frame = await app.waitFor('Undo a change pi has written after?');
    expect(frame).toContain('The rename of other.jsonl (');
    expect(frame.replace(/\u001b\[[0-9;]*m/g, '')).toContain('name it "Old". pi has written to it since; its later');
    expect(frame).toMatch(/y undo anyway.*Esc keep it/);
    await app.type('x'); // swallowed: a stray key decides nothing
    await app.type('n');
    await app.waitFor('Nothing was undone');
    expect(calls.undos).toEqual(['look']);
    await app.press(ctrl('z'));
    await app.waitFor('undo anyway');
    await app.type('y');
    frame = await app.waitFor('Undid the rename of other.jsonl (');
    expect(calls.undos).toEqual(['look', 'look', `${RECORD.id} force`]);
  });

  test('a label made here is its own (sent with the look); a change that cannot be undone offers s to skip it; Ctrl+Y asks, then redoes', async () => {
    const requests: unknown[] = [];
    const redos: unknown[] = [];
    const calls: Calls = { labels: [], branches: [], forks: [], undos: [] };
    const blocked = 'it is no longer in the trash: the trash was emptied';
    const deleted = {
      kind: 'delete',
      path: '/s/gone.jsonl',
      time: '2026-02-05T11:00:00Z',
      id: 'dead0001',
      how: 'trash',
      trashedPath: '/t/gone.jsonl',
      infoPath: null,
    } as const;
    const store: TreeStore = {
      ...fakeStore(calls),
      setLabel: async () => ({ entryId: 'new', changeId: 'feed0001' }),
      undoStep: async (_scope, request) => {
        requests.push(request);
        if ('skip' in request) return { kind: 'skipped', outcome: { record: deleted, batch: [deleted], why: blocked } };
        return {
          kind: 'ask',
          entry: { record: deleted, batch: [deleted], undo: 'restore it from the trash', changedSince: false, blocked },
        };
      },
      redoStep: async (_scope, request) => {
        redos.push(request);
        const change = { ...RECORD, name: 'New' };
        if ('id' in request)
          return {
            kind: 'done',
            outcome: { change, changes: [change], redo: 'name it "New" again', changeIds: ['beef0002'] },
          };
        return {
          kind: 'ask',
          entry: {
            candidate: { change, changes: [change], undos: [] },
            redo: 'name it "New" again',
            changedSince: false,
          },
        };
      },
    };
    const app = renderInk(
      <InputRouter>
        <TreeScreen
          path="/tmp/test.jsonl"
          store={store}
          live={false}
          onBack={() => undefined}
          onExit={() => undefined}
          now={() => Date.parse('2026-02-05T12:00:00Z')}
        />
      </InputRouter>,
      { columns: 120, rows: 30 },
    );
    await app.waitFor('approach A please');
    await app.settle();
    await app.type('L');
    await app.waitFor('Label (empty to remove):');
    await app.type('x');
    await app.press(KEYS.enter);
    await app.waitFor('Labeled [x]');
    await app.press(ctrl('z'));
    await app.waitFor('This change cannot be undone');
    expect(requests[0]).toEqual({ look: true, own: ['feed0001'] });
    const frame = await app.waitFor('s skip it (older changes become reachable)');
    expect(frame).toContain(blocked);
    await app.type('y'); // nothing to say yes to
    await app.type('s');
    await app.waitFor(/Skipped the delete of gone\.jsonl .*, which cannot be undone/);
    expect(requests[1]).toEqual({ skip: 'dead0001' });
    await app.press(ctrl('y'));
    await app.waitFor('Redo this change?');
    await app.type('y');
    await app.waitFor('Redid the rename of other.jsonl');
    expect(redos).toEqual([
      { look: true, own: ['feed0001'] },
      { id: 'abcd1234', force: false },
    ]);
  });

  test('draws pi’s layout with the active path, the leaf marker and the cursor on the leaf', async () => {
    const { app } = mount();
    const frame = await app.waitFor('approach A please');
    expect(frame).toContain('  • user: Hello, can you help me');
    expect(frame).toContain('  ├⊟ • [checkpoint] user: approach A please');
    expect(frame).toContain('  │     • [read: /home/me/src/a.ts:10-29]');
    expect(frame).toContain('› │     ◆ [ext]: hello from ext');
    expect(frame).toContain('  └⊟ user: Actually approach B');
    expect(frame).toContain('        └─ [branch summary]: Tried approach A; it worked.');
    expect(frame).toContain('(10/17)');
  });

  test('Ctrl+← on a branch head folds it; Ctrl+→ unfolds', async () => {
    const { app, ready } = mount();
    await ready();
    await app.press(KEYS.ctrlLeft); // to the segment start (branch A's head)
    await app.waitFor('› ├⊟ • [checkpoint] user: approach A please');
    await app.press(KEYS.ctrlLeft); // fold it
    const folded = await app.waitFor('› ├⊞ • [checkpoint]');
    expect(folded).not.toContain('[read:');
    await app.press(KEYS.ctrlRight);
    await app.waitFor((f) => f.includes('├⊟') && f.includes('[read:'));
  });

  test('the user-only filter re-lays out on the visible nodes and keeps the tree', async () => {
    const { app, ready } = mount();
    await ready();
    await app.press(ctrl('u'));
    const frame = await app.waitFor('[user]');
    expect(frame).not.toContain('assistant:');
    // Under user-only, "approach A" and "Actually approach B" are siblings under the root user.
    expect(frame).toContain('├⊟ • [checkpoint] user: approach A please');
    expect(frame).toContain('└⊟ user: Actually approach B');
  });

  test('search over the whole text: matches counted, Esc clears, a second Esc goes back', async () => {
    const { app, backs, ready } = mount();
    await ready();
    await app.type('B.');
    const frame = await app.waitFor('Search: B.');
    expect(frame).toMatch(/4 matches/);
    // Structural ancestors stay (the root, the branch point) so the result is still a tree.
    expect(frame).toContain('user: Hello');
    expect(frame).not.toContain('approach A please');
    await app.press(KEYS.escape);
    await app.waitFor('Type to search');
    expect(backs()).toBe(0);
    await app.press(KEYS.escape);
    // A lone Esc counts once the tokenizer's ESC timeout has passed.
    await app.waitFor(() => backs() === 1);
  });

  test('uppercase L types into a query; with an empty query Shift+L opens the label prompt', async () => {
    const { app, calls, ready } = mount();
    await ready();
    await app.type('xL');
    await app.waitFor('Search: xL');
    await app.press(KEYS.escape);
    await app.waitFor('Type to search');
    await app.press(KEYS.up); // the custom message's parent: assistant "Great"
    await app.type('L');
    await app.waitFor('Label (empty to remove):');
    await app.type('done');
    await app.press(KEYS.enter);
    await app.settle();
    expect(calls.labels).toEqual([['aA2', 'done']]);
  });

  test('Enter → Resume from here moves the leaf marker at once and shows the text to re-send', async () => {
    const { app, calls, ready } = mount();
    await ready();
    // Go to "Actually approach B".
    await app.press(KEYS.down);
    await app.waitFor('› └⊟ user: Actually approach B');
    await app.press(KEYS.enter);
    await app.waitFor('Resume from here');
    await app.settle();
    await app.press(KEYS.enter);
    const frame = await app.waitFor('pi resumes before this message');
    expect(frame).toContain('Actually approach B');
    expect(calls.branches).toEqual([['uB', undefined]]);
    await app.press(KEYS.escape);
    const list = await app.waitFor('◆ assistant: Of course!');
    expect(list).not.toContain('◆ [ext]');
  });

  test('resize shrinks the list and keeps the cursor row visible', async () => {
    const { app } = mount(100, 30);
    await app.waitFor('hello from ext');
    app.resize(40, 10);
    const frame = await app.waitFor((f) => f.split('\n').length <= 9 && f.includes('›'));
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(frame).toMatch(/› .*…|› .*ext/);
  });

  test('a menu burst in one read: Enter, three Downs, Enter opens the label prompt; 40 Backspaces in one read empty it', async () => {
    const { app, calls, ready } = mount();
    await ready();
    await app.write(
      `${KEYS.home}${KEYS.down}${KEYS.down}${KEYS.enter}${KEYS.down}${KEYS.down}${KEYS.down}${KEYS.enter}`,
    );
    await app.waitFor('Label (empty to remove): checkpoint');
    await app.write(KEYS.backspace.repeat(40));
    await app.waitFor((f) => /Label \(empty to remove\): *$/m.test(f));
    await app.write('kept\r');
    await app.waitFor('Type to search');
    await vi.waitFor(() => expect(calls.labels).toEqual([['uA', 'kept']]));
  });

  test('keys typed while the session loads reach the tree once it is shown', async () => {
    const { app } = mount();
    await app.write('Great');
    await app.waitFor('Search: Great');
  });

  describe('Esc and Ctrl+C while the session loads', () => {
    /** The tree over a session that loads only when `load()` is called. */
    function mountLoading() {
      let load = (): void => undefined;
      const loaded = new Promise<void>((resolve) => (load = resolve));
      const store: TreeStore = {
        ...fakeStore({ labels: [], branches: [], forks: [], undos: [] }),
        readSession: async () => {
          await loaded;
          return sessionOf(piSample());
        },
      };
      const exits: TreeExit[] = [];
      let backs = 0;
      const app = renderInk(
        <InputRouter>
          <TreeScreen
            path="/tmp/test.jsonl"
            store={store}
            live={false}
            onBack={() => backs++}
            onExit={(r) => exits.push(r)}
          />
        </InputRouter>,
        { columns: 100, rows: 30 },
      );
      return { app, exits, backs: () => backs, load };
    }

    test('an Esc with no key waiting before it goes back at once', async () => {
      const { app, backs } = mountLoading();
      await app.waitFor('Loading /tmp/test.jsonl');
      await app.settle();
      await app.press(KEYS.escape);
      await vi.waitFor(() => expect(backs()).toBe(1));
    });

    test('an Esc after keys that wait is the tree’s: it clears their search, as on a machine that has loaded already', async () => {
      const { app, backs, load } = mountLoading();
      await app.waitFor('Loading /tmp/test.jsonl');
      await app.settle();
      await app.write('approach');
      // Esc as the kitty keyboard protocol sends it: a whole key at once, with no lone-ESC wait,
      // so it has surely reached the loading screen when the session is then loaded.
      await app.write('\u001b[27u');
      await app.write('please');
      await app.settle();
      expect(backs()).toBe(0);
      expect(app.lastFrame()).toContain('Loading /tmp/test.jsonl');
      load();
      // "approach" searched, Esc cleared it, "please" searched: every key, in order.
      await app.waitFor('Search: please');
      await app.settle();
      expect(app.lastFrame()).not.toContain('approach please');
      expect(backs()).toBe(0);
    });

    test('Ctrl+C quits at once, even after keys that wait', async () => {
      const { app, exits } = mountLoading();
      await app.waitFor('Loading /tmp/test.jsonl');
      await app.settle();
      await app.write('approach');
      await app.press(ctrl('c'));
      await vi.waitFor(() => expect(exits).toEqual([{ kind: 'quit', code: 130 }]));
    });
  });
});
