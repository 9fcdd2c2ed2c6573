/**
 * `npm run bench --only hugeline`: the peak memory of every reader on a session whose active
 * branch holds a 200 MB tool output on one line (store/read/too-large.ts bounds it). Each command runs
 * the shipped bundle in a fresh process that reports its own peak RSS when it exits, next to the
 * file's size and the listing of the same store (the one reader that was bounded first).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'bin', 'pi-sessions.js');
const T = '2026-01-05T09:00:00.000Z';
const SESSION_ID = '019b0000-0000-7000-8000-00000000b16b';
export const HUGE_LINE_MB = 200;

/** Prompt, a side question, a tool call, its huge result, the answer: written a MiB at a time. */
function writeHugeSession(path: string): void {
  const fd = openSync(path, 'w');
  const hex = (n: number): string => n.toString(16).padStart(8, '0');
  const entry = (id: number, parent: number | null, message: Record<string, unknown>): string =>
    `${JSON.stringify({ type: 'message', id: hex(id), parentId: parent === null ? null : hex(parent), timestamp: T, message })}\n`;
  try {
    writeSync(fd, `${JSON.stringify({ type: 'session', version: 3, id: SESSION_ID, timestamp: T, cwd: '/tmp' })}\n`);
    writeSync(fd, entry(1, null, { role: 'user', content: 'run the big command', timestamp: 1 }));
    writeSync(fd, entry(5, 1, { role: 'user', content: 'a side question', timestamp: 2 }));
    writeSync(
      fd,
      entry(2, 1, {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'call1', name: 'bash', arguments: { command: 'cat big.log' } }],
        stopReason: 'toolUse',
        timestamp: 3,
      }),
    );
    writeSync(
      fd,
      `{"type":"message","id":"${hex(3)}","parentId":"${hex(2)}","timestamp":"${T}","message":{"role":"toolResult","toolCallId":"call1","toolName":"bash","content":[{"type":"text","text":"`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 'log line \\n');
    for (let i = 0; i < HUGE_LINE_MB; i++) writeSync(fd, chunk);
    writeSync(fd, '"}],"isError":false,"timestamp":4}}\n');
    writeSync(fd, entry(4, 3, { role: 'assistant', content: [{ type: 'text', text: 'done' }], timestamp: 5 }));
  } finally {
    closeSync(fd);
  }
}

/** The sessions folder holding only the huge session (made once, kept under the OS temp dir). */
function hugeStore(log: (text: string) => void): { dir: string; file: string } {
  const dir = join(tmpdir(), 'pi-sessions-bench', `huge-line-${HUGE_LINE_MB}`, 'sessions');
  const file = join(dir, `2026-01-05T09-00-00-000Z_${SESSION_ID}.jsonl`);
  if (!existsSync(file)) {
    log(`generating a session with a ${HUGE_LINE_MB} MB line …`);
    mkdirSync(dir, { recursive: true });
    writeHugeSession(`${file}.partial-${process.pid}`);
    renameSync(`${file}.partial-${process.pid}`, file);
  }
  return { dir, file };
}

/** Writes the process's peak RSS (kB) to fd 3 as it exits, whatever ends it. */
const REPORT_RSS = `data:text/javascript,import{writeSync}from'node:fs';process.on('exit',()=>{try{writeSync(3,String(process.resourceUsage().maxRSS))}catch{}})`;

/** Runs the bundle with `args` in a fresh process: its exit code and peak RSS in bytes. */
function runMeasured(
  args: string[],
  env: Record<string, string>,
): { code: number | null; rssBytes: number; ms: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', REPORT_RSS, BUNDLE, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - started;
  const reported = Number((run.output[3] as string | null) ?? '');
  if (!Number.isFinite(reported) || reported <= 0) throw new Error(`no RSS from ${args.join(' ')}: ${run.stderr}`);
  return { code: run.status, rssBytes: reported * 1024, ms };
}

export interface HugeLineContext {
  log(text: string): void;
  fmt(ms: number): string;
}

/** The readers on a 200 MB line: peak RSS of each, from a fresh process. */
export async function hugeLineBenches(ctx: HugeLineContext): Promise<Record<string, unknown>> {
  const { dir, file } = hugeStore(ctx.log);
  const scratch = join(tmpdir(), 'pi-sessions-bench', `huge-line-scratch-${process.pid}`);
  const env = {
    XDG_CACHE_HOME: join(scratch, 'cache'),
    XDG_STATE_HOME: join(scratch, 'state'),
    XDG_DATA_HOME: join(scratch, 'data'),
  };
  const commands: [string, string[]][] = [
    ['list', ['list', '--all', '--json', '--no-cache', '--session-dir', dir]],
    ['check', ['check', file, '--json']],
    ['stats', ['stats', '--all', '--json', '--session-dir', dir]],
    ['tree --json', ['tree', file, '--json']],
    ['context --json', ['context', file, '--leaf', '00000005', '--json']],
    ['fork', ['fork', file]],
    ['slim', ['slim', file, '--yes']],
  ];
  const figures: Record<string, { peakRssBytes: number; ms: number; exit: number | null }> = {};
  try {
    for (const [name, args] of commands) {
      const run = runMeasured(args, env);
      figures[name] = { peakRssBytes: run.rssBytes, ms: run.ms, exit: run.code };
    }
  } finally {
    // Put the slimmed original back and drop what fork and slim wrote, so the next run measures the same file.
    const trashed = join(env.XDG_DATA_HOME, 'Trash', 'files');
    const original = existsSync(trashed) ? readdirSync(trashed).find((name) => name.includes(SESSION_ID)) : undefined;
    if (original && !existsSync(file)) renameSync(join(trashed, original), file);
    for (const name of readdirSync(dir)) if (!name.includes(SESSION_ID)) rmSync(join(dir, name), { force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
  const worst = Math.max(...Object.values(figures).map((f) => f.peakRssBytes));
  ctx.log(
    `\nreaders on a ${HUGE_LINE_MB} MB line (peak RSS, fresh process; target < 300 MiB each): ${Object.entries(figures)
      .map(([name, f]) => `${name} ${(f.peakRssBytes / 1048576).toFixed(0)} MiB (${ctx.fmt(f.ms)})`)
      .join(', ')}`,
  );
  return { hugeLine: { lineMb: HUGE_LINE_MB, commands: figures, worstPeakRssBytes: worst, target: '< 300 MiB each' } };
}
