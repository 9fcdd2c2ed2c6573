/**
 * What each file of a conflict group adds, for the picker's preview: the entries no other file of
 * the group holds (how many, and the first lines of their text), and whether the merge would be
 * refused (two files disagreeing about an entry with the same id), with the merge's own message.
 * Reads the files whole, as the merge does; never writes.
 */
import { resolve } from 'node:path';
import { messageOf, roleOf, textOfContent } from '../entry.js';
import { firstLineOf } from '../errors.js';
import type { SessionEntry } from '../types.js';
import type { ConflictCopy, ConflictGroup } from './conflict-names.js';
import { readGroupFiles } from './merge.js';
import { planMerge } from './merge-plan.js';

/** Lines of text shown per file: enough to tell the machines' work apart at a glance. */
export const COPY_ADDS_LINES = 3;

export interface FileAdds {
  path: string;
  /** Absent for the original. */
  copy?: ConflictCopy;
  /** Entries only this file holds. */
  own: number;
  /** The first of them with text, one line each: `you › …`, `pi › …`, or the entry's kind. */
  lines: string[];
}

export interface ConflictAdds {
  /** The original first, then its copies. */
  files: FileAdds[];
  /** Why the merge is refused (the store's message), when it is. */
  refused?: string;
}

/** One line saying what an entry is: its message text (first line), or its kind. */
export function entryLine(entry: SessionEntry): string {
  const role = roleOf(entry);
  const text = textOfContent(messageOf(entry)?.['content']).trim().split('\n')[0] ?? '';
  if (role === 'user' && text !== '') return `you › ${text}`;
  if (role === 'assistant' && text !== '') return `pi › ${text}`;
  if (role !== undefined) return `(${role})`;
  const summary = entry['summary'];
  if (typeof summary === 'string' && summary.trim() !== '') return `(${entry.type}) ${summary.trim().split('\n')[0]}`;
  return `(${entry.type})`;
}

/**
 * What each file of `group` adds. A file that cannot be read whole (gone, unreadable, not a
 * session) is a refusal too, as the merge would refuse it: then no file's additions are known.
 */
export async function describeConflictAdds(group: ConflictGroup): Promise<ConflictAdds> {
  let files: Awaited<ReturnType<typeof readGroupFiles>>;
  try {
    files = await readGroupFiles(group);
  } catch (error) {
    return { files: [], refused: firstLineOf(error) };
  }
  const holders = new Map<string, number>();
  for (const { input } of files) {
    const ids = new Set(input.session.entries.map((e) => e.id));
    for (const id of ids) holders.set(id, (holders.get(id) ?? 0) + 1);
  }
  const copies = new Map(group.copies.map((c) => [resolve(c.path), c]));
  const adds: FileAdds[] = files.map(({ input }) => {
    const own = input.session.entries.filter((e) => holders.get(e.id) === 1);
    const copy = copies.get(input.path);
    // Entries without text (tool results, model changes, labels) are counted, not shown.
    const lines = own
      .map(entryLine)
      .filter((line) => !/^\([^)]*\)$/.test(line))
      .slice(0, COPY_ADDS_LINES);
    return { path: input.path, ...(copy ? { copy } : {}), own: own.length, lines };
  });
  try {
    planMerge(files.map((f) => f.input));
    return { files: adds };
  } catch (error) {
    return { files: adds, refused: firstLineOf(error) };
  }
}
