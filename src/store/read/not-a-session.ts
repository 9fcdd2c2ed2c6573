/** Why a file cannot be read as a session, as a value (reading never throws for file problems). */

import type { NotASession } from '../types.js';
import { NotRegularFileError } from './regular-file.js';

export function notASession(path: string, reason: NotASession['reason'], message: string): NotASession {
  return { ok: false, path, reason, message };
}

/** A file-system error as the reason a file cannot be read (never thrown to callers). */
export function fsErrorResult(path: string, error: unknown): NotASession {
  // A FIFO, socket or device in place of a session: refused at open time, without blocking.
  if (error instanceof NotRegularFileError) return notASession(path, 'not-a-file', error.what);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return notASession(path, 'not-found', 'no such file');
  if (code === 'EISDIR') return notASession(path, 'not-a-file', 'is a directory, not a session file');
  if (code === 'EACCES' || code === 'EPERM') return notASession(path, 'unreadable', 'permission denied');
  return notASession(
    path,
    'unreadable',
    `cannot read (${code ?? (error instanceof Error ? error.message : String(error))})`,
  );
}
