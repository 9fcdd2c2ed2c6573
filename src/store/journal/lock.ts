/**
 * The journal's lock: every update of the journal (a change recorded, an undo's claim of a record
 * together with the records it appends, a trim) runs while holding it, so two pi-sessions
 * processes (two `undo`s, the picker's Ctrl+Z and the CLI) never both take back one change.
 *
 * The scheme, and why it is sound:
 *   - The lock is `journal.lock` next to the journal, created with O_CREAT|O_EXCL (atomic on
 *     local file systems), holding `{pid, start, nonce, host}`: `start` is the process's start
 *     time (Linux: /proc/<pid>/stat), so a pid reused by another process is not taken for the
 *     holder. The holder removes it when done.
 *   - A lock whose holder is gone (no such pid, or a pid with another start time, on this host)
 *     is stale. Breaking it must not remove a fresh lock that another process took meanwhile, so
 *     the breaker first creates `journal.lock.break-<nonce>` with O_EXCL: only one process can
 *     break a given stale lock. It then reads the lock again and removes it only if it still
 *     holds that nonce; nobody else removes a lock whose holder is dead, so between that read and
 *     the unlink the lock cannot have changed. Then it removes its marker.
 *   - A lock without readable content (its holder died between creating and writing it) is
 *     stale once older than a few seconds; its marker is named after its inode and mtime.
 *     A marker left by a breaker that died (it holds it for a few system calls) is removed once
 *     older than STALE_MARKER_MS and its pid is gone.
 *   - Waiting is bounded (LOCK_WAIT_MS, with jittered pauses): past it, a one-line StoreError says
 *     who holds the lock. Never a hang.
 *   - Within one process the lock is re-entrant along one chain of calls (an undo holds it while
 *     its writes record their changes), and two independent chains queue for it in turn.
 * A lock on another host (a shared home over NFS) cannot be checked: it is waited for, then named.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { constants, readFileSync } from 'node:fs';
import { lstat, open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeFsError, StoreError } from '../errors.js';

/** How long a journal update waits for another process's lock before it gives up with a message. */
export const LOCK_WAIT_MS = 10_000;
/** A lock file without content older than this was left by a process that died creating it. */
const UNREADABLE_STALE_MS = 3_000;
/** A break marker older than this, whose pid is gone, was left by a breaker that died. */
const STALE_MARKER_MS = 10_000;

interface LockHolder {
  pid: number;
  /** The process's start time (clock ticks since boot, Linux), or null where it cannot be read. */
  start: string | null;
  nonce: string;
  host: string;
}

/** A process's start time as the kernel keeps it (field 22 of /proc/<pid>/stat), or null. */
export function processStartTime(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

const OWN: Omit<LockHolder, 'nonce'> = { pid: process.pid, start: processStartTime(process.pid), host: hostname() };

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.nonce === 'string' && typeof value.host === 'string')
      return {
        pid: value.pid,
        start: typeof value.start === 'string' ? value.start : null,
        nonce: value.nonce,
        host: value.host,
      };
  } catch {
    // Torn or foreign: judged by its age.
  }
  return undefined;
}

/** Whether the process `holder` names is still running (on this host; elsewhere: assumed so). */
function holderAlive(holder: { pid: number; start: string | null; host: string }): boolean {
  if (holder.host !== OWN.host) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists but is another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.start === null) return true;
  const now = processStartTime(holder.pid);
  return now === null || now === holder.start;
}

async function readLock(path: string): Promise<{ holder?: LockHolder; ino: number; mtimeMs: number } | undefined> {
  try {
    const [text, stats] = await Promise.all([readFile(path, 'utf8'), lstat(path)]);
    const holder = parseHolder(text);
    return { ...(holder ? { holder } : {}), ino: stats.ino, mtimeMs: stats.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates `path` exclusively with `content`; false when it exists. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } catch (error) {
    // A full disk: no half-made lock left behind for others to wait on.
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return true;
}

/** Removes the stale lock whose state was `seen`, unless another process is doing so (see the top). */
async function breakStale(
  lockPath: string,
  seen: { holder?: LockHolder; ino: number; mtimeMs: number },
): Promise<void> {
  const marker = `${lockPath}.break-${seen.holder?.nonce ?? `${seen.ino}-${Math.round(seen.mtimeMs * 1000)}`}`;
  if (!(await createExclusive(marker, JSON.stringify({ ...OWN, nonce: 'break' })))) {
    const other = await readLock(marker).catch(() => undefined);
    const markerHolder = other?.holder;
    const old = other !== undefined && Date.now() - other.mtimeMs > STALE_MARKER_MS;
    if (old && (markerHolder === undefined || !holderAlive(markerHolder))) await unlink(marker).catch(() => undefined);
    return;
  }
  try {
    const now = await readLock(lockPath);
    const same =
      now !== undefined &&
      (seen.holder ? now.holder?.nonce === seen.holder.nonce : now.holder === undefined && now.ino === seen.ino);
    if (same) await unlink(lockPath).catch(() => undefined);
  } finally {
    await unlink(marker).catch(() => undefined);
  }
}

function isStale(seen: { holder?: LockHolder; mtimeMs: number }): boolean {
  if (seen.holder) return !holderAlive(seen.holder);
  return Date.now() - seen.mtimeMs > UNREADABLE_STALE_MS;
}

/** Takes the lock file, waiting for a live holder at most `waitMs`; returns the nonce written. */
async function acquire(lockPath: string, waitMs: number): Promise<string> {
  const deadline = Date.now() + waitMs;
  const nonce = randomBytes(8).toString('hex');
  for (let attempt = 0; ; attempt++) {
    try {
      if (await createExclusive(lockPath, JSON.stringify({ ...OWN, nonce }))) return nonce;
    } catch (error) {
      throw new StoreError('write-failed', `cannot lock the journal (${lockPath}: ${describeFsError(error)})`);
    }
    const seen = await readLock(lockPath).catch(() => undefined);
    if (seen === undefined) continue; // released meanwhile: try again at once
    const stale = isStale(seen);
    if (stale) await breakStale(lockPath, seen);
    if (Date.now() >= deadline) {
      if (stale)
        throw new StoreError(
          'write-failed',
          `the journal's lock ${lockPath} was left by a pi-sessions process that is gone, and cannot be removed; remove it by hand`,
        );
      const who = seen.holder
        ? `pi-sessions process ${seen.holder.pid}${seen.holder.host === OWN.host ? '' : ` on ${seen.holder.host}`}`
        : 'another pi-sessions process';
      const waited = `${(waitMs / 1000).toFixed(waitMs < 1000 ? 1 : 0)} s`;
      throw new StoreError(
        'write-failed',
        `the journal is locked by ${who}; gave up after ${waited} (try again when it is done, or remove ${lockPath} if no pi-sessions is running)`,
      );
    }
    // A stale lock is retried at once (it is gone unless another process is breaking it).
    await sleep(stale ? 1 : Math.min(100, 5 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random()));
  }
}

async function release(lockPath: string, nonce: string): Promise<void> {
  // Only our own lock: never one that replaced it (ours would have been broken only had we died).
  const now = await readLock(lockPath).catch(() => undefined);
  if (now?.holder?.nonce === nonce) await unlink(lockPath).catch(() => undefined);
}

/** The locks this chain of calls holds (re-entrance) and, per lock, the queue of this process's chains. */
const held = new AsyncLocalStorage<ReadonlySet<string>>();
const queues = new Map<string, Promise<void>>();

/**
 * Runs `fn` holding the lock of the journal in `dir` (created by the caller). Re-entrant within
 * one chain of calls; other chains of this process wait their turn, other processes up to
 * `waitMs`. Throws a one-line StoreError when the lock cannot be taken.
 */
export async function withJournalLock<T>(dir: string, fn: () => Promise<T>, waitMs = LOCK_WAIT_MS): Promise<T> {
  const lockPath = join(dir, 'journal.lock');
  const mine = held.getStore();
  if (mine?.has(lockPath)) return fn();
  const previous = queues.get(lockPath) ?? Promise.resolve();
  let done!: () => void;
  const turn = new Promise<void>((resolve) => {
    done = resolve;
  });
  const queued = previous.then(() => turn);
  queues.set(lockPath, queued);
  try {
    await previous;
    const nonce = await acquire(lockPath, waitMs);
    try {
      return await held.run(new Set([...(mine ?? []), lockPath]), fn);
    } finally {
      await release(lockPath, nonce);
    }
  } finally {
    done();
    if (queues.get(lockPath) === queued) queues.delete(lockPath);
  }
}
