/**
 * Comments say why in place: none cites an issue by its number, which a reader of the
 * repository cannot look up (the issues are not in it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

function sources(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file) && !file.includes('fixtures'))
    .map((file) => join(dir, file));
}

describe('comments', () => {
  it('cite no issue by number', () => {
    const cited: string[] = [];
    for (const file of ['src', 'components', 'test', 'scripts'].flatMap(sources)) {
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\bissues? #?\d+/i.test(line)) cited.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(cited).toEqual([]);
  });
});
