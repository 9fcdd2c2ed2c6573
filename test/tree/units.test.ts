import { describe, expect, test } from 'vitest';
import { footerHints, type KeyName, resolveCommand } from '../../src/keymap/keymap.js';
import { key as namedKey, textKey } from '../../src/keymap/tokenize.js';
import { osc52 } from '../../src/tree/clipboard.js';
import {
  collectToolCalls,
  displayString,
  entryDisplay,
  entryFullText,
  formatLabelTime,
  formatToolCall,
} from '../../src/tree/entry-display.js';
import { buildIndex } from '../../src/tree/flatten.js';
import { TREE_BINDINGS, type TreeCommand, type TreeKeyMode } from '../../src/tree/keymap.js';
import {
  initTreeState,
  selectedId,
  type TreeAction,
  type TreeState,
  treeKey,
  treeReducer,
} from '../../src/tree/reducer.js';
import { inputOf } from '../../src/tree/state.js';
import { assistant, entry, piSample, treeOf, user } from './helpers.js';

describe('OSC 52', () => {
  test('plain, tmux passthrough (ESC doubled) and screen wrapping', () => {
    expect(osc52('hé').sequence).toBe('\u001b]52;c;aMOp\u0007');
    expect(osc52('hi', { TMUX: '/tmp/tmux-1/default,1,0' }).sequence).toBe(
      '\u001bPtmux;\u001b\u001b]52;c;aGk=\u0007\u001b\\',
    );
    expect(osc52('hi', { STY: '1.pts' }).sequence).toBe('\u001bP\u001b]52;c;aGk=\u0007\u001b\\');
  });
  test('cut to the payload limit on a code point boundary', () => {
    const r = osc52('😀'.repeat(10), {}, 16);
    expect(r.truncated).toBe(true);
    expect(r.copiedChars).toBe(6); // 12 bytes → 16 base64 chars: three emoji
  });
});

describe('entry display (pi §2.5)', () => {
  const ctx = { toolCalls: collectToolCalls(piSample()) };
  const show = (e: Parameters<typeof entryDisplay>[0]): string => displayString(entryDisplay(e, ctx));
  test('tool calls formatted like pi', () => {
    expect(formatToolCall('read', { path: '/home/me/a.ts', offset: 5 }, '/home/me')).toBe('[read: ~/a.ts:5]');
    expect(formatToolCall('grep', { pattern: 'x+', path: 'src' })).toBe('[grep: /x+/ in src]');
    expect(formatToolCall('find', { pattern: '*.ts' })).toBe('[find: *.ts in .]');
    expect(formatToolCall('ls', { path: 'a' })).toBe('[ls: a]');
    expect(formatToolCall('edit', { path: 'b' })).toBe('[edit: b]');
    expect(formatToolCall('web', { url: 'https://example.com/a/very/long/path/name' })).toBe(
      '[web: {"url":"https://example.com/a/very/long/...]',
    );
  });
  test('every entry type', () => {
    expect(show(entry('a', null, 'model_change', { modelId: 'gpt' }))).toBe('[model: gpt]');
    expect(show(entry('a', null, 'thinking_level_change', { thinkingLevel: 'high' }))).toBe('[thinking: high]');
    expect(show(entry('a', null, 'custom', { customType: 'todo' }))).toBe('[custom: todo]');
    expect(show(entry('a', null, 'context_edit', { targetId: 't', replacement: null }))).toBe('[context omit: t]');
    expect(show(entry('a', null, 'context_edit', { targetId: 't', replacement: { content: 'x' } }))).toBe(
      '[context replace: t]',
    );
    expect(show(entry('a', null, 'label', { targetId: 't' }))).toBe('[label: (cleared)]');
    // pi's `entry.label ?? "(cleared)"`: an empty label is drawn empty.
    expect(show(entry('a', null, 'label', { targetId: 't', label: '' }))).toBe('[label: ]');
    expect(show(entry('a', null, 'session_info', { name: '' }))).toBe('[title: empty]');
    expect(show(entry('a', null, 'session_info', { name: 'Nice' }))).toBe('[title: Nice]');
    expect(show(entry('a', null, 'mystery'))).toBe('[mystery]');
    expect(
      show(entry('a', null, 'message', { message: { role: 'assistant', content: [], stopReason: 'aborted' } })),
    ).toBe('assistant: (aborted)');
    expect(
      show(
        entry('a', null, 'message', {
          message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: 'boom\nmore' },
        }),
      ),
    ).toBe('assistant: boom more');
    expect(show(entry('a', null, 'message', { message: { role: 'bashExecution', command: 'ls -la' } }))).toBe(
      '[bash]: ls -la',
    );
    expect(show(entry('a', null, 'message', { message: { role: 'system', content: '' } }))).toBe('[system]');
    expect(
      show(
        entry('a', null, 'message', {
          message: { role: 'toolResult', toolCallId: 'zz', toolName: 'grep', content: [] },
        }),
      ),
    ).toBe('[grep]');
  });
  test('session text is sanitized: no escape sequence reaches the row', () => {
    const text = show(entry('a', null, 'message', { message: { role: 'user', content: 'hi \u001b[31mred\u0007' } }));
    expect(text).not.toMatch(/[\u0000-\u001f]/);
    expect(text).toContain('␛[31mred');
  });
  test('copy text is the full text; entries without text have none', () => {
    expect(entryFullText(entry('a', null, 'compaction', { summary: 'S' }))).toBe('S');
    expect(entryFullText(entry('a', null, 'model_change', { modelId: 'x' }))).toBeUndefined();
  });
  test('label times like pi: today, this year, older', () => {
    const now = new Date(2026, 1, 5, 12, 0).getTime();
    expect(formatLabelTime(new Date(2026, 1, 5, 8, 9).toISOString(), now)).toBe('08:09');
    expect(formatLabelTime(new Date(2026, 0, 3, 8, 9).toISOString(), now)).toBe('1/3 08:09');
    expect(formatLabelTime(new Date(2024, 2, 5, 8, 9).toISOString(), now)).toBe('24/3/5 08:09');
  });
});

describe('keymap', () => {
  test.each<[KeyName, TreeKeyMode, TreeCommand | undefined]>([
    ['L', 'browse', 'editLabel'],
    ['L', 'search', undefined],
    ['T', 'browse', 'toggleLabelTimes'],
    ['?', 'browse', 'help'],
    ['?', 'search', undefined],
    ['ctrl+o', 'browse', 'filterNext'],
    ['meta+o', 'search', 'filterPrev'],
    ['ctrl+left', 'browse', 'foldOrUp'],
    ['meta+right', 'search', 'unfoldOrDown'],
    ['ctrl+n', 'search', 'nextMatch'],
    ['escape', 'search', 'escape'],
    ['ctrl+c', 'detail', 'closeOverlay'],
    ['ctrl+c', 'menu', 'cancel'],
    ['ctrl+c', 'prompt', 'cancel'],
    ['ctrl+c', 'confirm', 'keep'],
    ['ctrl+c', 'browse', 'quit'],
    ['ctrl+c', 'search', 'quit'],
    ['q', 'detail', 'closeOverlay'],
    ['q', 'browse', undefined],
  ])('%s in %s → %s', (key, mode, command) => {
    expect(resolveCommand(TREE_BINDINGS, key, mode)).toBe(command);
  });
  test('footer hints come from the bindings', () => {
    expect(footerHints(TREE_BINDINGS, 'browse', 200).map((h) => h.label)).toContain('label');
    expect(footerHints(TREE_BINDINGS, 'search', 200).map((h) => h.label)).not.toContain('label');
  });

  test('a footer too narrow for every hint ends with `? more`, which opens the help listing every key', () => {
    const narrow = footerHints(TREE_BINDINGS, 'browse', 80);
    expect(narrow.at(-1)).toEqual({ key: '?', label: 'more' });
    expect(narrow.map((h) => h.label)).not.toContain('help');
    const wide = footerHints(TREE_BINDINGS, 'browse', 1000);
    expect(wide.map((h) => h.label)).toContain('help');
    expect(wide.map((h) => h.label)).not.toContain('more');
  });
});

describe('reducer', () => {
  const start = (): TreeState =>
    initTreeState({
      index: buildIndex(treeOf(piSample())),
      listHeight: 10,
      width: 80,
    });
  const run = (state: TreeState, ...actions: TreeAction[]): TreeState => actions.reduce(treeReducer, state);
  const key = (name: KeyName): TreeAction => treeKey([...name].length === 1 ? textKey(name) : namedKey(name));
  /** The queued effects without their ids. */
  const effectsOf = (state: TreeState): unknown[] => state.effects.map(({ id: _id, ...effect }) => effect);

  test("starts on the leaf; Up/Down wrap around at the ends as pi's tree does, paging clamps", () => {
    const s = start();
    expect(selectedId(s)).toBe('x1');
    expect(selectedId(run(s, key('home')))).toBe('u1');
    expect(selectedId(run(s, key('end')))).toBe('sB');
    expect(selectedId(run(s, key('home'), key('up')))).toBe('sB');
    expect(selectedId(run(s, key('end'), key('down')))).toBe('u1');
    expect(selectedId(run(s, key('home'), key('pageup')))).toBe('u1');
    expect(selectedId(run(s, key('end'), key('pagedown')))).toBe('sB');
    const wrapped = run(s, key('home'), key('up'));
    expect(wrapped.cursor).toBe(wrapped.layout.count - 1);
    expect(wrapped.offset + wrapped.listHeight).toBeGreaterThanOrEqual(wrapped.layout.count);
  });

  test('a filter change keeps the cursor on the same entry when visible; the anchor survives a round trip', () => {
    const s = run(start(), key('up')); // aA2 "Great"
    expect(selectedId(s)).toBe('aA2');
    const users = run(s, key('ctrl+u'));
    expect(users.filter).toBe('user-only');
    expect(selectedId(users)).toBe('uA2'); // nearest visible ancestor
    expect(selectedId(run(users, key('ctrl+u')))).toBe('aA2'); // back to default: back on the anchor
  });

  test('Ctrl+O cycles the filters, Alt+O backwards', () => {
    const s = start();
    expect(run(s, key('ctrl+o')).filter).toBe('no-tools');
    expect(run(s, key('meta+o')).filter).toBe('all');
  });

  test('typing searches, L types in a query, Esc clears then leaves', () => {
    const s = run(start(), key('b'), key('.'), key('L'));
    expect(s.query).toBe('b.L');
    expect(s.mode.kind).toBe('browse');
    const cleared = run(s, key('escape'));
    expect(cleared.query).toBe('');
    expect(effectsOf(cleared)).toEqual([]);
    expect(effectsOf(run(cleared, key('escape')))).toEqual([{ kind: 'back' }]);
  });

  test('next/previous match wrap around', () => {
    const s = run(start(), key('a'), key('n'), key('s'), key('w'));
    const first = selectedId(s);
    const second = selectedId(run(s, key('ctrl+n')));
    expect(first).not.toBe(second);
    expect(selectedId(run(s, key('ctrl+n'), key('ctrl+n')))).toBe(first);
    expect(selectedId(run(s, key('ctrl+p')))).toBe(second);
  });

  test('label flow: pre-filled with the cursor at the end, submit queues the write, empty clears', () => {
    const s = run(start(), key('home'), key('down'), key('down'), key('L'));
    expect(s.mode.kind).toBe('labelInput');
    expect(inputOf(s)).toEqual({ value: 'checkpoint', cursor: 10 });
    const typed = run(s, { type: 'input', action: { type: 'insert', text: '!' } }, { type: 'submit' });
    expect(effectsOf(typed)).toEqual([{ kind: 'label', entryId: 'uA', label: 'checkpoint!' }]);
    const cleared = run(s, { type: 'input', action: { type: 'clear' } }, { type: 'submit' });
    expect(effectsOf(cleared)).toEqual([{ kind: 'label', entryId: 'uA', label: '' }]);
  });

  test('menu: resume on the leaf says so; elsewhere queues a branch and the result moves the leaf', () => {
    const onLeaf = run(start(), key('return'), { type: 'menu', action: 'resume' });
    expect(effectsOf(onLeaf)).toEqual([]);
    expect(onLeaf.status?.text).toMatch(/Already at this point/);
    const s = run(start(), key('home'), key('down'), key('return'), { type: 'menu', action: 'resume' });
    expect(effectsOf(s)).toEqual([{ kind: 'branch', entryId: 'a1' }]);
    const moved = run(s, { type: 'effectsTaken', upTo: s.effects[0]!.id }, { type: 'branched', leafId: 'a1' });
    expect(moved.index.leaf).toBe(moved.index.numOf.get('a1'));
    expect(selectedId(moved)).toBe('a1');
    expect(moved.busy).toBe(false);
  });

  test('a live reload keeps cursor, folds, filter and query', () => {
    const s = run(start(), key('ctrl+t'), key('a'));
    const withMore = treeOf([
      ...piSample(),
      entry('new1', 'x1', 'message', { message: { role: 'user', content: 'appended by pi' } }),
    ]);
    const next = run(s, { type: 'reload', index: buildIndex(withMore) });
    expect(next.filter).toBe('no-tools');
    expect(next.query).toBe('a');
    expect(selectedId(next)).toBe(selectedId(s));
    expect(next.index.size).toBe(s.index.size + 1);
  });
});

describe('after "Resume from here with a summary", the leaf is the file’s, whichever arrives first', () => {
  const entries = [
    user('u1', null, 'first question'),
    assistant('a1', 'u1', 'first answer'),
    user('u2', 'a1', 'second question'),
    assistant('a2', 'u2', 'second answer'),
  ];
  const withSummary = [
    ...entries,
    entry('s1', 'a1', 'branch_summary', { fromId: 'a2', summary: 'Tried the second question' }),
  ];
  const start = (): TreeState =>
    initTreeState({
      index: buildIndex(treeOf(entries)),
      listHeight: 10,
      width: 80,
    });
  const leafOf = (state: TreeState): string | undefined =>
    state.index.leaf === -1 ? undefined : state.index.entries[state.index.leaf]!.id;
  const reloaded: TreeAction = { type: 'reload', index: buildIndex(treeOf(withSummary)) };
  const written: TreeAction = { type: 'branched', leafId: 'a1', entryId: 's1' };

  test('the write answers first: the leaf shows where pi resumes, then the appended summary takes it', () => {
    const answered = treeReducer(start(), written);
    expect(leafOf(answered)).toBe('a1');
    expect(leafOf(treeReducer(answered, reloaded))).toBe('s1');
  });
  test('the live append lands first: the answer keeps the summary as the leaf', () => {
    expect(leafOf(treeReducer(treeReducer(start(), reloaded), written))).toBe('s1');
  });
  test('both orders end as a fresh open of the file draws it', () => {
    const fresh = buildIndex(treeOf(withSummary));
    for (const state of [
      treeReducer(treeReducer(start(), written), reloaded),
      treeReducer(treeReducer(start(), reloaded), written),
    ])
      expect(state.index.activeChild).toEqual(fresh.activeChild);
  });
});
