/** The chart primitives: eighth-block bars, sparklines, and labelled bars that fit a width. */
import { describe, expect, it } from 'vitest';
import { bar, barRows, fitLine, lineText, SPARK_LEVELS, sparkline } from '../../src/stats/chart.js';
import { displayWidth } from '../../src/text/terminal-text.js';

describe('bar', () => {
  it('draws value/max of the width in eighths of a cell', () => {
    expect(bar(10, 10, 5)).toBe('█████');
    expect(bar(5, 10, 10)).toBe('█████');
    expect(bar(1, 8, 1)).toBe('▏');
    expect(bar(3, 8, 1)).toBe('▍');
    expect(bar(7, 8, 1)).toBe('▉');
    expect(bar(9, 16, 2)).toBe('█▏');
  });

  it('never draws a positive value as nothing, nor more than the width', () => {
    expect(bar(1e-9, 1000, 10)).toBe('▏');
    expect(bar(50, 10, 4)).toBe('████');
    for (let width = 1; width <= 30; width++)
      for (const value of [0.1, 1, 3.3, 7, 10]) expect(displayWidth(bar(value, 10, width))).toBeLessThanOrEqual(width);
  });

  it('draws nothing for zero, negative, non-numbers, a zero max or no room', () => {
    for (const [value, max, width] of [
      [0, 10, 5],
      [-1, 10, 5],
      [Number.NaN, 10, 5],
      [5, 0, 5],
      [5, Number.NaN, 5],
      [5, 10, 0],
      [Infinity, Infinity, 5],
    ])
      expect(bar(value!, max!, width!)).toBe('');
  });
});

describe('sparkline', () => {
  it('one character per value, the largest a full block, zero a gap', () => {
    expect(sparkline([])).toBe('');
    expect(sparkline([0])).toBe(' ');
    expect(sparkline([42])).toBe('█');
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe(SPARK_LEVELS);
    expect(sparkline([0, 8, 0, 1])).toBe(' █ ▁');
    expect(sparkline([-3, Number.NaN, 2])).toBe('  █');
  });

  it('the smallest positive value is still visible next to a huge one', () => {
    expect(sparkline([1e-6, 1e6])).toBe('▁█');
  });
});

describe('barRows', () => {
  const rows = [
    { label: 'webshop', value: 12.5, text: '$12.50  1.2M' },
    { label: 'a-much-longer-project-name-that-will-not-fit', value: 1, text: '$1.00   90k' },
    { label: '日本語のプロジェクト', value: 0, text: '$0.00     0' },
  ];

  it('every line fits the width, and the figures end in one column', () => {
    for (const columns of [20, 33, 40, 80, 120, 200]) {
      const lines = barRows(rows, columns).map(lineText);
      for (const line of lines) expect(displayWidth(line), `${columns}: ${line}`).toBeLessThanOrEqual(columns);
      const ends = new Set(lines.map((l) => displayWidth(l)));
      expect(ends.size, `${columns}: ${lines.join('\n')}`).toBe(1);
      for (const [i, row] of rows.entries()) expect(lines[i]!.endsWith(row.text)).toBe(true);
    }
  });

  it('the largest value has the longest bar; a zero row has none', () => {
    const lines = barRows(rows, 80).map(lineText);
    const blocks = (line: string): number => [...line].filter((c) => '█▉▊▋▌▍▎▏'.includes(c)).length;
    expect(blocks(lines[0]!)).toBeGreaterThan(blocks(lines[1]!));
    expect(blocks(lines[1]!)).toBeGreaterThan(0);
    expect(blocks(lines[2]!)).toBe(0);
  });

  it('cuts long labels with …, from the left when asked (a path keeps its tail)', () => {
    const [line] = barRows(
      [{ label: '/home/dev/code/a-very-long-folder/webshop', value: 1, text: '$1.00', cutStart: true }],
      60,
    ).map(lineText);
    expect(line).toMatch(/^…[^ ]*webshop /);
    const [end] = barRows([{ label: '/home/dev/code/a-very-long-folder/webshop', value: 1, text: '$1.00' }], 60).map(
      lineText,
    );
    expect(end).toMatch(/^\/home\/dev\/[^ ]*… /);
  });

  it('drops the bar when there is no room for one, and keeps the figures', () => {
    const [line] = barRows([{ label: 'project', value: 1, text: '$1.00  12.3k' }], 20).map(lineText);
    expect(line).toBe('proje…  $1.00  12.3k');
    expect(displayWidth(line!)).toBeLessThanOrEqual(20);
  });

  it('nothing for no rows; one row has a full bar', () => {
    expect(barRows([], 80)).toEqual([]);
    const [line] = barRows([{ label: 'x', value: 3, text: '$3.00' }], 30).map(lineText);
    expect(line).toBe(`x  ${'█'.repeat(20)}  $3.00`);
  });
});

describe('fitLine', () => {
  it('cuts styled segments at the edge with …', () => {
    const line = fitLine([{ text: 'abc ', style: 'heading' }, { text: 'defgh' }], 6);
    expect(lineText(line)).toBe('abc d…');
    expect(line[0]!.style).toBe('heading');
    expect(fitLine([{ text: 'ok' }], 6)).toEqual([{ text: 'ok' }]);
  });
});
