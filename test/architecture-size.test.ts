/**
 * No source file is over 400 lines (the house rule, test files and scripts included): a file that
 * long does several jobs, and splits along the sections it already has. Lines are counted as
 * `wc -l` counts them for a file that ends in a newline; the failure names every file over.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/corpus.js';

const MAX_LINES = 400;
const SOURCE_DIRS = ['src', 'components', 'test', 'scripts'] as const;
const SOURCE_FILE = /\.(ts|tsx|mjs)$/;

/** Lines as an editor numbers them: a last line without its newline still counts, an empty file has none. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** `path: N lines` for each file over `max` lines, longest first. */
function oversized(files: readonly { path: string; text: string }[], max: number): string[] {
  return files
    .map(({ path, text }) => ({ path, lines: lineCount(text) }))
    .filter(({ lines }) => lines > max)
    .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path))
    .map(({ path, lines }) => `${path}: ${lines} lines`);
}

/** Every .ts, .tsx and .mjs file under the source folders, its path relative to the repository. */
function sourceFiles(root: string): { path: string; text: string }[] {
  return SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && SOURCE_FILE.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((file) => !file.split(/[\\/]/).includes('node_modules'))
      .map((file) => ({ path: relative(root, file).split('\\').join('/'), text: readFileSync(file, 'utf8') })),
  );
}

const linesOf = (n: number, end = '\n'): string =>
  `${Array.from({ length: n }, (_, i) => `line ${i}`).join('\n')}${end}`;

describe('the size check', () => {
  it('counts lines as wc -l does, and a last line without its newline', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('\n')).toBe(1);
    expect(lineCount('a')).toBe(1);
    expect(lineCount(linesOf(3))).toBe(3);
    expect(lineCount(linesOf(3, ''))).toBe(3);
    expect(lineCount('a\n\n')).toBe(2);
  });

  it('names a 401-line file and lets 400 lines through, with or without the last newline', () => {
    const files = [
      { path: 'src/at-limit.ts', text: linesOf(400) },
      { path: 'src/at-limit-no-newline.ts', text: linesOf(400, '') },
      { path: 'test/over.test.ts', text: linesOf(401) },
      { path: 'scripts/over-no-newline.mjs', text: linesOf(401, '') },
      { path: 'components/far-over.tsx', text: linesOf(950) },
    ];
    expect(oversized(files, MAX_LINES)).toEqual([
      'components/far-over.tsx: 950 lines',
      'scripts/over-no-newline.mjs: 401 lines',
      'test/over.test.ts: 401 lines',
    ]);
  });
});

describe('the project', () => {
  it(`has no source file over ${MAX_LINES} lines under ${SOURCE_DIRS.join('/, ')}/`, () => {
    const files = sourceFiles(REPO_ROOT);
    // The walk found the project (and so this very file), not an empty folder.
    expect(files.length).toBeGreaterThan(400);
    expect(files.map((f) => f.path)).toContain('test/architecture-size.test.ts');
    expect(files.map((f) => f.path)).toContain('scripts/bundle.mjs');
    expect(oversized(files, MAX_LINES)).toEqual([]);
  });
});
