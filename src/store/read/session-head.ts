/**
 * What the start of a session file says about it, read in bounded memory and time (its first
 * HEAD_BYTES, never the whole file): the header's session id and cwd, and a title (the name or
 * the first user message found there). The journal records them, and undo compares the id with
 * the file it is about to touch. A FIFO or a device is never opened for reading (openRegular).
 */
import { constants } from 'node:fs';
import { editorTextOf, isObject, messageOf } from '../entry.js';
import { sessionTitle } from '../summary/title.js';
import type { SessionEntry } from '../types.js';
import { readAt } from './read-at.js';
import { openRegular } from './regular-file.js';

/** Bytes read from the start of a file. */
const HEAD_BYTES = 256 * 1024;

export interface SessionHead {
  /** The header's `id` (undefined: the first line is not a session header). */
  sessionId: string | undefined;
  cwd: string | undefined;
  /** The name or first user message within the head (whitespace collapsed), if any. */
  title: string | undefined;
}

/** The head of the file at `path`; undefined when it cannot be read (gone, not a regular file). */
export async function readSessionHead(path: string): Promise<SessionHead | undefined> {
  let opened: Awaited<ReturnType<typeof openRegular>>;
  try {
    opened = await openRegular(path, constants.O_RDONLY);
  } catch {
    return undefined;
  }
  try {
    const bytes = await readAt(opened.handle, 0, Math.min(HEAD_BYTES, opened.stats.size));
    return headOf(bytes.toString('utf8'));
  } catch {
    return undefined;
  } finally {
    await opened.handle.close();
  }
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The head of a file's first bytes (the last, possibly cut, line is ignored unless it is the only one). */
export function headOf(text: string): SessionHead {
  const lines = text.split('\n');
  const header = parse(lines[0] ?? '');
  const isHeader = header?.['type'] === 'session' && typeof header['id'] === 'string';
  const head: SessionHead = {
    sessionId: isHeader ? (header['id'] as string) : undefined,
    cwd: isHeader && typeof header['cwd'] === 'string' ? header['cwd'] : undefined,
    title: undefined,
  };
  if (!isHeader) return head;
  let name: string | undefined;
  let firstMessage: string | undefined;
  for (const line of lines.slice(1, -1)) {
    const entry = parse(line);
    if (!entry) continue;
    if (entry['type'] === 'session_info')
      name = typeof entry['name'] === 'string' ? entry['name'].trim() || undefined : undefined;
    const message = messageOf(entry as SessionEntry);
    if (firstMessage === undefined && message?.['role'] === 'user')
      firstMessage = editorTextOf(message['content']).trim() || undefined;
  }
  const title = sessionTitle({ name, firstMessage });
  if (title !== undefined) head.title = title.replace(/\s+/g, ' ');
  return head;
}
