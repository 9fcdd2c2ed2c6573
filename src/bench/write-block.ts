/**
 * Bench figure "write on a 100 MB session: max event-loop block" (issue 10 §5, target < 20 ms):
 * rename, label and branch (and, for comparison, fork) on a copy of the big session while a 1 ms
 * interval timer measures the longest gap between its ticks, i.e. the longest the screens could
 * not draw or read a key.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { branchInPlace, forkSession, readSessionSync, renameSession, setLabel } from '../store/index.js';

export interface WriteBenchContext {
  bigFile: string;
  rounds: number;
  log(text: string): void;
  median(values: number[]): number;
  fmt(ms: number): string;
}

const TARGET_MS = 20;

/** Runs `write` while a 1 ms timer records the longest gap between its ticks. */
async function maxBlockDuring(write: () => Promise<unknown>): Promise<{ maxBlockMs: number; totalMs: number }> {
  let last = performance.now();
  let maxGap = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  try {
    await write();
  } finally {
    clearInterval(probe);
  }
  const end = performance.now();
  // The stretch after the last tick counts too: a block at the very end would otherwise be missed.
  return { maxBlockMs: Math.max(maxGap, end - last), totalMs: end - t0 };
}

/** The id of an entry in the middle of `file`; the parsed session is dropped, so its heap does not weigh on the measured writes. */
function middleEntry(file: string): { target: string; size: number } {
  const loaded = readSessionSync(file);
  if (!loaded.ok) throw new Error(loaded.message);
  return { target: loaded.entries[Math.floor(loaded.entries.length / 2)]!.id, size: loaded.size };
}

export async function writeBenches(ctx: WriteBenchContext): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'pi-sessions-bench-write-'));
  try {
    const file = join(dir, 'big.jsonl');
    copyFileSync(ctx.bigFile, file);
    const { target, size } = middleEntry(file);
    const writes: Record<string, () => Promise<unknown>> = {
      rename: () => renameSession(file, 'bench name'),
      label: () => setLabel(file, target, 'bench label'),
      branch: () => branchInPlace(file, target),
      // Not an append: reads the whole session and builds its tree to copy a branch (shown for
      // comparison; the new file is removed after each round).
      fork: async () => rmSync((await forkSession(file, target)).path),
    };
    const out: Record<string, unknown> = {};
    ctx.log(`\nwrite on a ${(size / 1048576).toFixed(0)} MB session: max event-loop block (1 ms probe; target < ${TARGET_MS} ms)`);
    for (const [name, write] of Object.entries(writes)) {
      const blocks: number[] = [];
      const totals: number[] = [];
      for (let i = 0; i < ctx.rounds; i++) {
        const { maxBlockMs, totalMs } = await maxBlockDuring(write);
        blocks.push(maxBlockMs);
        totals.push(totalMs);
      }
      out[name] = { maxBlockMedianMs: ctx.median(blocks), maxBlockWorstMs: Math.max(...blocks), totalMedianMs: ctx.median(totals), samples: blocks, targetMs: TARGET_MS };
      ctx.log(`  ${name.padEnd(7)} max block ${ctx.fmt(ctx.median(blocks))} (worst ${ctx.fmt(Math.max(...blocks))})   whole write ${ctx.fmt(ctx.median(totals))}`);
    }
    return { writeBlock: out };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
