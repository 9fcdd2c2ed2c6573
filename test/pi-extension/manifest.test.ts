/**
 * The npm package is also a pi package: a `pi` manifest naming one built extension, the
 * `pi-package` keyword, and an extension that needs nothing at run time beyond Node, its own
 * files and the package's own dependencies (pi's types are type-only imports: pi itself is not
 * one). Reads the build (`npm run build` first, as for the other CLI tests).
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
  for (const match of source.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

describe('the pi package manifest', () => {
  it('names one extension, the built JS, shipped by `files`, with the pi-package keyword', () => {
    expect(pkg.keywords).toContain('pi-package');
    expect(pkg.pi?.extensions).toHaveLength(1);
    const extension = pkg.pi!.extensions![0]!;
    expect(extension).toMatch(/\.js$/);
    expect(existsSync(join(REPO_ROOT, extension)), `${extension} is missing: run npm run build`).toBe(true);
    expect(pkg.files!.some((entry) => extension.replace(/^\.\//, '').startsWith(entry.replace(/^\.\//, '')))).toBe(true);
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
    visit(join(REPO_ROOT, pkg.pi!.extensions![0]!));
    expect(seen.size).toBeGreaterThan(2);
    expect(outside).toEqual([]);
  });
});
