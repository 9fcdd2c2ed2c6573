/**
 * The patch files and their reader (scripts/apply-patch.mjs): each patch opens with a comment on
 * why its hunks exist, which the reader skips however its lines begin (a comment line starting
 * with `-`, `+` or a space must never become part of a hunk); a hunk is exactly the lines its
 * header counts; and each patched package is pinned in package.json to the version its patch file
 * is named after, which is the version the lockfile installs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

interface Hunk {
  oldStart: number;
  remove: string[];
  add: string[];
}
interface Patches {
  PATCHES_DIR: string;
  loadPatches(dir?: string): Map<string, { patch: string; hunks: Hunk[] }>;
}

let patches: Patches;
let work: string;

beforeAll(async () => {
  patches = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'apply-patch.mjs')).href)) as Patches;
  work = mkdtempSync(join(tmpdir(), 'pi-sessions-patch-files-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function load(text: string): Map<string, { patch: string; hunks: Hunk[] }> {
  const dir = mkdtempSync(join(work, 'p-'));
  writeFileSync(join(dir, 'pkg+1.0.0.patch'), text);
  return patches.loadPatches(dir);
}

const TWO_FILES = [
  'diff --git a/node_modules/pkg/a.js b/node_modules/pkg/a.js',
  '--- a/node_modules/pkg/a.js',
  '+++ b/node_modules/pkg/a.js',
  '@@ -2,3 +2,3 @@',
  ' one',
  '-two',
  '+TWO',
  ' three',
  'diff --git a/node_modules/pkg/b.js b/node_modules/pkg/b.js',
  '--- a/node_modules/pkg/b.js',
  '+++ b/node_modules/pkg/b.js',
  '@@ -1 +1,2 @@',
  ' x',
  '+y',
  '',
].join('\n');

describe('the patch reader', () => {
  it('skips a comment before the first file and between files, whatever its lines start with', () => {
    const plain = load(TWO_FILES);
    const comment = ['Why: a comment.', '- a list item', '+ another', '  indented text', '@ not a header', ''].join(
      '\n',
    );
    const commented = load(
      comment + TWO_FILES.replace('diff --git a/node_modules/pkg/b.js', `${comment}diff --git a/node_modules/pkg/b.js`),
    );
    expect([...commented]).toEqual([...plain]);
    expect(plain.get('node_modules/pkg/a.js')!.hunks).toEqual([
      { oldStart: 2, remove: ['one', 'two', 'three'], add: ['one', 'TWO', 'three'] },
    ]);
    expect(plain.get('node_modules/pkg/b.js')!.hunks).toEqual([{ oldStart: 1, remove: ['x'], add: ['x', 'y'] }]);
  });

  it('refuses a hunk shorter or longer than its header says', () => {
    expect(() => load(TWO_FILES.replace('@@ -1 +1,2 @@', '@@ -1 +1,3 @@'))).toThrow(/cut short/);
    expect(() => load(TWO_FILES.replace('@@ -2,3 +2,3 @@', '@@ -2,2 +2,3 @@'))).toThrow(/longer|ends early/);
  });
});

describe('the patch files', () => {
  const files = readdirSync(join(REPO_ROOT, 'patches')).filter((name) => name.endsWith('.patch'));
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version: string }>;
  };

  it.each(files)('%s: its package is pinned exactly to its version, the one the lockfile installs', (file) => {
    const [, name, version] = /^(.+)\+(\d+\.\d+\.\d+)\.patch$/.exec(file)!;
    expect(pkg.devDependencies[name!]).toBe(version);
    expect(lock.packages[`node_modules/${name}`]!.version).toBe(version);
  });

  it.each(files)('%s: opens with a comment that says why for every patched file', (file) => {
    const text = readFileSync(join(REPO_ROOT, 'patches', file), 'utf8');
    const header = text.slice(0, text.indexOf('\ndiff --git '));
    expect(header.length).toBeGreaterThan(200);
    expect(header).toMatch(/[Gg]oes when/);
    for (const patched of patches.loadPatches().keys()) {
      if (patches.loadPatches().get(patched)!.patch !== file) continue;
      expect(header).toContain(patched.split('/').pop());
    }
  });
});
