/**
 * The `?` help of every screen fits the width it is drawn at: each description wraps at words in
 * the column after its keys (continuation rows have no keys), none is cut short with "…", no line
 * is wider than the screen, and every key and every word of every description is shown, at 80 and
 * at 120 columns. The reducers scroll over the same wrapped lines the overlay draws.
 */
import { describe, expect, it } from 'vitest';
import { HelpOverlay } from '../../components/common/HelpOverlay.js';
import { type HelpSection, helpLines } from '../../src/keymap/help-view.js';
import { helpRows, type KeyBinding } from '../../src/keymap/keymap.js';
import { LABELS_BINDINGS } from '../../src/labels/keymap.js';
import { PICKER_BINDINGS, PICKER_MODE_TITLES } from '../../src/picker/keymap.js';
import { SEARCH_HELP } from '../../src/picker/query-syntax.js';
import { STATS_BINDINGS } from '../../src/stats/keymap.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { TREE_BINDINGS, TREE_MODE_TITLES } from '../../src/tree/keymap.js';
import { renderInk } from '../helpers/ink.js';

const SCREENS: [string, readonly KeyBinding<string>[], Readonly<Record<string, string>>, readonly HelpSection[]][] = [
  ['picker', PICKER_BINDINGS, PICKER_MODE_TITLES, SEARCH_HELP],
  ['tree', TREE_BINDINGS, TREE_MODE_TITLES, []],
  ['labels', LABELS_BINDINGS, {}, []],
  ['stats', STATS_BINDINGS, {}, []],
];

const words = (text: string): string[] => text.split(/\s+/).filter((w) => w !== '');

describe.each([80, 120])('the ? help at %i columns', (columns) => {
  it.each(SCREENS)(
    '%s: every description whole, wrapped at words, within the width',
    async (_name, bindings, titles, extra) => {
      const lines = helpLines(bindings, titles, extra, columns);
      const height = lines.length + 3;
      const app = renderInk(
        <HelpOverlay bindings={bindings} modeTitles={titles} extra={extra} width={columns} height={height} />,
        { columns, rows: height + 1 },
      );
      const frame = await app.waitFor('Esc / ? close');
      const shown = frame.split('\n');
      for (const line of shown) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
      const flowing = words(frame).join(' ');
      const rows = [
        ...helpRows(bindings).flatMap((section) => section.rows),
        ...extra.flatMap((section) => section.rows),
      ];
      // No "…" but the ones the texts have: nothing is cut short.
      const ellipses = (text: string): number => text.split('…').length - 1;
      expect(ellipses(frame)).toBe(ellipses(rows.map((row) => row.description).join(' ')));
      for (const row of rows) {
        expect(frame).toContain(row.keys);
        expect(flowing).toContain(words(row.description).join(' '));
      }
    },
  );
});

describe('wrapped help lines', () => {
  it('continue a description on rows without keys, in the description column', () => {
    const lines = helpLines(PICKER_BINDINGS, PICKER_MODE_TITLES, SEARCH_HELP, 60);
    const wrapped = lines.findIndex((line, i) => line.kind === 'row' && line.keys === '' && i > 0);
    expect(wrapped).toBeGreaterThan(0);
    const before = lines[wrapped - 1]!;
    expect(before.kind).toBe('row');
    // Wider than the screen would be one line; each part fits the column after the keys.
    for (const line of lines) if (line.kind === 'row') expect(displayWidth(line.description)).toBeLessThanOrEqual(60);
  });
});
