/**
 * What React draws again on a cursor move: the two rows whose cursor state changed and the
 * footer's position, nothing else (the header, the query line, the key hints and the other rows
 * are memoised, and their props stay the same on a move). Counted by ink's <Text> renders, which
 * React skips under a memoised component it does not render again.
 */
import type * as ink from 'ink';
import { describe, expect, it, vi } from 'vitest';
import { KEYS } from '../helpers/ink.js';
import { DAY, makeInfo } from './make-info.js';
import { listingSource, renderPicker } from './picker-screen-fixture.js';

/** The strings each <Text> rendered since the last `take`, its direct string children joined. */
const drawn = vi.hoisted(() => {
  const texts: string[] = [];
  return {
    texts,
    take(): string[] {
      return texts.splice(0);
    },
  };
});

vi.mock('ink', async (importOriginal) => {
  const original = await importOriginal<typeof ink>();
  const { createElement } = await import('react');
  const children = (node: unknown): string =>
    (Array.isArray(node) ? node : [node]).filter((c) => typeof c === 'string').join('');
  function Text(props: ink.TextProps) {
    drawn.texts.push(children(props.children));
    return createElement(original.Text, props);
  }
  return { ...original, Text };
});

const sessions = Array.from({ length: 30 }, (_, i) =>
  makeInfo({ path: `/s/${i}.jsonl`, ageMs: (i + 1) * DAY, firstMessage: `item ${i} here` }),
);

function mount() {
  return renderPicker(listingSource(sessions), { columns: 100, rows: 16 }).app;
}

/**
 * What `texts` drew: row titles, the footer's position, and anything that is neither a row (one
 * text: its lead, marks, title, gap and right block) nor the position: the header, query line or hints.
 */
function summary(texts: string[]) {
  const rows = texts.filter((t) => /^[ ›●]{3}item \d+ here/.test(t));
  const position = (t: string): boolean => /^\(\d+\/30\)/.test(t);
  return {
    titles: rows.map((t) => /item \d+ here/.exec(t)?.[0]).sort(),
    position: texts.filter(position),
    others: texts.filter((t) => !rows.includes(t) && !position(t)),
    leads: rows.filter((t) => t.startsWith('›')).length,
  };
}

describe('a cursor move draws again only what it changes', () => {
  it('↓ one key at a time: the old and the new cursor row and the footer position', async () => {
    const app = mount();
    await app.waitFor('› ');
    await app.waitFor(/\(1\/30\)/);
    await app.settle();
    drawn.take();

    await app.press(KEYS.down);
    await app.waitFor(/\(2\/30\)/);
    await app.settle();
    expect(summary(drawn.take())).toEqual({
      titles: ['item 0 here', 'item 1 here'],
      others: [],
      position: ['(2/30)  '],
      leads: 1,
    });

    await app.press(KEYS.down);
    await app.waitFor(/\(3\/30\)/);
    await app.settle();
    expect(summary(drawn.take()).titles).toEqual(['item 1 here', 'item 2 here']);
  });

  it('↓↓ in one write: one render of the rows the burst changed', async () => {
    const app = mount();
    await app.waitFor(/\(1\/30\)/);
    await app.settle();
    drawn.take();

    await app.write(`${KEYS.down}${KEYS.down}`);
    await app.waitFor(/\(3\/30\)/);
    await app.settle();
    expect(summary(drawn.take())).toEqual({
      titles: ['item 0 here', 'item 2 here'],
      others: [],
      position: ['(3/30)  '],
      leads: 1,
    });
  });
});
