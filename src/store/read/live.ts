/**
 * Live updates: watches a session file and reads only the whole lines appended since the last
 * read, through the store's scan (true line numbers, the store's line rules). A torn trailing
 * fragment (pi mid-write) is read again until its newline arrives. A file that was not only
 * appended to makes the caller reload it in full: shrunk, replaced (another inode), written
 * without growing (a new mtime at the same size), or grown with other bytes at the seam of the
 * last read (checked before every read; a change further back in a grown file is not seen). fs.watch is not reliable everywhere (network filesystems, some editors' rename-on-save),
 * so a slow poll backs it up.
 */
import { type FSWatcher, type Stats, watch as watchFile } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { JsonObject, LoadedSession, Problem, SessionEntry } from '../types.js';
import { isBlank, type LongLineSink, lineEntries, parseLine } from './lines.js';
import { entryOf } from './migrate.js';
import { type Seam, scanFrom } from './scan.js';
import { longLineEntries, parsingSink, READ_LINE_BYTES } from './too-large.js';

export type ReloadCause = 'shrank' | 'replaced' | 'rewritten' | 'torn-line-completed';

export type LiveEvent =
  /** Whole new lines: their entries, each entry's true line number, and what was wrong with the rest. */
  | { kind: 'append'; entries: SessionEntry[]; entryLines: number[]; problems: Problem[] }
  | { kind: 'reload'; cause: ReloadCause; reason: string }
  | { kind: 'error'; message: string };

const RELOAD_REASONS: Record<ReloadCause, string> = {
  shrank: 'the session file shrank',
  replaced: 'the session file was replaced',
  rewritten: 'the session file was rewritten',
  'torn-line-completed': 'the torn last line was completed',
};

function reload(cause: ReloadCause): LiveEvent {
  return { kind: 'reload', cause, reason: RELOAD_REASONS[cause] };
}

/** Collects the entries of appended lines by the reader's rules (glued `}{` lines included). */
class AppendedLines {
  readonly entries: SessionEntry[] = [];
  readonly entryLines: number[] = [];
  readonly problems: Problem[] = [];

  readonly onLine = (buf: Buffer, start: number, end: number, lineNo: number, terminated: boolean): void => {
    if (isBlank(buf, start, end)) return;
    const parsed = parseLine(buf, start, end, lineNo, this.problems);
    for (const value of lineEntries(parsed, lineNo, terminated, true, this.problems)) this.add(value, lineNo);
  };

  /** A line too long to hold, parsed as it streamed past (store/read/too-large.ts). */
  readonly onLongLine = (lineNo: number): LongLineSink =>
    parsingSink(lineNo, (line) => {
      for (const value of longLineEntries(line, true, this.problems)) this.add(value, line.lineNo);
    });

  private add(value: JsonObject, lineNo: number): void {
    // Appended lines come from pi 1.6, which writes v3: no migration, only the reader's entry rule.
    const entry = entryOf(value, lineNo, this.problems);
    if (!entry) return;
    this.entries.push(entry);
    this.entryLines.push(lineNo);
  }
}

/** Where watching starts: the session as read (its size, inode and resume point). */
export type LiveStart = Pick<LoadedSession, 'size' | 'mtimeMs' | 'resumeAt'>;

export interface LiveWatcher {
  /** Reads what was appended now (e.g. right after our own write). */
  poll(): Promise<void>;
  /** After a full reload: continue from the session as read again. */
  reset(from: LiveStart): void;
  close(): void;
}

export interface WatchOptions {
  from: LiveStart;
  pollMs?: number;
  onEvent(event: LiveEvent): void;
}

interface Position {
  seam: Seam;
  /** Lines before `seam.offset`. */
  lines: number;
  /** Inode as read (0 when unknown: the first stat sets it). */
  ino: number;
  /** Whether bytes after the seam (a torn last line) were dropped by the read the screen shows. */
  tornTail: boolean;
  /** Size and mtime at the last check: nothing is read while they stay the same. */
  size: number;
  mtimeMs: number;
}

function positionOf(from: LiveStart): Position {
  // A session built by hand has no resume point: treat its bytes as whole lines already counted.
  const seam = from.resumeAt?.seam ?? { offset: from.size, head: Buffer.alloc(0), tail: Buffer.alloc(0) };
  return {
    seam,
    lines: from.resumeAt?.lines ?? 0,
    ino: from.resumeAt?.ino ?? 0,
    tornTail: from.size > seam.offset,
    size: from.size,
    mtimeMs: from.mtimeMs,
  };
}

export function watchSession(path: string, options: WatchOptions): LiveWatcher {
  let at = positionOf(options.from);
  /** Set from a reload request until `reset`: the size and mtime the request was made at. */
  let awaitingReset: { size: number; mtimeMs: number } | undefined;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;

  const readNew = async (): Promise<void> => {
    let st: Stats;
    try {
      st = await stat(path);
    } catch (error) {
      options.onEvent({ kind: 'error', message: `session file unavailable: ${(error as Error).message}` });
      return;
    }
    if (awaitingReset) {
      // The reload did not happen (it failed): ask again once the file changes again.
      if (st.size === awaitingReset.size && st.mtimeMs === awaitingReset.mtimeMs) return;
      return restart(st, 'rewritten');
    }
    if (at.ino !== 0 && st.ino !== at.ino) return restart(st, 'replaced');
    if (st.size < at.seam.offset) return restart(st, 'shrank');
    if (st.size === at.size) {
      // Written without growing: never an append (pi only appends), so whatever changed, wherever.
      if (st.mtimeMs !== at.mtimeMs) return restart(st, 'rewritten');
      return;
    }
    const lines = new AppendedLines();
    const scanned = await scanFrom(
      path,
      {
        onLine: lines.onLine,
        maxLineBytes: () => READ_LINE_BYTES,
        onLongLine: lines.onLongLine,
        firstLine: at.lines + 1,
        partial: 'keep',
      },
      at.seam,
    );
    if ('rewritten' in scanned) return restart(st, 'rewritten');
    if ('ok' in scanned) {
      options.onEvent({ kind: 'error', message: `session file unavailable: ${scanned.message}` });
      return;
    }
    if (at.ino !== 0 && scanned.ino !== at.ino) return restart(st, 'replaced');
    const grew = scanned.seam.offset > at.seam.offset;
    const torn = at.tornTail;
    at = {
      seam: scanned.seam,
      lines: scanned.lastCompleteLine,
      ino: scanned.ino,
      tornTail: torn && !grew,
      size: st.size,
      mtimeMs: st.mtimeMs,
    };
    if (!grew) return;
    // The read the screen shows dropped a torn last line that is now complete: its start lies
    // before the old seam's end of what was shown, so only a full read shows it right.
    if (torn) return restart(st, 'torn-line-completed');
    if (lines.entries.length > 0 || lines.problems.length > 0) {
      options.onEvent({
        kind: 'append',
        entries: lines.entries,
        entryLines: lines.entryLines,
        problems: lines.problems,
      });
    }
  };

  const restart = (st: { size: number; mtimeMs: number }, cause: ReloadCause): void => {
    // Until the caller's reload calls `reset`, nothing is read: line numbers would be wrong.
    awaitingReset = { size: st.size, mtimeMs: st.mtimeMs };
    options.onEvent(reload(cause));
  };

  const poll = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await readNew();
        } catch (error) {
          options.onEvent({ kind: 'error', message: (error as Error).message });
        }
      } while (again && !closed);
      running = null;
    })();
    return running;
  };

  let watcher: FSWatcher | undefined;
  // fs.watch follows the inode it was given: after a file is replaced by rename (a sync tool, pi's
  // migration) it would report on the old file and leave the new one to the slow poll.
  const attach = (): void => {
    watcher?.close();
    try {
      watcher = watchFile(path, { persistent: false }, () => void poll());
      watcher.on('error', () => undefined);
    } catch {
      watcher = undefined;
    }
  };
  attach();
  const timer = setInterval(() => void poll(), options.pollMs ?? 1000);
  timer.unref();

  return {
    poll,
    reset(from: LiveStart) {
      const replaced = at.ino !== 0 && from.resumeAt !== undefined && from.resumeAt.ino !== at.ino;
      at = positionOf(from);
      awaitingReset = undefined;
      if (replaced && !closed) attach();
    },
    close() {
      closed = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
