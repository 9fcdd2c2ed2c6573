import { describe, expect, it } from 'vitest';
import { computeLayout, formatRow, rightColumns, rowText, truncateStart } from '../../src/picker/layout.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { makeInfo, MIN, NOW } from './make-info.js';

describe('computeLayout', () => {
  it('root is rows-1; list = root - header(2) - footer(1) - dialog', () => {
    expect(computeLayout({ columns: 100, rows: 30 }, false)).toMatchObject({ height: 29, listLines: 26, listWidth: 100 });
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
  const info = makeInfo({ path: '/home/u/.pi/s/1.jsonl', name: 'Parser 日本語 work', userMessageCount: 12, size: 1_300_000, ageMs: 2 * MIN, cwd: '/home/u/proj' });
  const ctx = (width: number, showCwd = false, showPath = false) => ({ width, columns: rightColumns(width, { showCwd, showPath }), selected: true, marked: true, nowMs: NOW, home: '/home/u' });

  it.each([100, 60, 40, 24])('is exactly %i columns wide', (width) => {
    const text = rowText(formatRow({ info, prefix: '   └─ ', depth: 1, score: 0 }, ctx(width, true, true)));
    expect(displayWidth(text)).toBe(width);
  });

  it('shows markers without colour and the whole right block when wide', () => {
    const text = rowText(formatRow({ info, prefix: '', depth: 0, score: 0 }, ctx(100, true)));
    expect(text.startsWith('›● ★ Parser 日本語 work')).toBe(true);
    expect(text).toMatch(/~\/proj\s+◉ live\s+12 turns\s+1\.2 MB\s+2m$/);
  });

  it('marks the session pi is in (--current) before the title, still exactly the width', () => {
    for (const width of [100, 40, 24]) {
      const view = formatRow({ info, prefix: '', depth: 0, score: 0 }, { ...ctx(width), current: true });
      expect(displayWidth(rowText(view))).toBe(width);
      if (width >= 40) expect(rowText(view).startsWith('›● [current] ★ Parser')).toBe(true);
    }
    expect(formatRow({ info, prefix: '', depth: 0, score: 0 }, ctx(100)).currentMark).toBe('');
  });

  it('drops size first, then cwd, keeping age on narrow terminals', () => {
    const narrow = rightColumns(40, { showCwd: true, showPath: false });
    expect(narrow).toMatchObject({ age: true, size: false, cwd: 0 });
    const mid = rightColumns(60, { showCwd: true, showPath: false });
    expect(mid).toMatchObject({ age: true, live: true, count: true, size: false });
    expect(mid.cwd).toBeGreaterThan(0);
  });

  it('makes control characters harmless', () => {
    const evil = makeInfo({ path: '/x', firstMessage: 'hi\u001b[31mred\u0007\nnext' });
    const text = rowText(formatRow({ info: evil, prefix: '', depth: 0, score: 0 }, ctx(80)));
    expect(text).not.toMatch(/[\u0000-\u001f]/);
    expect(text).toContain('hi␛[31mred\\x07 next');
  });

  it('fits a snippet with the match visible', () => {
    const view = formatRow({ info, prefix: '', depth: 0, score: 0 }, { ...ctx(80), snippet: { before: 'a'.repeat(200) + ' ', match: 'needle', after: ' tail text' } });
    expect(view.snippet?.match).toBe('needle');
    expect(view.snippet?.before.startsWith('…')).toBe(true);
    expect(displayWidth(rowText(view))).toBe(80);
  });

  it('shows where the hits are before the snippet, giving way to the match on a narrow row', () => {
    const snippet = { before: 'we tried ', match: 'zebra', after: ' on a branch' };
    const wide = formatRow({ info, prefix: '', depth: 0, score: 0 }, { ...ctx(120), snippet, hitTag: { full: '1 abandoned · 3 active', short: 'abandoned' } });
    expect(rowText(wide)).toContain(' · 1 abandoned · 3 active: we tried zebra on a branch');
    expect(displayWidth(rowText(wide))).toBe(120);
    const narrow = formatRow({ info, prefix: '', depth: 0, score: 0 }, { ...ctx(80), snippet, hitTag: { full: '12 abandoned · 31 active · 2 compacted', short: 'abandoned' } });
    expect(narrow.snippet?.match).toBe('zebra');
    expect(narrow.snippet?.tag).toBe('abandoned: ');
    expect(displayWidth(rowText(narrow))).toBe(80);
  });

    it('truncateStart keeps the tail', () => {
    expect(truncateStart('/a/b/c/d.jsonl', 8)).toBe('…d.jsonl');
  });
});
