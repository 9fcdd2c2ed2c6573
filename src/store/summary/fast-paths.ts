/**
 * The summary's two ways past a full parse (summary.ts explains why): a short toolResult line is
 * counted from a tiny parse of its prefix, and a line too long to buffer is counted from the digest
 * that streamed past (line-prefix.ts). Both give exactly the answer of a full parse, or say in a
 * problem what they left out.
 */
import {
  bytesAt,
  hasUsageKey,
  holdsAnotherEntry,
  type LongLineDigest,
  PREFIX_WINDOW,
  readEntryPrefix,
  readIdPrefix,
  TOOL_RESULT_MARKER,
  TOOL_RESULT_PREFIX,
} from '../read/line-prefix.js';
import type { Problem } from '../types.js';
import { boundedJsonString, OUTPUT_PER_CALL, type ToolFacts } from './tool-facts.js';

/** Entry types whose content the summary reads (beyond id and parent). */
export const SUMMARISED_TYPES = new Set(['message', 'session_info', 'label', 'compaction', 'branch_summary', 'usage']);

/** What the fast paths count into (the summary's collector). */
export interface SummaryCounts {
  entryCount: number;
  messageCount: number;
  userMessageCount: number;
  assistantMessageCount: number;
  readonly problems: Problem[];
  readonly toolFacts: ToolFacts;
  noteNode(id: string, parentId: string | null): void;
}

/**
 * A whole line (`buf[start, end)`) that starts like a pi-written toolResult message without usage
 * or glue: counted from its prefix, true; anything else false (the caller parses it).
 */
export function countToolResultLine(counts: SummaryCounts, buf: Buffer, start: number, end: number): boolean {
  if (end - start < TOOL_RESULT_PREFIX.length + TOOL_RESULT_MARKER.length) return false;
  if (!bytesAt(buf, start, TOOL_RESULT_PREFIX)) return false;
  // Every search is bounded to this line: an unbounded Buffer.indexOf would scan the rest of
  // the chunk for each line.
  const markerAt = buf.subarray(start, Math.min(end, start + PREFIX_WINDOW)).indexOf(TOOL_RESULT_MARKER);
  if (markerAt === -1) return false;
  const marker = start + markerAt;
  let last = end - 1;
  if (buf[last] === 0x0d) last--;
  if (buf[last] !== 0x7d /* } */) return false;
  // Usage (0.86+) must be counted, and a line that holds a second entry parsed.
  if (hasUsageKey(buf.subarray(marker, end)) || holdsAnotherEntry(buf.subarray(start + 1, end))) return false;
  const ids = readIdPrefix(buf, start + TOOL_RESULT_PREFIX.length, marker);
  if (!ids) return false;
  counts.entryCount++;
  counts.messageCount++;
  counts.noteNode(ids.id, ids.parentId);
  // Escapes take more bytes than the text they stand for: decode a little more than is kept.
  if (counts.toolFacts.wantsOutput)
    counts.toolFacts.addOutput(boundedJsonString(buf, marker, end, 2 * OUTPUT_PER_CALL));
  return true;
}

/**
 * A line too long to keep. A toolResult message or an entry the summary only counts (custom,
 * model_change…) without usage or glue gives exactly the answer of a full parse; anything else
 * is counted from its first bytes and reported.
 */
export function countLongLine(counts: SummaryCounts, line: LongLineDigest): void {
  const size = `${(line.bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (!line.terminated) {
    counts.problems.push({
      line: line.lineNo,
      kind: 'torn-last-line',
      message: `the last line (${size}) is cut off (no newline); ignored`,
    });
    return;
  }
  const prefix = readEntryPrefix(line.head);
  if (!prefix || prefix.type === 'session') {
    counts.problems.push({
      line: line.lineNo,
      kind: 'oversized-line',
      message: `line of ${size} is too long to summarise and does not start like an entry; skipped in the listing`,
    });
    return;
  }
  counts.entryCount++;
  counts.noteNode(prefix.id, prefix.parentId);
  const plain = line.endsWithBrace && !line.hasUsage && !line.hasGlue;
  if (prefix.type !== 'message') {
    if (plain && !SUMMARISED_TYPES.has(prefix.type)) return;
  } else {
    counts.messageCount++;
    const markerAt = line.head.subarray(0, PREFIX_WINDOW).indexOf(TOOL_RESULT_MARKER);
    if (plain && markerAt !== -1) {
      // The same bounded output prefix the short-line shortcut keeps.
      if (counts.toolFacts.wantsOutput)
        counts.toolFacts.addOutput(boundedJsonString(line.head, markerAt, line.head.length, 2 * OUTPUT_PER_CALL));
      return;
    }
    if (prefix.role === 'user') counts.userMessageCount++;
    if (prefix.role === 'assistant') counts.assistantMessageCount++;
  }
  counts.problems.push({
    line: line.lineNo,
    kind: 'oversized-line',
    message: `line of ${size} is too long to summarise: counted, but its text, model and usage are left out of the listing`,
  });
}
