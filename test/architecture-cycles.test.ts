/**
 * No module of the product imports itself back, even through types only: a cycle means none of
 * its modules can be read, moved or tested without the others. The graph is the project's own
 * (src/ and components/), every kind of import and re-export included.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/corpus.js';
import { cyclicComponents, type ImportGraph, importCycles, importGraph } from './helpers/import-graph.js';

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe('the cycle finder', () => {
  it('finds nothing in a graph without cycles', () => {
    const graph = graphOf({ a: ['b', 'c'], b: ['c'], c: [] });
    expect(cyclicComponents(graph)).toEqual([]);
    expect(importCycles(graph)).toEqual([]);
  });

  it('lists every elementary cycle once, from its first module, and self-imports', () => {
    const graph = graphOf({
      a: ['b'],
      b: ['c', 'a'],
      c: ['a', 'd'],
      d: ['d'],
      e: ['a'],
    });
    expect(cyclicComponents(graph)).toEqual([['a', 'b', 'c'], ['d']]);
    expect(importCycles(graph)).toEqual(['a → b → a', 'a → b → c → a', 'd → d']);
  });

  it('stops spelling cycles out at the limit', () => {
    // A complete graph on 6 modules holds hundreds of elementary cycles.
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const graph = graphOf(Object.fromEntries(names.map((n) => [n, names.filter((m) => m !== n)])));
    expect(importCycles(graph, 10)).toHaveLength(10);
    expect(cyclicComponents(graph)).toEqual([names]);
  });
});

describe('the import graph', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cycles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  };

  it('follows type-only imports, re-exports and import(), resolving .js to .ts and .tsx', () => {
    write('src/a.ts', "import type { B } from './b.js';\nexport type A = B;\n");
    write('src/b.ts', "export { c } from '../components/c.js';\nexport type B = number;\n");
    write(
      'components/c.tsx',
      "import { readFileSync } from 'node:fs';\nexport const c = () => import('../src/a.js');\n",
    );
    write('src/lone.ts', "import React from 'react';\nexport const r = React;\n");
    const graph = importGraph(scratch, ['src', 'components']);
    expect(Object.fromEntries(graph)).toEqual({
      'src/a.ts': ['src/b.ts'],
      'src/b.ts': ['components/c.tsx'],
      'components/c.tsx': ['src/a.ts'],
      'src/lone.ts': [],
    });
    expect(importCycles(graph)).toEqual(['components/c.tsx → src/a.ts → src/b.ts → components/c.tsx']);
  });
});

describe('the product', () => {
  it('has no import cycles, type-only ones included', () => {
    const graph = importGraph(REPO_ROOT, ['src', 'components']);
    expect(graph.size).toBeGreaterThan(100);
    expect(importCycles(graph)).toEqual([]);
  });
});
