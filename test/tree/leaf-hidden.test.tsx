/**
 * The leaf under filters and search: when the filter or the search hides it, no other entry
 * gets its ◆; the nearest shown ancestor gets ◇ and the counter line says the leaf is hidden
 * below that row. Only labels or session_info between the two (what labelling, renaming and
 * resuming append) leave ◆ on the ancestor: pi resumes with exactly its context.
 */
import { describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { TreeScreen } from '../../components/tree/TreeScreen.js';
import type { SessionEntry } from '../../src/store/types.js';
import { ctrl, renderInk } from '../helpers/ink.js';
import { entry, piSample, storeOf } from './helpers.js';

async function mount(entries: SessionEntry[]) {
  const app = renderInk(
    <InputRouter>
      <TreeScreen path="/tmp/test.jsonl" store={storeOf(entries)} live={false} onBack={() => {}} onExit={() => {}} />
    </InputRouter>,
    { columns: 100, rows: 30 },
  );
  await app.waitFor('approach A please');
  await app.settle();
  return app;
}

const rowsWith = (frame: string, glyph: string): string[] =>
  frame.split('\n').filter((line) => /^[› ] /.test(line) && line.includes(glyph));

describe('the leaf when the filter or the search hides it', () => {
  test('shown: ◆ on the leaf’s own row, and the counter says pi resumes there', async () => {
    const frame = (await mount(piSample())).lastFrame();
    expect(rowsWith(frame, '◆')).toEqual(['› │     ◆ [ext]: hello from ext']);
    expect(rowsWith(frame, '◇')).toEqual([]);
    expect(frame).toContain('(10/17)  ◆ leaf: pi resumes here');
  });

  test('labeled-only hides it: ◇ on the nearest shown ancestor, no ◆ on any row, the counter says so', async () => {
    const app = await mount(piSample());
    await app.press(ctrl('l'));
    const frame = await app.waitFor('[labeled]');
    expect(rowsWith(frame, '◇')).toEqual(['› ◇ [checkpoint] user: approach A please']);
    expect(rowsWith(frame, '◆')).toEqual([]);
    expect(frame).toContain('(1/1) [labeled]  ◆ leaf hidden by the filter: below the ◇ row');
  });

  test('a search that does not match the leaf: the counter says the search hides it', async () => {
    const app = await mount(piSample());
    await app.type('worked');
    const frame = await app.waitFor('Search: worked');
    expect(rowsWith(frame, '◆')).toEqual([]);
    // The leaf (the custom message under `That worked`'s answer) is hidden; `That worked` is its nearest shown ancestor.
    expect(rowsWith(frame, '◇')).toEqual(['› ├─ ◇ user: That worked']);
    expect(frame).toContain('◆ leaf hidden by the search: below the ◇ row');
  });

  test('a label entry as the leaf (hidden by the default filter): nothing is between, so its parent carries ◆', async () => {
    const entries = [...piSample(), entry('l2', 'x1', 'label', { targetId: 'x1', label: 'here' })];
    const frame = (await mount(entries)).lastFrame();
    expect(rowsWith(frame, '◆')).toEqual(['› │     ◆ [here] [ext]: hello from ext']);
    expect(rowsWith(frame, '◇')).toEqual([]);
    expect(frame).toContain('◆ leaf: pi resumes here');
  });

  test('the same under user-only: the user message above is not where pi resumes, so ◇', async () => {
    const app = await mount([...piSample(), entry('l2', 'x1', 'label', { targetId: 'x1', label: 'here' })]);
    await app.press(ctrl('u'));
    const frame = await app.waitFor('[user]');
    expect(rowsWith(frame, '◇')).toEqual(['› │     ◇ user: That worked']);
    expect(rowsWith(frame, '◆')).toEqual([]);
    expect(frame).toContain('◆ leaf hidden by the filter: below the ◇ row');
  });
});
