/**
 * `npm run screenshots`: the README's pictures, taken from the real app. The shipped bundle runs
 * in a pseudo-terminal (@lydell/node-pty) of a fixed size whose output feeds a headless xterm;
 * the screen is drawn as SVG (terminal-svg.ts) into docs/. The store is the demo store (src/tools/demo.ts:
 * hand-written sessions plus the seeded generator), written for a fixed clock, and the app runs
 * with its clock starting at that instant (a preload replaces Date), in UTC, with a home of its own: the same
 * sources give the same files, byte for byte, which test/e2e/screenshots.e2e.test.ts checks.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawn } from '@lydell/node-pty';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { writeDemoStore } from '../demo.js';
import { screenToSvg } from './terminal-svg.js';

// @xterm/headless ships CommonJS only.
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless');

/** The clock of the pictures: the demo's sessions are dated back from it. */
const NOW_MS = Date.UTC(2026, 2, 9, 15, 30, 0);
const COLS = 110;
const ROWS = 30;
/** Output has stopped for this long: the frame is complete. */
const QUIET_MS = 400;
const TIMEOUT_MS = 30_000;
const TREE_SESSION = '019a0001-0000-7000-8000-00000000d001';
/** Where the store and the app's home live while the pictures are taken (removed after). */
const WORK_DIR = '/tmp/pi-sessions-screenshots';

/** The repository root, whether this runs from src/ (vitest) or dist/src/ (npm run screenshots). */
function repositoryRoot(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return here.includes('/dist/src/') ? join(here, '..', '..', '..', '..') : join(here, '..', '..', '..');
}

interface Shot {
  file: string;
  title: string;
  args: string[];
  /** Keys typed once the screen shows `ready`, each after the screen shows the text before it. */
  steps: { waitFor: string; keys?: string }[];
}

export const SHOTS: readonly Shot[] = [
  {
    file: 'picker.svg',
    title: 'pi-sessions: the session picker on all projects, with the preview of the selected session',
    args: ['--all'],
    steps: [{ waitFor: 'Checkout: fix rounding in totals', keys: '\u000f' }, { waitFor: 'last messages' }],
  },
  {
    file: 'tree.svg',
    title: 'pi-sessions: the tree of a session with a branch, a summary, a label and a fork',
    args: ['tree', TREE_SESSION],
    steps: [{ waitFor: 'Type to search' }],
  },
  {
    file: 'stats.svg',
    title: 'pi-sessions stats: tokens and cost per day, project and model',
    args: ['--all'],
    steps: [{ waitFor: 'Checkout: fix rounding in totals', keys: '$' }, { waitFor: 'Per day' }],
  },
];

/** Runs one shot in a pty and returns its SVG. */
async function take(shot: Shot, env: Record<string, string>, cwd: string): Promise<string> {
  const cli = join(repositoryRoot(), 'bin', 'pi-sessions.js');
  const term: XtermTerminal = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true });
  const child = spawn(process.execPath, ['--import', pathToFileURL(env['CLOCK_PRELOAD']!).href, cli, ...shot.args], {
    name: 'xterm-256color',
    cols: COLS,
    rows: ROWS,
    cwd,
    env,
  });
  let last = Date.now();
  let exited = false;
  child.onData((data) => {
    last = Date.now();
    term.write(data);
  });
  child.onExit(() => {
    exited = true;
  });
  const screenText = (): string => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < ROWS; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const waitFor = async (text: string): Promise<void> => {
    const until = Date.now() + TIMEOUT_MS;
    while (!screenText().includes(text)) {
      if (exited || Date.now() > until)
        throw new Error(`screenshots: "${text}" not seen for ${shot.file}:\n${screenText()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  // Complete: nothing still loading (the list, a preview, a tree, the stats' listing), and no
  // output for a while. Keys wait for it too: the same key early gives another picture.
  const settled = async (): Promise<void> => {
    const until = Date.now() + TIMEOUT_MS;
    while (/loading|listed so far/i.test(screenText()) || Date.now() - last < QUIET_MS) {
      if (exited || Date.now() > until) throw new Error(`screenshots: ${shot.file} never settled:\n${screenText()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  try {
    for (const step of shot.steps) {
      await waitFor(step.waitFor);
      await settled();
      for (const key of step.keys ?? '') {
        child.write(key);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    }
    // Let xterm finish parsing what arrived.
    await new Promise<void>((resolve) => term.write('', resolve));
    const buffer = term.buffer.active;
    return screenToSvg(
      {
        cols: COLS,
        rows: ROWS,
        cell: (x, y) => buffer.getLine(buffer.viewportY + y)?.getCell(x),
      },
      shot.title,
    );
  } finally {
    child.kill();
    term.dispose();
  }
}

/** Writes every screenshot into `outDir` (created when missing); returns the files written. */
export async function writeScreenshots(outDir: string): Promise<string[]> {
  // One fixed folder, not a fresh temp name: the stats screen shows the store's path, so the
  // pictures must see the same one every time (a second run at once would take it over).
  const work = WORK_DIR;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    const home = join(work, 'home');
    // pi's default agent dir under that home, so the screens show `~/.pi/agent/sessions`.
    writeDemoStore(join(home, '.pi', 'agent', 'sessions'), NOW_MS);
    const preload = join(work, 'clock.mjs');
    writeFileSync(
      preload,
      [
        // Not frozen: the app measures pauses with Date.now() (a key pauses loading for a
        // moment); a run takes seconds, and the pictures show minutes at the finest.
        "// The pictures' clock: Date.now() and new Date() start at this instant and run on.",
        `const START = ${NOW_MS};`,
        'const RealDate = Date;',
        'const zero = performance.now();',
        'const now = () => START + Math.floor(performance.now() - zero);',
        'class ShotDate extends RealDate {',
        '  constructor(...args) { if (args.length === 0) super(now()); else super(...args); }',
        '  static now() { return now(); }',
        '}',
        'globalThis.Date = ShotDate;',
        '',
      ].join('\n'),
    );
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      XDG_CACHE_HOME: join(work, 'cache'),
      XDG_STATE_HOME: join(work, 'state'),
      XDG_DATA_HOME: join(work, 'data'),
      TZ: 'UTC',
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
      CLOCK_PRELOAD: preload,
    };
    const cwd = join(work, 'cwd');
    mkdirSync(cwd);
    mkdirSync(outDir, { recursive: true });
    const written: string[] = [];
    for (const shot of SHOTS) {
      const svg = await take(shot, env, cwd);
      const file = join(outDir, shot.file);
      writeFileSync(file, svg);
      written.push(file);
    }
    return written;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const outDir = join(repositoryRoot(), 'docs');
  for (const file of await writeScreenshots(outDir)) process.stderr.write(`wrote ${file}\n`);
}
