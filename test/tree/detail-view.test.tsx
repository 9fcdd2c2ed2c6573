/**
 * The detail view (Enter → View): wrapped at word boundaries, tool output's colour codes dropped
 * (never raw, never `␛[31m`), the position in view (`1–15 of 18`), the scroll hints only when
 * something scrolls, `↑↓` in the hint line, and the help with one footer.
 */
import { describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { TreeScreen } from '../../components/tree/TreeScreen.js';
import { footerHints } from '../../src/keymap/keymap.js';
import type { SessionEntry } from '../../src/store/types.js';
import { detailHintBindings, detailPosition, maxDetailScroll, wrapDetail } from '../../src/tree/detail-view.js';
import { TREE_BINDINGS } from '../../src/tree/keymap.js';
import { KEYS, renderInk } from '../helpers/ink.js';
import { piSample, storeOf, toolResult } from './helpers.js';

const OUTPUT =
  '\u001b[38;5;196mFAIL\u001b[0m Running the plugin suite with a rather long sentence that has to wrap somewhere in the middle of the words\nline 2\nline 3';

async function openDetail(entries: SessionEntry[], columns = 60, rows = 20) {
  const app = renderInk(
    <InputRouter>
      <TreeScreen path="/tmp/test.jsonl" store={storeOf(entries)} live={false} onBack={() => {}} onExit={() => {}} />
    </InputRouter>,
    { columns, rows },
  );
  await app.waitFor('leaf: pi resumes here');
  await app.settle();
  await app.press(KEYS.enter);
  await app.waitFor('Resume from here');
  // The menu: Resume, Resume with a summary, Fork, Label, View.
  await app.press(KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
  await app.waitFor(/\d+–\d+ of \d+/);
  await app.settle();
  return app;
}

const withColouredOutput = (): SessionEntry[] => [...piSample(), toolResult('rX', 'x1', 'c2', 'bash', OUTPUT)];

describe('the detail view', () => {
  test('wraps at word boundaries and drops the colour codes of tool output', async () => {
    const app = await openDetail(withColouredOutput());
    const frame = app.lastFrame();
    expect(frame).toContain('FAIL Running the plugin suite with a rather long sentence\n');
    expect(frame).not.toContain('␛');
    // Colour codes are not passed through either (the harness strips escapes from frames: look at the bytes).
    expect(app.stdout.writes.join('')).not.toContain('38;5;196');
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    // The call's JSON wraps keeping its indentation, the rest of the command on its own line.
    expect(frame).toMatch(/^ {2}"command": "npm test -- --watch=false && echo done and\n {2}then some more words"$/m);
  });

  test('shows the position, scrolls to the end, and the hints say ↑↓ scroll', async () => {
    const app = await openDetail(withColouredOutput());
    expect(app.lastFrame()).toMatch(/^1–15 of 18$/m);
    expect(app.lastFrame()).toMatch(/^↑↓ scroll {2}PgDn page {2}Esc close$/m);
    await app.press(KEYS.end);
    const end = await app.waitFor(/^4–18 of 18$/m);
    expect(end).toMatch(/^line 3$/m);
    await app.press(KEYS.up);
    await app.waitFor(/^3–17 of 18$/m);
  });

  test('nothing to scroll: no scroll or page hint, the position says all of it is shown', async () => {
    const app = await openDetail(piSample(), 100, 40);
    const frame = app.lastFrame();
    const position = /^1–(\d+) of (\d+)$/m.exec(frame);
    expect(position?.[1]).toBe(position?.[2]);
    const hints = frame.split('\n').at(-1)!;
    expect(hints).toBe('Esc close');
  });

  test('the help has one footer, and the list’s hint line says ↑↓ move', async () => {
    const app = renderInk(
      <InputRouter>
        <TreeScreen
          path="/tmp/test.jsonl"
          store={storeOf(piSample())}
          live={false}
          onBack={() => {}}
          onExit={() => {}}
        />
      </InputRouter>,
      { columns: 80, rows: 24 },
    );
    const list = await app.waitFor('approach A please');
    expect(list.split('\n').at(-1)).toMatch(/^↑↓ move {2}Enter actions/);
    await app.settle();
    await app.press('?');
    const help = await app.waitFor('Tree navigator keys');
    expect(help.match(/close/g)).toHaveLength(1);
  });
});

describe('detail-view (pure)', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `line ${i + 1}`, tone: 'plain' as const }));

  test('the window shows listHeight + 1 lines; the position is 1-based and inclusive', () => {
    expect(maxDetailScroll({ lines: lines(96), scroll: 0 }, 28)).toBe(96 - 29);
    expect(detailPosition({ lines: lines(96), scroll: 11 }, 28)).toBe('12–40 of 96');
    expect(detailPosition({ lines: lines(5), scroll: 0 }, 28)).toBe('1–5 of 5');
    expect(detailPosition({ lines: [], scroll: 0 }, 28)).toBe('0 of 0');
  });

  test('wrapped lines keep their tone', () => {
    expect(wrapDetail([{ text: 'alpha beta gamma', tone: 'error' }], 11)).toEqual([
      { text: 'alpha beta', tone: 'error' },
      { text: 'gamma', tone: 'error' },
    ]);
  });

  test('the scroll hints go when nothing scrolls; close stays', () => {
    const still = footerHints(detailHintBindings(TREE_BINDINGS, false), 'detail', 200).map(
      (h) => `${h.key} ${h.label}`,
    );
    expect(still).toEqual(['Esc close']);
    const moving = footerHints(detailHintBindings(TREE_BINDINGS, true), 'detail', 200).map(
      (h) => `${h.key} ${h.label}`,
    );
    expect(moving).toEqual(['↑↓ scroll', 'PgDn page', 'Esc close']);
  });
});
