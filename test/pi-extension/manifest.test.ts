/**
 * The npm package is also a pi package: a `pi` manifest naming one built extension, the
 * `pi-package` keyword, and an extension that needs nothing at run time beyond Node, its own
 * files and the package's own dependencies (pi's types are type-only imports: pi itself is not
 * one). Reads the committed bundle (`npm run compile` rebuilds it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  keywords?: string[];
  dependencies?: Record<string, string>;
  files?: string[];
  pi?: { extensions?: string[] };
};

/** Every module specifier a built file imports (static, dynamic and re-exports). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  // Minified (`import{a as b}from"node:fs"`) or not; `import "x"`; `import("x")`.
  for (const match of source.matchAll(
    /(?:^|[\s;}])(?:import|export)\s*(?:[\w*{$][^'"]*?from\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
  )) {
    found.push((match[1] ?? match[2])!);
  }
  return found;
}

describe('the pi package manifest', () => {
  it('names one extension, the built JS, shipped by `files`, with the pi-package keyword', () => {
    expect(pkg.keywords).toContain('pi-package');
    expect(pkg.pi?.extensions).toHaveLength(1);
    const extension = pkg.pi!.extensions![0]!;
    expect(extension).toMatch(/\.js$/);
    expect(existsSync(join(REPO_ROOT, extension)), `${extension} is missing: run npm run compile`).toBe(true);
    expect(pkg.files!.some((entry) => extension.replace(/^\.\//, '').startsWith(entry.replace(/^\.\//, '')))).toBe(
      true,
    );
  });

  it('the extension loads only Node built-ins, files of the package and its dependencies (nothing extra, not pi)', () => {
    const seen = new Set<string>();
    const outside: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('node:')) continue;
        if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
        else if (!Object.hasOwn(pkg.dependencies ?? {}, spec)) outside.push(`${file}: ${spec}`);
      }
    };
    const entry = join(REPO_ROOT, pkg.pi!.extensions![0]!);
    visit(entry);
    // It does run a program (the CLI beside it): the scan found its imports.
    expect(specifiers(readFileSync(entry, 'utf8'))).toContain('node:child_process');
    expect(outside).toEqual([]);
    expect(specifiers('import{a as b}from"ink";export*from"./x.js";import "y";await import("z")')).toEqual([
      'ink',
      './x.js',
      'y',
      'z',
    ]);
  });
});
