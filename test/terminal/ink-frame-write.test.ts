/**
 * patches/ink+6.8.0.patch, ink.js: a frame reaches the terminal in one write. ink 6.8 writes BSU,
 * the frame and ESU as separate writes, each of which wakes the terminal; corked, a frame leaves
 * as one writev. ink is bundled here as the app's bundle has it (the patch applied by
 * scripts/apply-patch.mjs) and renders to a TTY-like stream that records every write call.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

interface Patches {
  loadPatches(): Map<string, { patch: string; hunks: unknown[] }>;
  patchedSource(path: string, patches: Map<string, unknown>): string | undefined;
}
interface InkModule {
  render(
    node: unknown,
    options: Record<string, unknown>,
  ): { rerender(node: unknown): void; unmount(): void; cleanup(): void };
  Text: unknown;
  createElement(type: unknown, props: unknown, ...children: unknown[]): unknown;
}

const BSU = '\u001B[?2026h';
const ESU = '\u001B[?2026l';

let work: string;
let ink: InkModule;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pi-sessions-ink-write-'));
  const patches = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'apply-patch.mjs')).href)) as Patches;
  const loaded = patches.loadPatches();
  const result = await build({
    stdin: {
      contents: "export { render, Text } from 'ink'; export { createElement } from 'react';",
      resolveDir: REPO_ROOT,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    // The bundle's own CJS dependencies call require: give the ESM output one.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    plugins: [
      {
        name: 'patches',
        setup(b) {
          b.onLoad({ filter: /node_modules[\\/]ink[\\/]build[\\/].*\.js$/ }, (args) => {
            const contents = patches.patchedSource(args.path, loaded);
            return { contents: contents ?? readFileSync(args.path, 'utf8'), loader: 'js' };
          });
          // ink uses its devtools only with DEV=true; the app's bundle leaves them out too.
          b.onResolve({ filter: /^\.\/devtools\.js$/ }, () => ({ path: 'devtools', namespace: 'no-devtools' }));
          b.onLoad({ filter: /.*/, namespace: 'no-devtools' }, () => ({ contents: '', loader: 'js' }));
        },
      },
    ],
  });
  const file = join(work, 'ink.mjs');
  writeFileSync(file, result.outputFiles[0]!.text);
  ink = (await import(pathToFileURL(file).href)) as InkModule;
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A terminal-like stream (isTTY, a size) that keeps each write call's chunks apart. */
function recordingTty(): Writable & { calls: string[][]; isTTY: boolean; columns: number; rows: number } {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return Object.assign(stream, { calls, isTTY: true, columns: 40, rows: 10 });
}

describe('the ink patch: one write per frame', () => {
  it('writes each frame, synchronized update markers included, in a single write call', async () => {
    const stdout = recordingTty();
    const text = (s: string) => ink.createElement(ink.Text, null, s);
    const app = ink.render(text('first frame'), {
      stdout,
      stdin: process.stdin,
      patchConsole: false,
      exitOnCtrlC: false,
      maxFps: 1000,
      incrementalRendering: true,
    });
    const frames: string[][][] = [];
    for (const word of ['second', 'third', 'fourth']) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const before = stdout.calls.length;
      app.rerender(text(`${word} frame`));
      await new Promise((resolve) => setTimeout(resolve, 20));
      frames.push(stdout.calls.slice(before));
    }
    app.unmount();
    app.cleanup();
    for (const [i, calls] of frames.entries()) {
      const word = ['second', 'third', 'fourth'][i]!;
      expect(calls, `the ${word} frame`).toHaveLength(1);
      const written = calls[0]!.join('');
      expect(written).toContain(`${word} frame`);
      // Outside CI ink wraps a frame in BSU/ESU (is-in-ci turns them off); both inside the one write.
      if (written.includes(BSU)) {
        expect(written.startsWith(BSU)).toBe(true);
        expect(written.endsWith(ESU)).toBe(true);
      }
    }
  });
});
