/** The labels view on the fake terminal: its lines, the filter, Enter and Esc. */
import { describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { LabelsScreen } from '../../components/labels/LabelsScreen.js';
import type { LabelsState } from '../../src/labels/reducer.js';
import type { LabelRow } from '../../src/labels/rows.js';
import { ctrl, KEYS, renderInk } from '../helpers/ink.js';
import { makeInfo } from '../picker/make-info.js';

const NOW = Date.parse('2026-02-05T12:00:00Z');

function row(n: number, label: string, text: string, title: string): LabelRow {
  return {
    label,
    time: `2026-02-05T0${n}:00:00.000Z`,
    entryId: `e${n}`,
    entryType: 'message',
    copiedFrom: null,
    text,
    session: { id: `s${n}`, name: null, title, path: `/s/${n}.jsonl`, cwd: `/home/u/p${n}` },
  };
}

const ROWS = [
  row(3, 'bug', 'crash in\nthe lexer \u001b[31mred', 'Lexer rewrite'),
  row(2, 'idea', 'cache the tokens', 'Tokenizer work'),
  row(1, 'done', 'it works', 'Parser'),
];

function mount(initialState?: LabelsState) {
  const opened: [LabelRow, LabelsState][] = [];
  let backs = 0;
  const exits: number[] = [];
  const seen: number[] = [];
  const sessions = [makeInfo({ path: '/s/1.jsonl', labels: ['done'] }), makeInfo({ path: '/s/9.jsonl' })];
  const app = renderInk(
    <InputRouter>
      <LabelsScreen
        sessions={sessions}
        {...(initialState ? { initialState } : {})}
        load={async (given) => {
          seen.push(given.length);
          return { rows: ROWS, problems: [] };
        }}
        now={() => NOW}
        onOpen={(r, s) => opened.push([r, s])}
        isGone={() => false}
        onBack={() => backs++}
        onExit={(r) => exits.push(r.code)}
      />
    </InputRouter>,
    { columns: 100, rows: 12 },
  );
  return { app, opened, backs: () => backs, exits, seen };
}

describe('LabelsScreen', () => {
  test('one sanitised line per label: time, [label], the entry text, then the session title and cwd', async () => {
    const { app, seen } = mount();
    const frame = await app.waitFor('Tokenizer work');
    expect(seen).toEqual([2]);
    expect(frame).toContain('Labels · 3 labels');
    expect(frame).toMatch(/› 02-05 03:00 \[bug\] +crash in the lexer .*red.* │ Lexer rewrite · \/home\/u\/p3/);
    expect(frame).not.toContain('\u001b[31m');
    expect(frame).toMatch(/ 02-05 02:00 \[idea\] +cache the tokens +│ Tokenizer work · \/home\/u\/p2/);
    // The selected label's session in full under the list.
    expect(frame).toContain('Lexer rewrite · /home/u/p3 · /s/3.jsonl');
    expect(frame).toContain('Enter open in tree');
  });

  test('typing filters; Esc clears, then goes back; Ctrl+C quits', async () => {
    const { app, backs, exits } = mount();
    await app.waitFor('Tokenizer work');
    await app.settle();
    await app.write('tokens');
    const frame = await app.waitFor('1 of 3 labels');
    expect(frame).toContain('[idea]');
    expect(frame).not.toContain('[bug]');
    await app.press(KEYS.escape);
    await app.waitFor('Labels · 3 labels');
    expect(backs()).toBe(0);
    await app.press(KEYS.escape);
    await app.waitFor(() => backs() === 1);
    expect(exits).toEqual([]);
  });

  test('Enter hands out the row and the state; given back, the same filter and cursor', async () => {
    const first = mount();
    await first.app.waitFor('Tokenizer work');
    await first.app.settle();
    await first.app.write('rk');
    await first.app.waitFor('2 of 3 labels');
    await first.app.press(KEYS.down);
    await first.app.press(KEYS.enter);
    await first.app.waitFor(() => first.opened.length === 1);
    const [opened, state] = first.opened[0]!;
    expect(opened.entryId).toBe('e1');
    first.app.unmount();
    const again = mount(state);
    const frame = await again.app.waitFor('2 of 3 labels');
    expect(frame).toMatch(/› 02-05 01:00 \[done\]/);
    expect(frame).toContain('Filter: rk');
    // Not loaded again: the rows came back with the state.
    expect(again.seen).toEqual([]);
    await again.app.settle();
    await again.app.write(ctrl('c'));
    await again.app.waitFor(() => again.exits.length === 1);
    expect(again.exits).toEqual([130]);
  });

  test('rows from another year: one fixed-width date column, the labels in one column; a fork’s copies are marked', async () => {
    const parent = row(1, 'works', 'it works', 'ok, now also handle the edge cases');
    const old = { ...parent, time: '2025-12-27T09:06:00.000Z' };
    const copy = {
      ...old,
      copiedFrom: old.session.path,
      session: { ...old.session, id: 'fork', path: '/s/fork.jsonl' },
    };
    const recent = row(2, 'milestone-1', 'first milestone', 'ok, now also handle the edge cases');
    const opened: LabelRow[] = [];
    const app = renderInk(
      <InputRouter>
        <LabelsScreen
          sessions={[makeInfo({ path: '/s/1.jsonl', labels: ['works'] })]}
          load={async () => ({ rows: [recent, copy, old], problems: [] })}
          now={() => NOW}
          onOpen={(r) => opened.push(r)}
          isGone={() => false}
          onBack={() => {}}
          onExit={() => {}}
        />
      </InputRouter>,
      { columns: 100, rows: 12 },
    );
    const frame = await app.waitFor('[works]');
    const lines = frame.split('\n');
    const at = (label: string) => lines.find((l) => l.includes(label))!;
    expect(at('[milestone-1]')).toMatch(/^› 2026-02-05 02:00 \[milestone-1\] /);
    const copyLine = lines.find((l) => l.includes('[works]') && l.includes('⑂'))!;
    const ownLine = lines.find((l) => l.includes('[works]') && !l.includes('⑂'))!;
    expect(copyLine).toMatch(/^ {2}2025-12-27 09:06 \[works\] /);
    expect(ownLine).toMatch(/^ {2}2025-12-27 09:06 \[works\] /);
    expect(copyLine.indexOf('[works]')).toBe(at('[milestone-1]').indexOf('[milestone-1]'));
    expect(copyLine).toContain('│ ⑂ in fork · ok, now also handle');
    expect(ownLine).toContain('│ ok, now also handle');
    await app.press(KEYS.down);
    await app.waitFor('⑂ copied in fork of ok, now also handle the edge cases (/s/1.jsonl) · ok, now also');
    app.unmount();
  });
});
