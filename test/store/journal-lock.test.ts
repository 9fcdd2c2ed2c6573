/**
 * The journal's lock (src/store/journal/lock.ts) on its own: a lock file holding a live process is
 * waited for, then named in one line (never a hang); one whose holder is gone (no such pid, or the
 * pid now belongs to a process started at another time) is taken over; a lock without content is
 * taken over only once it is old; within one process, chains of calls queue and a chain re-enters.
 */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processStartTime, withJournalLock } from '../../src/store/journal/lock.js';
import { tempDir } from '../helpers/factory.js';

function folder(): { dir: string; lock: string } {
  const dir = join(tempDir(), 'pi-sessions');
  mkdirSync(dir, { recursive: true });
  return { dir, lock: join(dir, 'journal.lock') };
}

const holder = (fields: Record<string, unknown>): string =>
  JSON.stringify({
    pid: process.pid,
    start: processStartTime(process.pid),
    nonce: 'someone',
    host: hostname(),
    ...fields,
  });

/** A pid no process has (pid_max is at most 2^22 on Linux). */
const DEAD_PID = 2 ** 22 + 12345;

describe('the journal lock', () => {
  it('holds a lock file while it runs and removes it after, even when the work throws', async () => {
    const { dir, lock } = folder();
    const seen = await withJournalLock(dir, async () => JSON.parse(readFileSync(lock, 'utf8')) as { pid: number });
    expect(seen.pid).toBe(process.pid);
    await expect(
      withJournalLock(dir, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(() => readFileSync(lock)).toThrow();
  });

  it('waits for a live holder a bounded time, then says who holds it in one line', async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, holder({}));
    const started = Date.now();
    const error = await withJournalLock(dir, async () => 'ran', 300).catch((e: Error) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^the journal is locked by pi-sessions process ${process.pid}; gave up after 0\\.3 s \\(try again when it is done, or remove .*journal\\.lock if no pi-sessions is running\\)$`,
      ),
    );
    // Not taken away from its holder.
    expect(readFileSync(lock, 'utf8')).toBe(holder({}));
  });

  it('takes over a lock whose holder is gone: no such pid, or a pid started at another time', async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, holder({ pid: DEAD_PID }));
    expect(await withJournalLock(dir, async () => 'ran', 300)).toBe('ran');
    if (process.platform === 'linux') {
      writeFileSync(lock, holder({ start: '1' })); // this pid, but not this process
      expect(await withJournalLock(dir, async () => 'ran again', 300)).toBe('ran again');
    }
    expect(() => readFileSync(lock)).toThrow();
    expect(() => readFileSync(`${lock}.break-someone`)).toThrow();
  });

  it('a lock without content: waited for while new (its holder is writing it), taken over once old', async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, '');
    await expect(withJournalLock(dir, async () => 'ran', 300)).rejects.toThrow(/locked by another pi-sessions process/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(await withJournalLock(dir, async () => 'ran', 300)).toBe('ran');
  });

  it('a lock of another host is never taken over (its pid means nothing here)', async () => {
    const { dir, lock } = folder();
    writeFileSync(lock, holder({ pid: DEAD_PID, host: 'elsewhere.example' }));
    await expect(withJournalLock(dir, async () => 'ran', 200)).rejects.toThrow(
      new RegExp(`locked by pi-sessions process ${DEAD_PID} on elsewhere\\.example`),
    );
  });

  it('in one process: independent chains take turns, and a chain that holds it re-enters', async () => {
    const { dir } = folder();
    const order: string[] = [];
    const work = (name: string) =>
      withJournalLock(dir, async () => {
        order.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        // Re-entrant: an undo holds the lock while its write records its change.
        await withJournalLock(dir, async () => order.push(`${name} nested`));
        order.push(`${name} out`);
      });
    await Promise.all([work('a'), work('b'), work('c')]);
    expect(order).toEqual(['a in', 'a nested', 'a out', 'b in', 'b nested', 'b out', 'c in', 'c nested', 'c out']);
  });
});
