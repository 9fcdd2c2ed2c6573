import { describe, expect, it } from 'vitest';
import { columnContent, rightColumns } from '../../src/picker/layout.js';
import { createSearchIndex, parseQuery, prepareTexts, searchSessions } from '../../src/picker/query.js';
import { formatRowView, RowViewCache, type SharedRowContext } from '../../src/picker/row-views.js';
import type { Row } from '../../src/picker/sort.js';
import { MIN, makeInfo, NOW } from './make-info.js';

const rows: Row[] = [
  {
    info: makeInfo({ path: '/s/a.jsonl', ageMs: 90 * 1000, firstMessage: 'fix the parser' }),
    prefix: '',
    depth: 0,
    score: 0,
  },
  { info: makeInfo({ path: '/s/b.jsonl', ageMs: 30 * MIN, name: 'Named 日本語' }), prefix: '└─ ', depth: 1, score: 0 },
];

function shared(over: Partial<SharedRowContext> = {}): SharedRowContext {
  const content = columnContent(rows, { home: '/home/u', nowMs: NOW, cwd: true, path: false });
  return {
    width: 90,
    columns: rightColumns(90, { showPath: false, showCwd: true, content }),
    home: '/home/u',
    current: '/s/b.jsonl',
    rowsQuery: parseQuery('', NOW),
    ...over,
  };
}

describe('RowViewCache', () => {
  it('gives the view formatRow makes, and the same object while nothing it shows changed', () => {
    const cache = new RowViewCache();
    const ctx = shared();
    const first = cache.view(rows[0]!, ctx, false, false, NOW);
    expect(first).toEqual(formatRowView(rows[0]!, ctx, false, false, NOW));
    // A move elsewhere: the same row, context and clock text (still "1m" ten seconds later).
    expect(cache.view(rows[0]!, { ...ctx }, false, false, NOW + 10_000)).toBe(first);
    expect(cache.view(rows[1]!, ctx, false, false, NOW).currentMark).not.toBe('');
  });

  it('formats again when the cursor, a mark, the clock text or the shared context changes', () => {
    const cache = new RowViewCache();
    const ctx = shared();
    const row = rows[0]!;
    const plain = cache.view(row, ctx, false, false, NOW);
    const selected = cache.view(row, ctx, true, false, NOW);
    expect(selected.lead).toBe('›  ');
    expect(selected).toEqual(formatRowView(row, ctx, true, false, NOW));
    expect(cache.view(row, ctx, true, true, NOW).lead).toBe('›● ');
    // Live (written 90 s ago) until pi's live window passes; the age reads 1m, then 2m.
    const later = cache.view(row, ctx, true, true, NOW + MIN);
    expect(later).toEqual(formatRowView(row, ctx, true, true, NOW + MIN));
    expect(later.right).not.toBe(plain.right);
    const hourLater = cache.view(row, ctx, true, true, NOW + 60 * MIN);
    expect(hourLater).toEqual(formatRowView(row, ctx, true, true, NOW + 60 * MIN));
    expect(hourLater.live).toBe(false);
    const narrow = shared({
      width: 60,
      columns: rightColumns(60, {
        showPath: false,
        showCwd: true,
        content: columnContent(rows, { home: '/home/u', nowMs: NOW, cwd: true, path: false }),
      }),
    });
    expect(cache.view(row, narrow, true, true, NOW + 60 * MIN)).toEqual(
      formatRowView(row, narrow, true, true, NOW + 60 * MIN),
    );
    const notCurrent = shared({ current: undefined });
    expect(cache.view(rows[1]!, notCurrent, false, false, NOW).currentMark).toBe('');
  });

  it('shows the snippet and hit tag of the query the rows were found for', () => {
    const info = makeInfo({
      path: '/s/c.jsonl',
      firstMessage: 'plan',
      allMessagesText: 'plan then the flux capacitor design',
    });
    prepareTexts([info], Number.POSITIVE_INFINITY);
    const rowsQuery = parseQuery('flux', NOW);
    const [match] = searchSessions(createSearchIndex([info]), rowsQuery).matches;
    const row: Row = {
      info,
      prefix: '',
      depth: 0,
      score: match!.score,
      ...(match!.textHit ? { textHit: match!.textHit } : {}),
    };
    const ctx = shared({ rowsQuery });
    const view = new RowViewCache().view(row, ctx, false, false, NOW);
    expect(view.snippet?.match.toLowerCase()).toBe('flux');
    expect(view).toEqual(formatRowView(row, ctx, false, false, NOW));
  });
});
