/**
 * Bench figure "write on a 100 MB session: max event-loop block" (target < 20 ms: a key typed
 * during a longer block is answered late):
 * rename, label, branch and fork on a copy of the big session while a 1 ms interval timer measures
 * the longest gap between its ticks, i.e. the longest the screens could not draw or read a key,
 * and the most CPU the process spent within one gap (what the write itself costs on a loaded machine).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { branchInPlace, forkSession, readSessionSync, renameSession, setLabel } from '../../store/index.js';

export interface WriteBenchContext {
  bigFile: string;
  rounds: number;
  log(text: string): void;
  median(values: number[]): number;
  fmt(ms: number): string;
}

const TARGET_MS = 20;

/** CPU time this process used so far (all its threads), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Runs `write` while a 1 ms timer records the longest gap between its ticks (wall clock) and the
 * most CPU the process used within one gap: on a loaded machine a gap far longer than its CPU time
 * is the process waiting for a core, not our code blocking, so the CPU figure is what the write costs.
 */
async function maxBlockDuring(
  write: () => Promise<unknown>,
): Promise<{ maxBlockMs: number; maxBlockCpuMs: number; totalMs: number }> {
  let last = performance.now();
  let lastCpu = cpuMs();
  let maxGap = 0;
  let maxGapCpu = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    const cpu = cpuMs();
    maxGap = Math.max(maxGap, now - last);
    maxGapCpu = Math.max(maxGapCpu, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  }, 1);
  const t0 = performance.now();
  try {
    await write();
  } finally {
    clearInterval(probe);
  }
  const end = performance.now();
  // The stretch after the last tick counts too: a block at the very end would otherwise be missed.
  maxGap = Math.max(maxGap, end - last);
  maxGapCpu = Math.max(maxGapCpu, cpuMs() - lastCpu);
  return { maxBlockMs: maxGap, maxBlockCpuMs: maxGapCpu, totalMs: end - t0 };
}

/** The id of an entry in the middle of `file`; the parsed session is dropped, so its heap does not weigh on the measured writes. */
function middleEntry(file: string): { target: string; size: number } {
  const loaded = readSessionSync(file);
  if (!loaded.ok) throw new Error(loaded.message);
  return { target: loaded.entries[Math.floor(loaded.entries.length / 2)]!.id, size: loaded.size };
}

export async function writeBenches(ctx: WriteBenchContext): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-write-'));
  // The writes are journalled like any other: into the bench's temp folder, not the user's state.
  const stateHome = process.env['XDG_STATE_HOME'];
  process.env['XDG_STATE_HOME'] = join(dir, 'state');
  try {
    const file = join(dir, 'big.jsonl');
    copyFileSync(ctx.bigFile, file);
    const { target, size } = middleEntry(file);
    const writes: Record<string, () => Promise<unknown>> = {
      rename: () => renameSession(file, 'bench name'),
      label: () => setLabel(file, target, 'bench label'),
      branch: () => branchInPlace(file, target),
      // Not an append: scans the session, then copies the branch to a new file a batch at a time
      // (the new file is removed after each round).
      fork: async () => rmSync((await forkSession(file, target)).path),
    };
    const out: Record<string, unknown> = {};
    ctx.log(
      `\nwrite on a ${(size / 1048576).toFixed(0)} MB session: max event-loop block (1 ms probe; target < ${TARGET_MS} ms)`,
    );
    for (const [name, write] of Object.entries(writes)) {
      const blocks: number[] = [];
      const blockCpus: number[] = [];
      const totals: number[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        const { maxBlockMs, maxBlockCpuMs, totalMs } = await maxBlockDuring(write);
        blocks.push(maxBlockMs);
        blockCpus.push(maxBlockCpuMs);
        totals.push(totalMs);
      }
      out[name] = {
        maxBlockMedianMs: ctx.median(blocks),
        maxBlockWorstMs: Math.max(...blocks),
        maxBlockCpuMedianMs: ctx.median(blockCpus),
        maxBlockCpuWorstMs: Math.max(...blockCpus),
        totalMedianMs: ctx.median(totals),
        samples: blocks,
        cpuSamples: blockCpus,
        targetMs: TARGET_MS,
      };
      ctx.log(
        `  ${name.padEnd(7)} max block ${ctx.fmt(ctx.median(blocks))} (worst ${ctx.fmt(Math.max(...blocks))})   CPU in one block ${ctx.fmt(ctx.median(blockCpus))} (worst ${ctx.fmt(Math.max(...blockCpus))})   whole write ${ctx.fmt(ctx.median(totals))}`,
      );
    }
    return { writeBlock: out };
  } finally {
    if (stateHome === undefined) delete process.env['XDG_STATE_HOME'];
    else process.env['XDG_STATE_HOME'] = stateHome;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `node dist/src/tools/bench/write-block.js <session.jsonl> [--rounds N]`: only this figure, on a given big session. */
async function runAlone(argv: string[]): Promise<void> {
  const bigFile = argv[0];
  if (!bigFile) throw new Error('usage: write-block.js <session.jsonl> [--rounds N]');
  const at = argv.indexOf('--rounds');
  const rounds = at === -1 ? 5 : Number(argv[at + 1]) || 5;
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;
  await writeBenches({ bigFile, rounds, log: (text) => process.stdout.write(`${text}\n`), median, fmt });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAlone(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`write bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
