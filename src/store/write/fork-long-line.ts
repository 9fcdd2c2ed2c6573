/**
 * Copying a line too long to hold (too-large.ts) into a fork: its bytes are read a chunk at a time
 * and written as they are, but for the members the fork changes (its `parentId`, a compaction's
 * `firstKeptEntryId`), whose places the bounded parse recorded. The line is never held whole, and
 * no text of it is cut: the copy is the entry pi would read, byte for byte but for those members.
 */

import { StoreError } from '../errors.js';
import type { EntryLink, LongLine } from '../read/append-scan.js';
import { type ByteSource, readAt } from '../read/read-at.js';
import { describeTooLarge } from '../read/too-large.js';

/** Bytes of a long line read per chunk (and per event-loop turn) while it is copied. */
const COPY_CHUNK_BYTES = 1024 * 1024;

/** A long line on a fork's branch: the entry's id and where its line is. */
export interface LongEntry {
  id: string;
  link: EntryLink & { long: LongLine };
}

/** Why this long line cannot be copied with these members replaced, or undefined. */
export function whyLongLineCannotBeCopied(entry: LongEntry, members: readonly string[]): string | undefined {
  const { long } = entry.link;
  const size = describeTooLarge(long);
  if (long.glued) return `${size} and holds several entries glued together: too large to copy apart`;
  for (const member of ['id', ...members])
    if (!long.members.has(member)) return `${size} and its entry has no "${member}" member to rewrite`;
  return undefined;
}

/**
 * The line's bytes with each member in `replace` set to its new value (JSON), then `\n`. Checks
 * first that the line still holds the entry `id` where the scan found it.
 */
export async function* copyLongLine(
  source: ByteSource,
  entry: LongEntry,
  replace: ReadonlyMap<string, unknown>,
): AsyncGenerator<Buffer> {
  const { link } = entry;
  const members = link.long.members;
  const idSpan = members.get('id')!;
  let written: unknown;
  try {
    written = JSON.parse((await readAt(source, link.start + idSpan.start, idSpan.end - idSpan.start)).toString('utf8'));
  } catch {
    written = undefined;
  }
  if (written !== entry.id)
    throw new StoreError(
      'write-failed',
      `cannot fork: entry ${entry.id} changed while it was being read; nothing was created`,
    );
  const spans = [...replace.keys()]
    .map((key) => ({ span: members.get(key)!, text: JSON.stringify(replace.get(key)) }))
    .sort((a, b) => a.span.start - b.span.start);
  let at = link.start;
  const copyTo = async function* (end: number): AsyncGenerator<Buffer> {
    while (at < end) {
      const bytes = await readAt(source, at, Math.min(COPY_CHUNK_BYTES, end - at));
      if (bytes.length === 0)
        throw new StoreError(
          'write-failed',
          `cannot fork: the session got shorter while it was being read; nothing was created`,
        );
      at += bytes.length;
      yield bytes;
    }
  };
  for (const { span, text } of spans) {
    yield* copyTo(link.start + span.start);
    yield Buffer.from(text);
    at = link.start + span.end;
  }
  yield* copyTo(link.end);
  yield Buffer.from('\n');
}
