/**
 * patches/ink+6.8.0.patch, ink.js, as the app's bundle has it (the patch applied by
 * scripts/apply-patch.mjs), rendering to a TTY-like stream that records every write call:
 * - a frame reaches the terminal in one write (ink 6.8 writes BSU, the frame and ESU apart, and
 *   each write wakes the terminal);
 * - a frame asked for once the frame-rate window since the last frame has passed is drawn at
 *   once (ink 6.8's throttle drew a frame asked for 12 ms after another 11 ms late at 100 fps).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/corpus.js';

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
  // The app's own bundle options: its patches applied, ink's devtools left out, production React.
  const { common } = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'bundle.mjs')).href)) as {
    common: BuildOptions & { plugins: Plugin[] };
  };
  const result = await build({
    ...common,
    stdin: {
      contents: "export { render, Text } from 'ink'; export { createElement } from 'react';",
      resolveDir: REPO_ROOT,
      loader: 'js',
    },
    write: false,
    logLevel: 'silent',
    plugins: [
      ...common.plugins,
      {
        // Hiding the cursor on the fake TTY would also show it on this process's stderr at exit.
        name: 'no-restore-cursor',
        setup(b) {
          b.onResolve({ filter: /^restore-cursor$/ }, () => ({ path: 'restore-cursor', namespace: 'no-restore' }));
          b.onLoad({ filter: /.*/, namespace: 'no-restore' }, () => ({
            contents: 'export default () => {};',
            loader: 'js',
          }));
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

function renderText(stdout: ReturnType<typeof recordingTty>, text: string, maxFps: number) {
  return ink.render(ink.createElement(ink.Text, null, text), {
    stdout,
    stdin: process.stdin,
    patchConsole: false,
    exitOnCtrlC: false,
    maxFps,
    incrementalRendering: true,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the ink patch: frames', () => {
  it('writes each frame, synchronized update markers included, in a single write call', async () => {
    const stdout = recordingTty();
    const text = (s: string) => ink.createElement(ink.Text, null, s);
    const app = renderText(stdout, 'first frame', 1000);
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

  it('draws a frame at once when the last one is older than the frame-rate window, and a sooner one when the window ends', async () => {
    const stdout = recordingTty();
    const text = (s: string) => ink.createElement(ink.Text, null, s);
    const written = () => stdout.calls.flat().join('');
    // 100 fps: one frame every 10 ms at most.
    const app = renderText(stdout, 'one', 100);
    await sleep(30);
    app.rerender(text('two'));
    expect(written()).toContain('two');
    // Busy past the window, as the app is while it searches after drawing a key's echo: the
    // window's timer has had no turn to run, and the next frame must not wait for it.
    const busyUntil = performance.now() + 12;
    while (performance.now() < busyUntil) {}
    app.rerender(text('three'));
    // Synchronously: the frame is on the terminal before anything else runs.
    expect(written()).toContain('three');
    app.rerender(text('five'));
    expect(written()).not.toContain('five');
    await sleep(15);
    expect(written()).toContain('five');
    app.unmount();
    app.cleanup();
  });
});
