/**
 * patches/ink+6.8.0.patch, as the bundler applies it (scripts/apply-patch.mjs):
 * - it applies to the ink that `npm install` put in node_modules (a new ink version fails here
 *   and in `npm run compile`, never silently);
 * - output.js: rows cached across frames, and a row that is one line kept as it is, show exactly
 *   the cells of ink's own per-frame grid on a terminal, frame after frame, for random writes
 *   (styled, wide and combining characters, newlines, transformers) and clips;
 * - squash-text-nodes.js: a text node's squashed text, its sanitized parts kept across frames, is
 *   ink's own, frame after frame (render-node-to-output.js keeps widest-line's answers likewise);
 * - log-update.js: incremental rendering of frames with a trailing newline draws them in place
 *   (ink 6.8 drew every frame after the first one row lower).
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

interface Patches {
  loadPatches(): Map<string, { patch: string; hunks: unknown[] }>;
  applyHunks(source: string, entry: { patch: string; hunks: unknown[] }, file: string): string;
}
interface OutputInstance {
  write(
    x: number,
    y: number,
    text: string,
    options: { transformers: ((line: string, index: number) => string)[] },
  ): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (options: { width: number; height: number }) => OutputInstance;
type LogUpdate = {
  create(stream: { write(s: string): unknown }, options: { incremental?: boolean }): (s: string) => boolean;
};

const INK_BUILD = join(REPO_ROOT, 'node_modules', 'ink', 'build');
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless');

let work: string;
let patches: Patches;

/** `source` (a file of ink/build) bundled with its imports into a temp module, then imported. */
async function loadModule<T>(name: string, source: string): Promise<T> {
  const result = await build({
    stdin: { contents: source, resolveDir: INK_BUILD, sourcefile: name, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const file = join(work, `${name}-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  return (await import(pathToFileURL(file).href)) as T;
}

function original(file: string): string {
  return readFileSync(join(INK_BUILD, file), 'utf8');
}

function patched(file: string): string {
  const key = `node_modules/ink/build/${file}`;
  const entry = patches.loadPatches().get(key);
  if (!entry) throw new Error(`no patch for ${key}`);
  return patches.applyHunks(original(file), entry, key);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pi-sessions-ink-patch-'));
  patches = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'apply-patch.mjs')).href)) as Patches;
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every cell of `output` drawn on a terminal: its characters, width, colours and styles. */
async function screenOf(output: string): Promise<string[]> {
  const term: XtermTerminal = new Terminal({ cols: 120, rows: 10, allowProposedApi: true, convertEol: true });
  await new Promise<void>((resolve) => term.write(output, resolve));
  const rows: string[] = [];
  const cell = term.buffer.active.getNullCell();
  for (let y = 0; y < term.rows; y++) {
    const line = term.buffer.active.getLine(y);
    const cells: string[] = [];
    for (let x = 0; line && x < term.cols; x++) {
      line.getCell(x, cell);
      const flags = [
        cell.isBold(),
        cell.isDim(),
        cell.isItalic(),
        cell.isUnderline(),
        cell.isInverse(),
        cell.isStrikethrough(),
        cell.isInvisible(),
      ]
        .map(Number)
        .join('');
      cells.push(
        `${cell.getChars() || ' '}/${cell.getWidth()}/${cell.getFgColorMode()}:${cell.getFgColor()}/${cell.getBgColorMode()}:${cell.getBgColor()}/${flags}`,
      );
    }
    rows.push(cells.join(' '));
  }
  term.dispose();
  return rows;
}

describe('the ink patch', () => {
  it('applies to the installed ink, to every file it names', () => {
    const all = new Map([...patches.loadPatches()].filter(([file]) => file.startsWith('node_modules/ink/')));
    expect([...all.keys()].sort()).toEqual([
      'node_modules/ink/build/ink.js',
      'node_modules/ink/build/log-update.js',
      'node_modules/ink/build/output.js',
      'node_modules/ink/build/render-node-to-output.js',
      'node_modules/ink/build/squash-text-nodes.js',
    ]);
    for (const [file, entry] of all)
      expect(() => patches.applyHunks(readFileSync(join(REPO_ROOT, file), 'utf8'), entry, file)).not.toThrow();
    expect(JSON.parse(readFileSync(join(dirname(INK_BUILD), 'package.json'), 'utf8')).version).toBe('6.8.0');
  });

  it('refuses a file its context does not match', () => {
    const key = 'node_modules/ink/build/output.js';
    const entry = patches.loadPatches().get(key)!;
    expect(() =>
      patches.applyHunks(original('output.js').replace('class OutputCaches {', 'class Caches {'), entry, key),
    ).toThrow(/does not apply/);
  });

  it('renders every frame as ink 6.8 does (the same cells), with rows cached across frames', async () => {
    const before = (await loadModule<{ default: OutputClass }>('output-original', original('output.js'))).default;
    const after = (await loadModule<{ default: OutputClass }>('output-patched', patched('output.js'))).default;
    const piece = fc.constantFrom(
      'a',
      'b',
      ' ',
      'xyz',
      '界',
      '😀',
      'e\u0301',
      '…',
      '\n',
      '\u001b[31mred\u001b[39m',
      '\u001b[1mbold\u001b[22m',
      '\u001b[7minv\u001b[27m',
      '\u001b[2m',
      '\u001b[38;5;208mo\u001b[39m',
      '\u001b[48;2;1;2;3mb\u001b[49m',
      '\u001b[0m',
      '\u001b[1;31mx',
    );
    const text = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('write' as const),
        x: fc.integer({ min: 0, max: 14 }),
        y: fc.integer({ min: -1, max: 8 }),
        text,
        upper: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('clip' as const),
        x1: fc.integer({ min: 0, max: 6 }),
        x2: fc.integer({ min: 4, max: 14 }),
        y1: fc.integer({ min: 0, max: 3 }),
        y2: fc.integer({ min: 2, max: 8 }),
        vertical: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('unclip' as const) }),
    );
    const frame = fc.record({
      width: fc.integer({ min: 1, max: 12 }),
      height: fc.integer({ min: 1, max: 6 }),
      ops: fc.array(op, { maxLength: 10 }),
    });
    // A transformer like ink's own (chalk's): it changes the text, never an escape sequence.
    const upper = (line: string): string =>
      line.replace(/\u001b\[[\d;]*m|([a-z])/g, (code: string, letter?: string) =>
        letter ? letter.toUpperCase() : code,
      );
    type Op =
      | { kind: 'write'; x: number; y: number; text: string; upper: boolean }
      | { kind: 'clip'; x1: number; x2: number; y1: number; y2: number; vertical: boolean }
      | { kind: 'unclip' };
    const draw = (Output: OutputClass, f: { width: number; height: number; ops: Op[] }) => {
      const output = new Output({ width: f.width, height: f.height });
      let depth = 0;
      for (const o of f.ops) {
        if (o.kind === 'write') output.write(o.x, o.y, o.text, { transformers: o.upper ? [upper] : [] });
        else if (o.kind === 'clip') {
          output.clip(o.vertical ? { x1: o.x1, x2: o.x2, y1: o.y1, y2: o.y2 } : { x1: o.x1, x2: o.x2 });
          depth++;
        } else if (depth > 0) {
          output.unclip();
          depth--;
        }
      }
      return output.get();
    };
    // Lines a terminal and ink's tokenizer read differently (one code ending two open styles)
    // must not take the shortcut; lines like a row's must, and show the same.
    const lines = [
      '\u001b[2m\u001b[1mbold\u001b[22m\u001b[1mbold\u001b[22ma',
      '\u001b[32m› \u001b[1mrow\u001b[22m\u001b[39m  · \u001b[2mhit\u001b[22m',
      '\u001b[38;5;208mx\u001b[39m\u001b[48;2;1;2;3my\u001b[49m',
    ];
    for (const line of lines) {
      const f = { width: 30, height: 1, ops: [{ kind: 'write' as const, x: 0, y: 0, text: line, upper: false }] };
      const [got, want] = [draw(after, f), draw(before, f)];
      expect(await screenOf(got.output), JSON.stringify(line)).toEqual(await screenOf(want.output));
    }
    expect(
      draw(after, { width: 30, height: 1, ops: [{ kind: 'write', x: 0, y: 0, text: lines[1]!, upper: false }] }).output,
    ).toBe(`${lines[1]}\u001b[0m`);
    // Several frames per run, against one module of each: the patched caches live across frames.
    // The same screen, cell by cell: a row kept as written may spell its styles differently.
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 4 }), async (frames) => {
        for (const f of [...frames, ...frames]) {
          const [got, want] = [draw(after, f), draw(before, f)];
          expect(got.height).toBe(want.height);
          expect(await screenOf(got.output)).toEqual(await screenOf(want.output));
        }
      }),
      { numRuns: 500 },
    );
    // 500 random frame sequences through both builds take 10-25 s on a busy two-core machine.
  }, 120_000);

  it('squashes text nodes as ink 6.8 does, frame after frame, with sanitized text kept across frames', async () => {
    interface TextNode {
      nodeName: string;
      nodeValue?: string;
      childNodes?: TextNode[];
      internal_transform?: (text: string, index: number) => string;
    }
    const load = async (name: string, source: string) =>
      (await loadModule<{ default: (node: TextNode) => string }>(name, source)).default;
    const before = await load('squash-original', original('squash-text-nodes.js'));
    const after = await load('squash-patched', patched('squash-text-nodes.js'));
    // Styles pass, cursor moves and screen clears are dropped: the cache must keep both apart.
    const leaf = fc
      .constantFrom(
        'a',
        ' ',
        '界',
        '',
        '\u001b[31mred\u001b[39m',
        '\u001b[2J',
        '\u001b[1Aup',
        '\u009b2Kx',
        '\u001b]8;;u\u0007l\u001b]8;;\u0007',
      )
      .map((nodeValue): TextNode => ({ nodeName: '#text', nodeValue }));
    const span = fc.record({ childNodes: fc.array(leaf, { maxLength: 3 }), bold: fc.boolean() }).map(
      ({ childNodes, bold }): TextNode => ({
        nodeName: 'ink-virtual-text',
        childNodes,
        ...(bold ? { internal_transform: (text: string) => `\u001b[1m${text}\u001b[22m` } : {}),
      }),
    );
    const row = fc
      .array(fc.oneof(leaf, span), { maxLength: 5 })
      .map((childNodes): TextNode => ({ nodeName: 'ink-text', childNodes }));
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), (frame) => {
        // Twice: the second frame's rows are answered from the kept text.
        for (const node of [...frame, ...frame]) expect(after(node)).toBe(before(node));
      }),
      { numRuns: 300 },
    );
  });

  it('draws incremental frames with a trailing newline in place', async () => {
    const screenAfter = async (source: string): Promise<string[]> => {
      const logUpdate = (await loadModule<{ default: LogUpdate }>('log-update', source)).default;
      // convertEol: a pty's line discipline turns "\n" into "\r\n" (onlcr) before the terminal sees it.
      const term: XtermTerminal = new Terminal({ cols: 20, rows: 6, allowProposedApi: true, convertEol: true });
      let pending = Promise.resolve();
      const stream = {
        write: (s: string) => (pending = pending.then(() => new Promise<void>((resolve) => term.write(s, resolve)))),
      };
      const render = logUpdate.create(stream, { incremental: true });
      render('header\nrow 1\nrow 2\n');
      render('header\nrow 1 moved\nrow 2\n');
      render('header 2\nrow 1 moved\nrow 2\n');
      await pending;
      const lines: string[] = [];
      for (let i = 0; i < 4; i++) lines.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '');
      term.dispose();
      return lines;
    };
    expect(await screenAfter(patched('log-update.js'))).toEqual(['header 2', 'row 1 moved', 'row 2', '']);
    // What ink 6.8 does (the reason for the hunk): each frame lands one row lower.
    expect(await screenAfter(original('log-update.js'))).not.toEqual(['header 2', 'row 1 moved', 'row 2', '']);
  });
});
