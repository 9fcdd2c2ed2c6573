/**
 * Deep trees in narrow terminals: every drawn row pans by the same offset (pi's rule), so the
 * tree lines stay true. pi 1.6.0's real tree component is the oracle: the same file, width and
 * keys must give the same rows, but for our leaf marker (◆ where pi draws •), the `…` that marks
 * a panned body in its first column, and the `…` that ends a cut row.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { InputRouter } from '../../components/common/input-router.js';
import { rowBody, rowSegments } from '../../components/tree/TreeRow.js';
import { TreeScreen } from '../../components/tree/TreeScreen.js';
import type { SessionEntry } from '../../src/store/types.js';
import { displayWidth } from '../../src/text/terminal-text.js';
import { displayOf, flattenTree, rowAt } from '../../src/tree/flatten.js';
import { panOffset } from '../../src/tree/pan.js';
import { tempDir } from '../helpers/factory.js';
import { KEYS, renderInk } from '../helpers/ink.js';
import { piTreeRows } from '../helpers/pi-tree.js';
import { resetClock, treeOf, user } from './helpers.js';

/** A chain of eight branch points, each first child branching again; the leaf is the deepest first child. */
function deepSession(): SessionEntry[] {
  resetClock();
  const entries = [user('r', null, 'root message')];
  let parent = 'r';
  for (let d = 0; d < 8; d++) {
    entries.push(user(`a${d}`, parent, `branch ${d} first child with quite some text`));
    entries.push(user(`b${d}`, parent, `branch ${d} second child`));
    parent = `a${d}`;
  }
  return entries;
}

const dir = tempDir('tree-pan-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeSession(entries: SessionEntry[]): string {
  const path = join(dir, `deep-${Math.random().toString(36).slice(2)}.jsonl`);
  const header = { type: 'session', version: 3, id: 'deep', timestamp: '2026-02-05T10:00:00.000Z', cwd: dir };
  writeFileSync(path, `${[header, ...entries].map((e) => JSON.stringify(e)).join('\n')}\n`);
  return path;
}

/** Our list rows: the lines between the query line and the `(i/N)` counter. */
function ourRows(frame: string): string[] {
  const lines = frame.split('\n').map((line) => line.trimEnd());
  const start = lines.findIndex((line) => line.startsWith('Type to search'));
  const end = lines.findIndex((line) => /^\(\d+\/\d+\)/.test(line));
  // The list box has a fixed height: the rows below the last are blank.
  return lines.slice(start + 1, end).filter((line) => line !== '');
}

/** Our row in pi's terms: pi's path marker for the leaf, pi's column for our pan marker, pi's hard cut. */
function asPi(ours: string, pi: string, width: number): { ours: string; pi: string } {
  let o = ours.replace('◆', '•');
  let p = pi;
  if (o[2] === '…') {
    o = o.slice(0, 2) + o.slice(3);
    p = p.slice(0, 2) + p.slice(3);
  }
  if (displayWidth(ours) === width && ours.endsWith('…')) {
    o = o.slice(0, -1);
    p = p.slice(0, o.length);
  }
  return { ours: o, pi: p };
}

describe('panOffset (pi’s renderHorizontalViewport rule)', () => {
  test('no pan while the selected row’s text starts early enough', () => {
    expect(panOffset([{ anchor: 20, width: 90 }], { anchor: 20, width: 90 }, 40)).toBe(0);
    // 38-column viewport: the text must start at most 38 - 12 = 26 columns in.
    expect(panOffset([{ anchor: 26, width: 90 }], { anchor: 26, width: 90 }, 40)).toBe(0);
  });

  test('pans the selected text to clamp(viewport/4, 2..12) from the left, bounded by the widest row', () => {
    expect(panOffset([{ anchor: 27, width: 90 }], { anchor: 27, width: 90 }, 40)).toBe(27 - 9);
    expect(panOffset([{ anchor: 27, width: 45 }], { anchor: 27, width: 45 }, 40)).toBe(45 - 38);
    expect(panOffset([], undefined, 40)).toBe(0);
  });

  test('every row of a panned layout keeps its gutter columns: the `│` of a level sits in one column', () => {
    const layout = flattenTree(treeOf(deepSession()));
    const width = 30;
    const inputs = Array.from({ length: layout.count }, (_, i) => {
      const row = rowAt(layout, i)!;
      return { row, display: displayOf(layout.forest.index, row.num), selected: row.isLeaf, width, tokens: [] };
    });
    const bodies = inputs.map((input) => rowBody(input));
    const pan = panOffset(
      bodies,
      bodies.find((_, i) => inputs[i]!.selected),
      width,
    );
    expect(pan).toBeGreaterThan(0);
    const lines = inputs.map((input, i) =>
      rowSegments({ ...input, pan }, bodies[i])
        .map((s) => s.text)
        .join(''),
    );
    for (const line of lines) {
      expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(line.slice(2, 3)).toBe('…');
    }
    // Unpanned, the level-L gutter of every row is at column 2 + 3L; panned, at 2 + 3L - pan.
    const unpanned = inputs.map((input) =>
      rowSegments(input)
        .map((s) => s.text)
        .join(''),
    );
    lines.forEach((line, i) => {
      for (let col = 3; col < line.length; col++) {
        const ch = line[col]!;
        if ('│├└'.includes(ch)) expect(unpanned[i]![col + pan]).toBe(ch);
      }
    });
  });
});

describe('the tree in a narrow terminal, side by side with pi 1.6.0', () => {
  const cases: { width: number; keys: string[]; pans: boolean }[] = [
    { width: 30, keys: [], pans: true },
    { width: 36, keys: [], pans: true },
    { width: 30, keys: [KEYS.up, KEYS.up], pans: true },
    { width: 30, keys: [KEYS.down], pans: true },
    { width: 30, keys: [KEYS.down, KEYS.down, KEYS.down], pans: false },
    { width: 30, keys: Array<string>(8).fill(KEYS.up), pans: false },
    { width: 60, keys: [], pans: false },
  ];
  test.each(cases)(
    '$width columns after $keys.length keys: the same rows as pi (pans: $pans)',
    async ({ width, keys, pans }) => {
      const path = writeSession(deepSession());
      const pi = await piTreeRows(
        path,
        width,
        keys.map((k) => k),
      );
      const app = renderInk(
        <InputRouter>
          <TreeScreen path={path} live={false} onBack={() => {}} onExit={() => {}} />
        </InputRouter>,
        { columns: width, rows: 30 },
      );
      await app.waitFor('(9/17)');
      await app.settle();
      for (const key of keys) await app.press(key);
      await app.settle();
      const ours = ourRows(app.lastFrame());
      expect(ours).toHaveLength(pi.length);
      expect(ours.every((row) => row[2] === '…')).toBe(pans);
      ours.forEach((row, i) => {
        const pair = asPi(row, pi[i]!, width);
        expect(pair.ours, `row ${i}`).toBe(pair.pi);
      });
    },
  );
});
