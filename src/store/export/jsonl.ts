/**
 * The JSONL export: a session file pi opens. One branch is a fork of it (the store's fork planner,
 * fork.ts: a new session id, the branch rechained, its labels re-created) written where the user
 * asked, with no `parentSession` (the path of a file on this machine means nothing to whoever gets
 * it). Every branch is the file itself, line for line. Either way secrets can be replaced where
 * they stand (redact-text.ts), every other byte as it was.
 */
import { constants } from 'node:fs';
import { resolve } from 'node:path';
import { openSession, readWhole } from '../read/session-file.js';
import { forkSession } from '../write/fork.js';
import { redactLine } from './redact-text.js';

export interface JsonlExport {
  /** Where it went: the file, or '' for a function target. */
  path: string;
  entries: number;
}

export type JsonlTarget = string | ((chunks: AsyncIterable<Buffer>) => Promise<void>);

/** Whole lines of `text` with the secrets replaced (lines without one untouched). */
export function redactLines(text: string, secrets: ReadonlyMap<string, string>): string {
  if (secrets.size === 0) return text;
  const raws = [...secrets.keys()].map((s) => JSON.stringify(s).slice(1, -1));
  return text
    .split('\n')
    .map((line) => (raws.some((raw) => line.includes(raw)) || mayHideSecret(line) ? redactLine(line, secrets) : line))
    .join('\n');
}

/** A line with escapes JSON.stringify would not write: a secret may be spelt differently there. */
function mayHideSecret(line: string): boolean {
  return /\\u00[2-7]|\\\//.test(line);
}

/** The branch to `leafId` as a new session file (a fork without a parent), secrets redacted when given. */
export async function exportBranchJsonl(
  source: string,
  leafId: string,
  target: JsonlTarget,
  secrets: ReadonlyMap<string, string> = new Map(),
): Promise<JsonlExport> {
  const fork = await forkSession(source, leafId, {
    position: 'at',
    journal: false,
    parentSession: null,
    target,
    ...(secrets.size > 0 ? { rewrite: (lines: string) => redactLines(lines, secrets) } : {}),
  });
  return { path: typeof target === 'string' ? resolve(target) : '', entries: fork.entries };
}

/** Every branch: the session file's own lines (redacted when asked). */
export async function exportFileJsonl(
  source: string,
  secrets: ReadonlyMap<string, string> = new Map(),
): Promise<Buffer> {
  // openSession refuses a FIFO or a device (never a blocking open) and says why a file cannot be read.
  const { handle, stats } = await openSession(resolve(source), constants.O_RDONLY);
  let bytes: Buffer;
  try {
    bytes = await readWhole(handle, source, stats.size);
  } finally {
    await handle.close();
  }
  return secrets.size === 0 ? bytes : Buffer.from(redactLines(bytes.toString('utf8'), secrets));
}
