/**
 * A row whose file is exactly as pi-sessions' last journalled write left it (same size and mtime):
 * its recent mtime is ours, not a running pi's, so it is not `live`. The mark is put on a copy of
 * the listed session by the picker's source (session-source.ts), never on what the store or the
 * catalogue keep, so it is not one of SessionInfo's fields.
 */
import type { SessionInfo } from '../store/index.js';

type MarkedSession = SessionInfo & { lastWriteOurs?: true };

export function markedOwnWrite(info: SessionInfo): SessionInfo {
  const marked: MarkedSession = { ...info, lastWriteOurs: true };
  return marked;
}

export function isOwnLastWrite(info: SessionInfo): boolean {
  return (info as MarkedSession).lastWriteOurs === true;
}
