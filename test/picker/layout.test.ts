import { describe, expect, it } from 'vitest';
import {
  type ColumnContent,
  columnContent,
  computeLayout,
  formatRow,
  rightColumns,
  rowText,
} from '../../src/picker/layout.js';
import { displayWidth, truncateStart } from '../../src/text/terminal-text.js';
import { MIN, makeInfo, NOW } from './make-info.js';

describe('computeLayout', () => {
  it('root is rows-1; list = root - header(2) - footer(1) - dialog', () => {
    expect(computeLayout({ columns: 100, rows: 30 }, false)).toMatchObject({
      height: 29,
      listLines: 26,
      listWidth: 100,
    });
    expect(computeLayout({ columns: 100, rows: 30 }, false, 5).listLines).toBe(21);
  });
  it('preview beside the list when wide, below when narrow, dropped when tiny', () => {
    expect(computeLayout({ columns: 140, rows: 30 }, true).preview.position).toBe('side');
    const bottom = computeLayout({ columns: 80, rows: 30 }, true);
    expect(bottom.preview.position).toBe('bottom');
    expect(bottom.listLines + bottom.preview.lines).toBe(26);
    expect(computeLayout({ columns: 40, rows: 8 }, true).preview.position).toBe('none');
  });
});

describe('rows', () => {
  const info = makeInfo({
    path: '/home/u/.pi/s/1.jsonl',
    name: 'Parser 日本語 work',
    messageCount: 12,
    size: 1_300_000,
    ageMs: 2 * MIN,
    cwd: '/home/u/proj',
  });
  const content = (over: Partial<ColumnContent> = {}): ColumnContent => ({
    count: 2,
    cost: 5,
    cwd: 6,
    path: 20,
    anyLive: true,
    ...over,
  });
  const ctx = (width: number, showCwd = false, showPath = false, over: Partial<ColumnContent> = {}) => ({
    width,
    columns: rightColumns(width, { showCwd, showPath, content: content(over) }),
    selected: true,
    marked: true,
    nowMs: NOW,
    home: '/home/u',
  });

  it.each([100, 60, 40, 24])('is exactly %i columns wide', (width) => {
    const text = rowText(formatRow({ info, prefix: '   └─ ', depth: 1, score: 0 }, ctx(width, true, true)));
    expect(displayWidth(text)).toBe(width);
  });

  it('shows markers without colour and the whole right block when wide; the count says what it counts (every message, as pi counts)', () => {
    const text = rowText(formatRow({ info, prefix: '', depth: 0, score: 0 }, ctx(110, true)));
    expect(text.startsWith('›● ★ Parser 日本語 work')).toBe(true);
    expect(text).toMatch(/ ~\/proj ◉ live 12 msgs {2}1\.2 MB {3}2m$/);
    // At 100 columns the size would cut the title below its room: it is left to the preview.
    expect(rowText(formatRow({ info, prefix: '', depth: 0, score: 0 }, ctx(100, true)))).toMatch(
      / ~\/proj ◉ live 12 msgs {3}2m$/,
    );
  });

  it('sizes the columns to their content: no live column when nothing is live, the cwd as wide as the widest, the title gets the rest (~64 at 80 columns)', () => {
    const calm = rightColumns(80, { showCwd: false, showPath: false, content: content({ anyLive: false }) });
    expect(calm).toMatchObject({ live: false, count: 7, age: true, size: false, cwd: 0 });
    // Lead (3) + title + one space + right block: the title keeps 64 of 80 columns.
    expect(80 - 3 - 1 - calm.width).toBe(64);
    const view = formatRow(
      {
        info: makeInfo({ path: '/p', firstMessage: 'x'.repeat(100), userMessageCount: 12 }),
        prefix: '',
        depth: 0,
        score: 0,
      },
      { ...ctx(80, false, false, { anyLive: false }) },
    );
    expect(displayWidth(view.title)).toBe(64);
    expect(rightColumns(80, { showCwd: false, showPath: false, content: content({ anyLive: true }) }).live).toBe(true);
    // The cwd column is as wide as the widest cwd, not a fixed 32 or 42.
    const all = rightColumns(120, { showCwd: true, showPath: false, content: content({ cwd: 14, anyLive: false }) });
    expect(all.cwd).toBe(14);
    // The size only when the title still gets its room.
    expect(all.size).toBe(true);
  });

  it('measures the content of the rows: widest count and shown cwd, live only when one is', () => {
    const rows = [
      {
        info: makeInfo({ path: '/a', cwd: '/home/u/a', messageCount: 3, ageMs: 30 * MIN }),
        prefix: '',
        depth: 0,
        score: 0,
      },
      {
        info: makeInfo({ path: '/b', cwd: '/srv/long/project', messageCount: 120, ageMs: 30 * MIN }),
        prefix: '',
        depth: 0,
        score: 0,
      },
    ];
    expect(columnContent(rows, { home: '/home/u', nowMs: NOW, cwd: true, path: false })).toEqual({
      count: 3,
      cost: 5,
      cwd: 17,
      path: 0,
      anyLive: false,
    });
    const live = [...rows, { info: makeInfo({ path: '/c', ageMs: MIN }), prefix: '', depth: 0, score: 0 }];
    expect(columnContent(live, { home: '/home/u', nowMs: NOW, cwd: false, path: false }).anyLive).toBe(true);
  });

  it('marks the session pi is in (--current) before the title, still exactly the width', () => {
    for (const width of [100, 60, 40, 24]) {
      const view = formatRow({ info, prefix: '', depth: 0, score: 0 }, { ...ctx(width), current: true });
      expect(displayWidth(rowText(view))).toBe(width);
      if (width >= 60) expect(rowText(view).startsWith('›● [current] ★ Parser')).toBe(true);
    }
    expect(formatRow({ info, prefix: '', depth: 0, score: 0 }, ctx(100)).currentMark).toBe('');
  });

  it('drops size first, then cwd, keeping age on narrow terminals', () => {
    const narrow = rightColumns(40, { showCwd: true, showPath: false, content: content() });
    expect(narrow).toMatchObject({ age: true, size: false });
    const mid = rightColumns(60, { showCwd: true, showPath: false, content: content() });
    expect(mid).toMatchObject({ age: true, live: true, count: 7, size: false });
    expect(mid.cwd).toBeGreaterThan(0);
    const tiny = rightColumns(24, { showCwd: true, showPath: false, content: content() });
    expect(tiny).toMatchObject({ age: true, cwd: 0, size: false });
  });

  it('sorted by size or cost, that figure is on the row at 80 and 120 columns', () => {
    const costly = makeInfo({ path: '/c', firstMessage: 'x'.repeat(100), messageCount: 1, size: 5_000_000 });
    const withCost = { ...costly, usage: { ...costly.usage, cost: 12.5 } };
    const row = { info: withCost, prefix: '', depth: 0, score: 0 };
    for (const width of [80, 120]) {
      const over = { anyLive: false, cost: 6 };
      const plain = rightColumns(width, { showCwd: true, showPath: false, content: content(over) });
      const bySize = rightColumns(width, { showCwd: true, showPath: false, content: content(over), figure: 'size' });
      const byCost = rightColumns(width, { showCwd: true, showPath: false, content: content(over), figure: 'cost' });
      expect({ width, size: bySize.size, cost: byCost.cost }).toEqual({ width, size: true, cost: 6 });
      if (width === 80) expect(plain.size).toBe(false);
      const base = { width, selected: false, marked: false, nowMs: NOW, home: '/home/u' };
      expect(rowText(formatRow(row, { ...base, columns: bySize }))).toMatch(/ 1 msg {3}4\.8 MB +\S+$/);
      expect(rowText(formatRow(row, { ...base, columns: byCost }))).toMatch(/ 1 msg .*\$12\.50 +\S+$/);
      expect(displayWidth(rowText(formatRow(row, { ...base, columns: byCost })))).toBe(width);
    }
  });

  it('makes control characters harmless', () => {
    const evil = makeInfo({ path: '/x', firstMessage: 'hi\u001b[31mred\u0007\nnext' });
    const text = rowText(formatRow({ info: evil, prefix: '', depth: 0, score: 0 }, ctx(80)));
    expect(text).not.toMatch(/[\u0000-\u001f]/);
    expect(text).toContain('hi␛[31mred\\x07 next');
  });

  it('fits a snippet with the match visible', () => {
    const view = formatRow(
      { info, prefix: '', depth: 0, score: 0 },
      { ...ctx(80), snippet: { before: `${'a'.repeat(200)} `, match: 'needle', after: ' tail text' } },
    );
    expect(view.snippet?.match).toBe('needle');
    expect(view.snippet?.before.startsWith('…')).toBe(true);
    expect(displayWidth(rowText(view))).toBe(80);
  });

  it('shows where the hits are before the snippet, giving way to the match on a narrow row', () => {
    const snippet = { before: 'we tried ', match: 'zebra', after: ' on a branch' };
    const wide = formatRow(
      { info, prefix: '', depth: 0, score: 0 },
      { ...ctx(120), snippet, hitTag: { full: '1 abandoned · 3 active', short: 'abandoned' } },
    );
    expect(rowText(wide)).toContain(' · 1 abandoned · 3 active: we tried zebra on a branch');
    expect(displayWidth(rowText(wide))).toBe(120);
    const narrow = formatRow(
      { info, prefix: '', depth: 0, score: 0 },
      { ...ctx(80), snippet, hitTag: { full: '12 abandoned · 31 active · 2 compacted', short: 'abandoned' } },
    );
    expect(narrow.snippet?.match).toBe('zebra');
    expect(narrow.snippet?.tag).toBe('abandoned: ');
    expect(displayWidth(rowText(narrow))).toBe(80);
  });

  it('truncateStart keeps the tail', () => {
    expect(truncateStart('/a/b/c/d.jsonl', 8)).toBe('…d.jsonl');
  });
});
