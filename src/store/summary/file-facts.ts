/**
 * What a row says of the file as a whole once its last line is read (summary.ts's `finish`): the
 * file-level problems and the row's `modified` time. Pure.
 */
import { plural } from '../../format.js';
import type { Problem, SessionHeader } from '../types.js';

export interface FileEnding {
  /** The file starts with a UTF-8 byte-order mark. */
  bom: boolean;
  size: number;
  endsWithNewline: boolean;
  /** Parent references that name no entry of the file. */
  orphans: number;
}

/** Adds the problems of the file as a whole to the problems its lines had. */
export function addFileProblems(problems: Problem[], file: FileEnding): void {
  if (file.bom)
    problems.unshift({
      line: 1,
      kind: 'bom',
      message: 'UTF-8 byte-order mark: pi 1.6 refuses to open this file',
    });
  if (!file.endsWithNewline && file.size > 0 && !problems.some((p) => p.kind === 'torn-last-line')) {
    problems.push({
      line: 0,
      kind: 'no-trailing-newline',
      message: 'the last line has no newline (pi appends one when it opens the file)',
    });
  }
  const orphans = file.orphans;
  if (orphans > 0)
    problems.push({
      line: 0,
      kind: 'orphan',
      message: `${plural(orphans, 'entry', 'entries')} ${orphans === 1 ? 'has' : 'have'} a missing parent`,
    });
}

/** pi's `modified`: the last message's time, else the header's, else the file's mtime. */
export function modifiedOf(lastActivity: number | undefined, header: SessionHeader, mtimeMs: number): Date {
  const headerTime = typeof header.timestamp === 'string' ? new Date(header.timestamp).getTime() : NaN;
  if (typeof lastActivity === 'number' && lastActivity > 0) return new Date(lastActivity);
  return !Number.isNaN(headerTime) ? new Date(headerTime) : new Date(mtimeMs);
}
