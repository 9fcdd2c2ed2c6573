/**
 * pi's keybindings.json driving both screens: the reducers resolve keys through the
 * remapped keymap, and the footer, the `?` help, the prompts and the messages name the new keys.
 */
import { describe, expect, it } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { confirmLines } from '../../components/picker/PickerDialog.js';
import { TreeScreen } from '../../components/tree/TreeScreen.js';
import type { KeyName } from '../../src/keymap/keymap.js';
import { screenKeymaps } from '../../src/keymap/screen-keymaps.js';
import { key as namedKey, textKey } from '../../src/keymap/tokenize.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer } from '../../src/picker/reducer.js';
import type { SessionSource } from '../../src/picker/session-source.js';
import { buildIndex } from '../../src/tree/flatten.js';
import {
  initTreeState,
  selectedId,
  type TreeAction,
  type TreeState,
  treeKey,
  treeReducer,
} from '../../src/tree/reducer.js';
import { inputOf, menuOf } from '../../src/tree/state.js';
import { alt, ctrl, KEYS, renderInk } from '../helpers/ink.js';
import { DAY, makeInfo, NOW } from '../picker/make-info.js';
import { listingSource, renderPicker } from '../picker/picker-screen-fixture.js';
import { piSample, storeOf, treeOf } from '../tree/helpers.js';

const keymaps = (raw: Record<string, unknown>) => screenKeymaps(raw, '/agent/keybindings.json');

describe('tree reducer with a remapped keymap', () => {
  const start = (raw: Record<string, unknown>): TreeState =>
    initTreeState({
      index: buildIndex(treeOf(piSample())),
      listHeight: 10,
      width: 80,
      bindings: keymaps(raw).tree,
    });
  const run = (state: TreeState, ...names: KeyName[]): TreeState =>
    names
      .map((name): TreeAction => treeKey([...name].length === 1 ? textKey(name) : namedKey(name)))
      .reduce(treeReducer, state);

  it('the new keys move, the replaced ones no longer do (pi: a value replaces the defaults)', () => {
    const s = start({ 'tui.select.up': 'k', 'tui.select.down': ['j'] });
    expect(selectedId(s)).toBe('x1');
    expect(selectedId(run(s, 'home', 'j'))).toBe('a1');
    expect(selectedId(run(s, 'home', 'j', 'k'))).toBe('u1');
    const arrows = run(s, 'home', 'down');
    expect(selectedId(arrows)).toBe('u1');
    expect(arrows.query).toBe('');
    // The menus take pi's select keys too.
    const menu = run(s, 'return');
    expect(menu.mode.kind).toBe('menu');
    expect(menuOf(run(menu, 'j'))?.index).toBe(1);
    expect(menuOf(run(menu, 'down'))?.index).toBe(0);
  });

  it('in the label prompt a printable key bound to save is typed, one by one as in a burst', () => {
    const s = run(start({ 'tui.select.confirm': ['enter', 'q'] }), 'L');
    expect(s.mode.kind).toBe('labelInput');
    expect(inputOf(run(s, 'q'))?.value).toBe('q');
    expect(run(s, 'return').mode.kind).toBe('browse');
  });

  it('a disabled action ([]) does nothing: Shift+L types into the search instead', () => {
    const s = run(start({ 'app.tree.editLabel': [] }), 'L');
    expect(s.mode.kind).toBe('browse');
    expect(s.query).toBe('L');
  });

  it('a filter on another key; the old key is free and does nothing', () => {
    const s = start({ 'app.tree.filter.noTools': 'ctrl+y' });
    expect(run(s, 'ctrl+y').filter).toBe('no-tools');
    expect(run(s, 'ctrl+t').filter).toBe('default');
  });

  it('two actions on one key: the one the warning names is the one that runs', () => {
    const maps = keymaps({ 'app.tree.editLabel': 'ctrl+e', 'app.message.copy': 'ctrl+e' });
    expect(maps.problems).toEqual([
      '/agent/keybindings.json: Ctrl+E is set for both app.message.copy and app.tree.editLabel; app.tree.editLabel is used',
    ]);
    const s = initTreeState({
      index: buildIndex(treeOf(piSample())),
      listHeight: 10,
      width: 80,
      bindings: maps.tree,
      warning: maps.problems[0]!,
    });
    expect(s.status?.text).toContain('Ctrl+E is set for both');
    const labelling = run(s, 'ctrl+e');
    expect(labelling.mode.kind).toBe('labelInput');
    expect(labelling.status).toBeNull();
  });
});

describe('picker reducer with a remapped keymap', () => {
  const key = (name: KeyName): PickerAction => ({
    type: 'key',
    name,
    text: [...name].length === 1 ? name : '',
    paste: false,
    nowMs: NOW,
  });
  const sessions = Array.from({ length: 5 }, (_, i) => makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY }));
  const loaded = (raw: Record<string, unknown>): PickerState => {
    const s = initialPickerState({
      printMode: false,
      columns: 100,
      rows: 20,
      scope: 'cwd',
      bindings: keymaps(raw).picker,
    });
    return pickerReducer(s, { type: 'loadDone', scope: 'cwd', searched: '/x', skipped: 0, sessions });
  };
  const run = (state: PickerState, ...names: KeyName[]): PickerState => names.map(key).reduce(pickerReducer, state);

  it('delete on Ctrl+K, rename disabled, sort takes Insert from mark (Ctrl+Space still marks)', () => {
    const s = loaded({ 'app.session.delete': 'ctrl+k', 'app.session.rename': [], 'app.session.toggleSort': 'insert' });
    expect(run(s, 'ctrl+k').mode.kind).toBe('confirm');
    expect(run(s, 'ctrl+d').mode.kind).toBe('browse');
    expect(run(s, 'ctrl+r').mode.kind).toBe('browse');
    const sorted = run(s, 'insert');
    expect(sorted.sort).not.toBe(s.sort);
    expect(sorted.marks.size).toBe(0);
    expect(run(s, 'ctrl+space').marks.size).toBe(1);
  });

  it("the delete prompt confirms and cancels with pi's select keys", () => {
    const s = run(loaded({ 'tui.select.confirm': ['ctrl+o'], 'tui.select.cancel': 'ctrl+q' }), 'ctrl+d');
    expect(run(s, 'return').mode.kind).toBe('confirm');
    expect(run(s, 'escape').mode.kind).toBe('confirm');
    expect(run(s, 'ctrl+q').mode.kind).toBe('browse');
    const confirmed = run(s, 'ctrl+o');
    expect(confirmed.effects.map((e) => e.kind)).toContain('trash');
  });

  it('a printable key remapped acts while the search is empty, and is typed once it has text', () => {
    const s = loaded({ 'tui.select.down': 'j' });
    expect(run(s, 'j').cursor).toBe(1);
    expect(run(s, 'j').query.value).toBe('');
    expect(run(s, 'x', 'j').query.value).toBe('xj');
    // The same keys as one burst of text mean the same.
    const burst = pickerReducer(s, { type: 'key', name: undefined, text: 'xj', paste: false, nowMs: NOW });
    expect(burst.query.value).toBe('xj');
    // In the rename field every printable key types, even one bound to save.
    const renaming = run(loaded({ 'inputOf(tui)?.submit': 'q' }), 'ctrl+r');
    expect(run(renaming, 'q').mode.kind).toBe('rename');
  });

  it('messages name the keys in effect when a remap took ours', () => {
    const s = loaded({
      'app.session.delete': 'ctrl+k',
      'pi-sessions.markAll': 'alt+m',
      'app.session.rename': 'ctrl+z',
    });
    expect(run(s, 'meta+a').marks.size).toBe(0);
    expect(run(s, 'meta+m').status?.text).toBe('Marked 5 shown sessions (5 marked in all) · Ctrl+K deletes them');
    const lines = confirmLines(
      { kind: 'confirm', paths: ['/s/0.jsonl'], permanent: false, needsYes: false },
      [sessions[0]!],
      new Set(),
      NOW,
      s.bindings,
    );
    expect(lines.how).toBe('It will be moved to the trash.');
    expect(lines.keys).toBe('Enter delete · Esc cancel');
  });

  it('a warning opens the picker in the status line', () => {
    const s = initialPickerState({
      printMode: false,
      columns: 100,
      rows: 20,
      warning: '/agent/keybindings.json: not valid JSON, ignored',
    });
    expect(s.status).toMatchObject({ text: '/agent/keybindings.json: not valid JSON, ignored', tone: 'error' });
  });
});

function pickerSource(): SessionSource {
  const sessions = Array.from({ length: 5 }, (_, i) =>
    makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY, firstMessage: `item ${i};` }),
  );
  return listingSource(sessions, {
    rename: async (_path, name) => ({ name }),
    trash: async () => ({ trashed: [], failed: [], changeIds: [] }),
    undoStep: async () => ({ kind: 'nothing' }),
    redoStep: async () => ({ kind: 'nothing' }),
    planSlim: async () => {
      throw new Error('not in this test');
    },
    slim: async () => {
      throw new Error('not in this test');
    },
    preview: async () => ({ turns: [] }),
  } satisfies Omit<SessionSource, 'list'>);
}

describe('the screens name the remapped keys', () => {
  it('picker: footer, delete prompt, rename prompt and help', async () => {
    const maps = keymaps({
      'app.session.delete': 'ctrl+k',
      'app.session.rename': 'alt+r',
      'tui.select.cancel': 'ctrl+q',
      'app.session.toggleNamedFilter': [],
    });
    const { app } = renderPicker(pickerSource(), { columns: 160, rows: 24, bindings: maps.picker });
    const first = await app.waitFor('item 0;');
    const footer = first.trimEnd().split('\n').at(-1)!;
    expect(footer).toContain('Ctrl+K delete');
    expect(footer).toContain('Alt+R rename');
    expect(footer).not.toContain('Ctrl+D');
    // toggleNamedFilter is disabled: no hint for it.
    expect(footer).not.toContain('named');
    await app.settle();
    await app.press(ctrl('k'));
    const prompt = await app.waitFor('Delete this session?');
    expect(prompt).toContain('Enter delete · Ctrl+Q cancel');
    await app.press(ctrl('q'));
    await app.waitFor((f) => !f.includes('Delete this session?'));
    await app.press(alt('r'));
    // The prompt's keys are the footer's hints (not said twice), remapped as pi's keybindings say.
    expect(await app.waitFor('Rename “')).toMatch(/Enter save\s+Ctrl\+Q cancel/);
    await app.press(ctrl('q'));
    await app.waitFor((f) => !f.includes('Rename “'));
    await app.press('?');
    const help = await app.waitFor('pi-sessions · keys');
    expect(help).toMatch(/Ctrl\+K\s+Delete the marked sessions/);
    expect(help).toMatch(/Alt\+R\s+Rename the session/);
    app.unmount();
  });

  it('tree: footer, menu hints, help, and the warning until the first key', async () => {
    const maps = keymaps({
      'tui.select.up': 'k',
      'tui.select.down': 'j',
      'app.tree.editLabel': 'ctrl+e',
      'app.tree.filter.cycleForward': 'super+o',
    });
    expect(maps.problems).toHaveLength(1);
    const app = renderInk(
      <InputRouter>
        <TreeScreen
          path="/tmp/test.jsonl"
          store={storeOf(piSample())}
          live={false}
          onBack={() => {}}
          onExit={() => {}}
          bindings={maps.tree}
          warning={maps.problems[0]!}
        />
      </InputRouter>,
      { columns: 140, rows: 30 },
    );
    const first = await app.waitFor('approach A please');
    expect(first).toContain('super+o cannot be told apart');
    await app.settle();
    await app.press('k');
    const moved = await app.waitFor('k/j move');
    expect(moved).toContain('Ctrl+E label');
    expect(moved).not.toContain('cannot be told apart');
    // Ctrl+O was cycleForward's only key and the new one cannot be received: no filter hint.
    expect(moved).not.toContain('filter');
    await app.press(KEYS.enter);
    const menu = await app.waitFor('j choose');
    expect(menu).toContain('Enter select');
    await app.press(KEYS.escape);
    await app.waitFor('k/j move');
    await app.press('?');
    const help = await app.waitFor('Tree navigator keys');
    expect(help).toMatch(/Ctrl\+E\s+Label the selected entry/);
    expect(help).toMatch(/\bk\s+Move up/);
    app.unmount();
  });

  it('tree: the error screen says and takes the remapped back key', async () => {
    const maps = keymaps({ 'tui.select.cancel': 'ctrl+q' });
    let backs = 0;
    const store = {
      ...storeOf(piSample()),
      readSession: async () => ({
        ok: false as const,
        path: '/tmp/test.jsonl',
        reason: 'not-found' as const,
        message: 'gone',
      }),
    };
    const app = renderInk(
      <InputRouter>
        <TreeScreen
          path="/tmp/test.jsonl"
          store={store}
          live={false}
          onBack={() => backs++}
          onExit={() => {}}
          bindings={maps.tree}
        />
      </InputRouter>,
      { columns: 100, rows: 10 },
    );
    // A file not found where the list saw it: said as gone, not as a failure to read it.
    expect(await app.waitFor('/tmp/test.jsonl was deleted or moved since the list was drawn')).toContain(
      'Ctrl+Q back · Ctrl+C quit',
    );
    await app.settle();
    await app.press(KEYS.escape);
    await app.settle();
    expect(backs).toBe(0);
    await app.press(ctrl('q'));
    await app.settle();
    expect(backs).toBe(1);
    app.unmount();
  });
});
