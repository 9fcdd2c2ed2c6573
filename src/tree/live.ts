/**
 * Live updates: watches a session file and reads only the bytes appended since the last read,
 * handing complete new lines to the screen. A torn trailing fragment (pi mid-write) is kept until
 * its newline arrives. If the file shrinks or is replaced (another inode), the caller is told to
 * reload it fully. fs.watch is not reliable everywhere (network filesystems, some editors'
 * rename-on-save), so a slow size poll backs it up.
 */
import { watch as watchFile, type FSWatcher } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { parseText } from '../store/lines.js';
import type { JsonObject, SessionEntry } from '../store/types.js';

export type LiveEvent =
  | { kind: 'append'; entries: SessionEntry[]; skipped: number }
  | { kind: 'reload'; reason: string }
  | { kind: 'error'; message: string };

function isEntry(value: JsonObject): value is SessionEntry {
  return typeof value['id'] === 'string' && typeof value['type'] === 'string' && value['type'] !== 'session';
}

/**
 * Parses appended lines into entries with the store's line parser (glued `}{` lines included).
 * Lines that are not entries (garbage, objects without an id) are counted, not fatal.
 */
export function parseAppended(lines: readonly string[]): { entries: SessionEntry[]; skipped: number } {
  const entries: SessionEntry[] = [];
  let skipped = 0;
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const parsed = parseText(line);
    const values = parsed.kind === 'object' ? [parsed.value] : parsed.kind === 'glued' ? parsed.values : [];
    if (values.length === 0) skipped++;
    for (const value of values) {
      if (!isEntry(value)) {
        skipped++;
        continue;
      }
      // The store's migration gives entries `parentId: null` when absent; appended v3 lines have it.
      const parentId = typeof value.parentId === 'string' ? value.parentId : null;
      entries.push({ ...value, parentId, timestamp: typeof value.timestamp === 'string' ? value.timestamp : '' });
    }
  }
  return { entries, skipped };
}

export interface LiveWatcher {
  /** Reads what was appended now (e.g. right after our own write). */
  poll(): Promise<void>;
  /** After a full reload: continue from this size / inode. */
  reset(size: number, ino: number): void;
  close(): void;
}

export interface WatchOptions {
  /** Size of the file as read (bytes already seen). */
  size: number;
  /** Inode as read (0 when unknown: replacement is then detected by size only). */
  ino?: number;
  /** Whether the bytes read ended with '\n' (otherwise the first appended line continues a torn one). */
  endsWithNewline?: boolean;
  pollMs?: number;
  onEvent(event: LiveEvent): void;
}

export function watchSession(path: string, options: WatchOptions): LiveWatcher {
  let offset = options.size;
  let ino = options.ino ?? 0;
  // When the file as read ended in a torn line, the store dropped it; once pi completes it, a full
  // reload picks it up (its start lies before `offset`).
  let skipToNewline = options.endsWithNewline === false;
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;

  const readNew = async (): Promise<void> => {
    let st;
    try {
      st = await stat(path);
    } catch (error) {
      options.onEvent({ kind: 'error', message: `session file unavailable: ${(error as Error).message}` });
      return;
    }
    if ((ino !== 0 && st.ino !== ino) || st.size < offset) {
      const reason = st.size < offset ? 'the session file shrank' : 'the session file was replaced';
      offset = st.size;
      ino = st.ino;
      skipToNewline = false;
      options.onEvent({ kind: 'reload', reason });
      return;
    }
    if (ino === 0) ino = st.ino;
    if (st.size === offset) return;
    const handle = await open(path, 'r');
    let bytes: Buffer;
    try {
      const length = st.size - offset;
      const buf = Buffer.alloc(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(buf, read, length - read, offset + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      bytes = buf.subarray(0, read);
    } finally {
      await handle.close();
    }
    // Only whole lines are consumed; a torn tail (pi mid-write, or a multi-byte character cut by
    // the read) is read again, as bytes, next time.
    const lastNl = bytes.lastIndexOf(0x0a);
    if (lastNl === -1) return;
    if (skipToNewline) {
      skipToNewline = false;
      offset = st.size;
      options.onEvent({ kind: 'reload', reason: 'the torn last line was completed' });
      return;
    }
    offset += lastNl + 1;
    const lines = bytes.subarray(0, lastNl).toString('utf8').split('\n');
    const { entries, skipped } = parseAppended(lines);
    if (entries.length > 0 || skipped > 0) options.onEvent({ kind: 'append', entries, skipped });
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
  try {
    watcher = watchFile(path, { persistent: false }, () => void poll());
    watcher.on('error', () => undefined);
  } catch {
    watcher = undefined;
  }
  const timer = setInterval(() => void poll(), options.pollMs ?? 1000);
  timer.unref();

  return {
    poll,
    reset(size: number, newIno: number) {
      offset = size;
      ino = newIno;
      skipToNewline = false;
    },
    close() {
      closed = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
