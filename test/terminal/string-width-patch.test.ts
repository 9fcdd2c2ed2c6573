/**
 * patches/string-width+8.3.0.patch, as the bundler applies it (scripts/apply-patch.mjs): its second
 * fast path (strings of lone narrow characters: Latin, Greek, Cyrillic, punctuation, arrows, box
 * drawing…) gives exactly string-width's own answer, for every candidate character alone, next to
 * a combining mark, a joiner or a variation selector, and for random mixes with emoji, CJK, Hangul
 * jamo, controls and escape sequences, under both ambiguous-width settings. It applies to the
 * string-width ink uses and to no other copy (wrap-ansi's nested 7.2.0 is left alone).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

interface Patches {
  loadPatches(): Map<string, { patch: string; hunks: unknown[] }>;
  applyHunks(source: string, entry: { patch: string; hunks: unknown[] }, file: string): string;
  patchedSource(absolutePath: string): string | undefined;
}
type Width = (s: string, options?: { ambiguousIsNarrow?: boolean }) => number;

const FILE = 'node_modules/string-width/index.js';
const PACKAGE = join(REPO_ROOT, 'node_modules', 'string-width');
let work: string;
let patches: Patches;
let original: Width;
let patched: Width;

async function load(name: string, source: string): Promise<Width> {
  const result = await build({
    stdin: { contents: source, resolveDir: PACKAGE, sourcefile: name, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const file = join(work, `${name}.mjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  return ((await import(pathToFileURL(file).href)) as { default: Width }).default;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pi-sessions-string-width-'));
  patches = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'apply-patch.mjs')).href)) as Patches;
  const source = readFileSync(join(REPO_ROOT, FILE), 'utf8');
  original = await load('original', source);
  patched = await load('patched', patches.applyHunks(source, patches.loadPatches().get(FILE)!, FILE));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

const both = (s: string): [number, number] => [original(s), original(s, { ambiguousIsNarrow: false })];
const bothPatched = (s: string): [number, number] => [patched(s), patched(s, { ambiguousIsNarrow: false })];

describe('the string-width patch', () => {
  it('applies to the installed string-width 8.3.0 only (not to a nested copy of another version)', () => {
    expect(JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')).version).toBe('8.3.0');
    expect(patches.patchedSource(join(REPO_ROOT, FILE))).toContain('allLoneNarrow');
    expect(patches.patchedSource(join(REPO_ROOT, 'node_modules', 'wrap-ansi', FILE))).toBeUndefined();
  });

  it("gives string-width's answer for every character below U+2C00, alone and among neighbours that join", () => {
    const joiners = ['\u0301', '\u20e3', '\u200d', '\ufe0f', '\ufe0e', '\u1160', '\u{1f3fb}'];
    for (let code = 0; code < 0x2c00; code++) {
      const ch = String.fromCharCode(code);
      const cases = [ch, `a${ch}b`, `${ch}${ch}`, ...joiners.map((j) => `${ch}${j}`), `\u200d${ch}`];
      for (const s of cases) expect(bothPatched(s), `U+${code.toString(16)} in ${JSON.stringify(s)}`).toEqual(both(s));
    }
    // 11,264 characters times 11 neighbourhoods through both builds: seconds alone, tens under load.
  }, 120_000);

  it("gives string-width's answer for random mixes (emoji, CJK, jamo, marks, controls, escapes)", () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'a',
        ' ',
        '·',
        '…',
        '›',
        '│',
        '─',
        '├',
        '└',
        '◉',
        '⑂',
        '→',
        '✓',
        '©',
        '☀',
        '▶',
        'é',
        'ß',
        'Ω',
        'Ж',
        '‼',
        '⌚',
        '⚡',
        '✅',
        '界',
        '😀',
        '👍🏽',
        '🇩🇪',
        '1\ufe0f\u20e3',
        'e\u0301',
        '\u00ad',
        '\u200b',
        '\u200d',
        '\ufe0f',
        '\u1100\u1161',
        '\t',
        '\u001b[31mred\u001b[39m',
        '\u009b1m',
      ),
      fc.integer({ min: 0xa0, max: 0x2bff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
        const s = parts.join('');
        expect(bothPatched(s)).toEqual(both(s));
      }),
      { numRuns: 3000 },
    );
  }, 120_000);
});
