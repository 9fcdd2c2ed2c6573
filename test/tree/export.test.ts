/**
 * Export in the tree (pure reducer paths): Alt+E, or Export in the entry menu, opens the export
 * dialog the picker has, on the branch from the root to the selected entry: the format menu, the
 * path (a new file named after the session and the entry, in the folder pi-sessions runs in), then
 * the export effect with that entry as its leaf, stopping on secrets; the secrets menu's first
 * (default) choice redacts, the second keeps them; Esc anywhere exports nothing. A retained row
 * cannot be exported to. Keys one at a time and in one read mean the same.
 */
import { describe, expect, it } from 'vitest';
import type { KeyName } from '../../src/keymap/key-name.js';
import { key, textKey } from '../../src/keymap/tokenize.js';
import { defaultExportName } from '../../src/state/export-dialog.js';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { buildIndex } from '../../src/tree/flatten.js';
import {
  initTreeState,
  keyMode,
  selectedId,
  selectedRow,
  type TreeAction,
  type TreeState,
  treeReducer,
} from '../../src/tree/reducer.js';
import { treeKey } from '../../src/tree/state.js';
import { retainedPath } from '../helpers/retained.js';
import { piSample, treeOf } from './helpers.js';

const SESSION = { path: '/s/tree.jsonl', id: '019b1234-0000-7000-8000-000000000000', here: '/work/here' };
const start = (): TreeState =>
  initTreeState({ index: buildIndex(treeOf(piSample())), listHeight: 10, width: 80, session: SESSION });
const named = (name: KeyName): TreeAction => treeKey(key(name));
const typed = (text: string): TreeAction => treeKey(textKey(text));
const run = (state: TreeState, ...actions: TreeAction[]): TreeState => actions.reduce(treeReducer, state);
const exportsOf = (s: TreeState) => s.effects.filter((e) => e.kind === 'export').map(({ id: _id, ...e }) => e);
const FINDING = { entryId: 'uA', line: 4, kind: 'GITHUB_TOKEN', masked: 'ghp_************ (40 characters)' };

describe('Export in the tree', () => {
  it('Alt+E on an entry: format, then the path named after the session and the entry, then the export to it', () => {
    // From the leaf x1, up to aA2 ("Great"): the branch root → aA2.
    let s = run(start(), named('up'));
    expect(selectedId(s)).toBe('aA2');
    s = run(s, named('meta+e'));
    expect(s.mode).toMatchObject({ kind: 'export', targetId: 'aA2', step: { kind: 'format' } });
    expect(keyMode(s)).toBe('menu');
    s = run(s, named('return'));
    const name = defaultExportName(SESSION.id, 'md', 'aA2');
    expect(name).toBe('pi-session-019b1234-aA2.md');
    expect(s.mode).toMatchObject({ step: { kind: 'path', format: 'md', input: { value: name } } });
    expect(keyMode(s)).toBe('prompt');
    s = run(s, named('return'));
    expect(s.mode).toMatchObject({ kind: 'export', step: { kind: 'running', format: 'md' } });
    expect(exportsOf(s)).toEqual([
      { kind: 'export', path: SESSION.path, format: 'md', out: `/work/here/${name}`, secrets: 'stop', leaf: 'aA2' },
    ]);
    // Keys typed ahead while it scans are swallowed: Esc, Enter, a letter, Ctrl+C.
    expect(run(s, named('return'), named('escape'), typed('x'), named('ctrl+c'))).toEqual(s);
    s = run(s, { type: 'exported', format: 'md', out: `/work/here/${name}`, bytes: 2048, redacted: 0, kept: 0 });
    expect(s.mode).toEqual({ kind: 'browse' });
    expect(s.status).toEqual({ text: `Exported md (2.0 KB) to /work/here/${name}`, tone: 'success' });
    expect(selectedId(s)).toBe('aA2');
  });

  it('the entry menu’s Export does the same; a typed path (relative: here; absolute as it is); an empty one is refused', () => {
    let s = run(start(), named('return'));
    expect(s.mode).toMatchObject({ kind: 'menu', targetId: 'x1' });
    const items = s.mode.kind === 'menu' ? s.mode.menu.items.map((i) => i.value) : [];
    const at = items.indexOf('export');
    expect(at).toBeGreaterThan(0);
    s = run(s, ...Array.from({ length: at }, () => named('down')), named('return'));
    expect(s.mode).toMatchObject({ kind: 'export', targetId: 'x1', step: { kind: 'format' } });
    s = run(s, named('down'), named('down'), named('return'), named('ctrl+u'));
    expect(s.mode).toMatchObject({ step: { kind: 'path', format: 'jsonl', input: { value: '' } } });
    const refused = run(s, named('return'));
    expect(refused.mode).toMatchObject({ step: { kind: 'path' } });
    expect(refused.status).toEqual({ text: 'Type the path of a new file to export to', tone: 'error' });
    // Typed one key at a time, or as one run of text: the same path.
    const oneByOne = run(s, ...[...'out/b.jsonl'].map(typed), named('return'));
    const burst = run(s, typed('out/b.jsonl'), named('return'));
    expect(exportsOf(oneByOne)).toEqual(exportsOf(burst));
    expect(exportsOf(burst)).toMatchObject([{ out: '/work/here/out/b.jsonl', format: 'jsonl', leaf: 'x1' }]);
    // A pasted absolute path is taken as it is.
    const pasted = run(s, treeKey({ name: undefined, text: '/tmp/x.jsonl', paste: true }), named('return'));
    expect(exportsOf(pasted)).toMatchObject([{ out: '/tmp/x.jsonl' }]);
  });

  it('secrets found: the menu’s first choice (Enter) redacts, the second keeps; Esc or Cancel exports nothing', () => {
    const running = run(start(), named('meta+e'), named('return'), named('return'));
    const { kind: _kind, ...request } = exportsOf(running)[0]!;
    const asked = run(running, { type: 'exportStopped', request, findings: [FINDING] });
    expect(asked.mode).toMatchObject({
      kind: 'export',
      targetId: 'x1',
      step: { kind: 'secrets', findings: [FINDING] },
    });
    expect(keyMode(asked)).toBe('menu');
    const redact = run(asked, named('return'));
    expect(exportsOf(redact).at(-1)).toEqual({ ...request, kind: 'export', secrets: 'redact' });
    const keep = run(asked, named('down'), named('return'));
    expect(exportsOf(keep).at(-1)).toEqual({ ...request, kind: 'export', secrets: 'keep' });
    const done = run(redact, { type: 'exported', format: 'md', out: request.out, bytes: 10, redacted: 1, kept: 0 });
    expect(done.status?.text).toMatch(/; 1 secret redacted$/);
    for (const cancelled of [run(asked, named('escape')), run(asked, named('down'), named('down'), named('return'))]) {
      expect(cancelled.mode).toEqual({ kind: 'browse' });
      expect(cancelled.status).toEqual({ text: 'Nothing was exported', tone: 'info' });
      expect(exportsOf(cancelled)).toHaveLength(1);
    }
    // Esc in the format menu and in the path prompt: nothing either.
    expect(run(start(), named('meta+e'), named('escape')).status?.text).toBe('Nothing was exported');
    expect(run(start(), named('meta+e'), named('return'), named('escape')).status?.text).toBe('Nothing was exported');
  });

  it('a failed export says why and leaves the tree as it was; Alt+E types nothing into a search', () => {
    const running = run(start(), typed('a'), typed('p'), named('meta+e'), named('return'), named('return'));
    expect(running.query).toBe('ap');
    expect(running.mode).toMatchObject({ kind: 'export', step: { kind: 'running' } });
    const failed = run(running, { type: 'exportFailed', error: 'cannot write /work/here/x.md: it exists' });
    expect(failed.mode).toEqual({ kind: 'browse' });
    expect(failed.status).toEqual({ text: 'Not exported: cannot write /work/here/x.md: it exists', tone: 'error' });
    expect(failed.query).toBe('ap');
  });

  it('a retained message’s row is not an entry: its menu offers no Export, and Alt+E says why', () => {
    const session = readSessionSync(retainedPath('no-first-kept.jsonl'));
    if (!session.ok) throw new Error(session.message);
    let s = initTreeState({ index: buildIndex(buildTree(session)), listHeight: 20, width: 100, session: SESSION });
    for (let guard = 0; guard < 50 && selectedRow(s)?.retainedBy === undefined; guard++) s = run(s, named('up'));
    expect(selectedRow(s)?.retainedBy).toBeDefined();
    const refused = run(s, named('meta+e'));
    expect(refused.mode).toEqual({ kind: 'browse' });
    expect(refused.effects).toEqual([]);
    expect(refused.status?.tone).toBe('error');
    expect(refused.status?.text).toMatch(/^A retained message is a copy its compaction keeps/);
    const menu = run(s, named('return'));
    expect(menu.mode.kind === 'menu' && menu.mode.menu.items.map((i) => i.value)).toEqual(['view', 'copy', 'cancel']);
    expect(run(menu, { type: 'menu', action: 'export' }).effects).toEqual([]);
  });
});
