/**
 * pi's keybindings.json driving the stats, check and labels screens: each reducer resolves keys
 * through the remapped keymap kept in its state (the replaced keys do nothing, as pi's rule says:
 * a configured value replaces the action's defaults), and the footer names the new key.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { LabelsScreen } from '../../components/labels/LabelsScreen.js';
import { type CheckAction, type CheckState, checkReducer, initialCheckState } from '../../src/check/reducer.js';
import type { KeyName } from '../../src/keymap/keymap.js';
import { screenKeymaps } from '../../src/keymap/screen-keymaps.js';
import {
  initLabelsState,
  type LabelsAction,
  type LabelsState,
  labelsReducer,
  selectedLabel,
} from '../../src/labels/reducer.js';
import type { LabelRow } from '../../src/labels/rows.js';
import { statsReducer } from '../../src/stats/reducer.js';
import { initStatsState, type StatsScreenState } from '../../src/stats/screen-state.js';
import { checkFile, type LoadedSession, statsOf } from '../../src/store/index.js';
import { readSessionFromBuffer } from '../../src/store/read/read.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { ctrl, KEYS, renderInk } from '../helpers/ink.js';

const keymaps = (raw: Record<string, unknown>) => screenKeymaps(raw, '/agent/keybindings.json');

function session(i: number): SessionBuilder {
  const b = new SessionBuilder({ cwd: `/home/dev/p${i}`, startMs: new Date(2026, 0, 1 + i, 9).getTime() });
  b.user(`task ${i}`);
  b.assistant('done', { tokens: 100, cost: 0.1 });
  return b;
}

describe('stats reducer with a remapped keymap', () => {
  const loaded = (raw: Record<string, unknown>): StatsScreenState => {
    const sessions = Array.from({ length: 6 }, (_, i): LoadedSession => {
      const read = readSessionFromBuffer(`/s/${i}.jsonl`, Buffer.from(session(i).text()));
      if (!read.ok) throw new Error(read.message);
      return read;
    });
    return statsReducer(initStatsState({ columns: 80, viewLines: 5 }, keymaps(raw).stats), {
      type: 'loaded',
      report: statsOf(sessions, {}, '/s'),
    });
  };
  const key = (state: StatsScreenState, name: KeyName): StatsScreenState => statsReducer(state, { type: 'key', name });

  it('tui.select.down on n scrolls; ↓ and j (the binding’s old keys) no longer do; Esc still goes back', () => {
    const s = loaded({ 'tui.select.down': 'n' });
    expect(key(s, 'n').offset).toBe(1);
    expect(key(s, 'down').offset).toBe(0);
    expect(key(s, 'j').offset).toBe(0);
    expect(key(s, 'escape').leaving).toEqual({ kind: 'back' });
  });

  it('tui.select.cancel on Ctrl+Q leaves; Esc and q no longer do', () => {
    const s = loaded({ 'tui.select.cancel': 'ctrl+q' });
    expect(key(s, 'ctrl+q').leaving).toEqual({ kind: 'back' });
    expect(key(s, 'escape').leaving).toBeUndefined();
    expect(key(s, 'q').leaving).toBeUndefined();
  });
});

describe('check reducer with a remapped keymap', () => {
  const key = (name: KeyName): CheckAction => ({ type: 'key', name });
  const loaded = (raw: Record<string, unknown>): CheckState => {
    const dir = tempDir();
    const files = [0, 1, 2].map((i) => checkFile(session(i).writeTo(join(dir, `${i}.jsonl`))));
    return checkReducer(initialCheckState(40, keymaps(raw).check), {
      type: 'report',
      report: { searched: dir, files },
    });
  };

  it('tui.select.down on n moves to the next file, ↓ does nothing; tui.select.confirm on o opens, Enter does not', () => {
    const s = loaded({ 'tui.select.down': 'n', 'tui.select.confirm': 'o' });
    expect(checkReducer(s, key('n')).cursor).toBe(1);
    expect(checkReducer(s, key('down')).cursor).toBe(0);
    expect(checkReducer(s, key('return')).effects).toEqual([]);
    expect(checkReducer(s, key('o')).effects).toEqual([{ id: 1, kind: 'open', path: s.view.files[0]!.path }]);
  });
});

function row(n: number, label: string, text: string): LabelRow {
  return {
    label,
    time: `2026-02-05T0${n}:00:00.000Z`,
    entryId: `e${n}`,
    entryType: 'message',
    copiedFrom: null,
    text,
    session: { id: `s${n}`, name: null, title: `session ${n}`, path: `/s/${n}.jsonl`, cwd: `/home/u/p${n}` },
  };
}
const ROWS = [row(3, 'bug', 'crash in the lexer'), row(2, 'idea', 'cache the tokens'), row(1, 'done', 'it works')];

describe('labels reducer with a remapped keymap', () => {
  const key = (name: KeyName, text = ''): LabelsAction => ({ type: 'key', name, text, paste: false });
  const loaded = (raw: Record<string, unknown>): LabelsState =>
    labelsReducer(initLabelsState({ listLines: 10, bindings: keymaps(raw).labels }), {
      type: 'loaded',
      rows: ROWS,
      problems: [],
    });
  const run = (state: LabelsState, ...actions: LabelsAction[]): LabelsState => actions.reduce(labelsReducer, state);

  it('tui.select.down on Ctrl+N moves, ↓ does nothing', () => {
    const s = loaded({ 'tui.select.down': 'ctrl+n' });
    expect(selectedLabel(run(s, key('ctrl+n')))?.entryId).toBe('e2');
    expect(selectedLabel(run(s, key('down')))?.entryId).toBe('e3');
  });

  it("the filter follows pi's editor keys: tui.editor.deleteWordBackward on Alt+D, Ctrl+W no longer deletes", () => {
    const s = run(loaded({ 'tui.editor.deleteWordBackward': 'alt+d' }), key('c', 'c'), key('a', 'a'));
    expect(s.filter.value).toBe('ca');
    expect(run(s, key('ctrl+w')).filter.value).toBe('ca');
    expect(run(s, key('meta+d')).filter.value).toBe('');
  });
});

describe('LabelsScreen with a remapped keymap', () => {
  it('the footer names the new key, Enter is gone from it, and the new key opens the tree', async () => {
    const opened: string[] = [];
    const app = renderInk(
      <InputRouter>
        <LabelsScreen
          sessions={[]}
          bindings={keymaps({ 'tui.select.confirm': 'ctrl+o' }).labels}
          load={async () => ({ rows: ROWS, problems: [] })}
          now={() => Date.parse('2026-02-05T12:00:00Z')}
          onOpen={(r) => opened.push(r.entryId)}
          isGone={() => false}
          onBack={() => undefined}
          onExit={() => undefined}
        />
      </InputRouter>,
      { columns: 100, rows: 12 },
    );
    const frame = await app.waitFor('Ctrl+O open in tree');
    expect(frame).not.toContain('Enter open in tree');
    await app.press(KEYS.enter);
    await app.settle();
    expect(opened).toEqual([]);
    await app.press(ctrl('o'));
    await app.waitFor(() => opened.length === 1);
    expect(opened).toEqual(['e3']);
  });
});
