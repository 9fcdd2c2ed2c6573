/**
 * Types of the session store: what a pi session file holds once read, and what the store
 * computes from it. The shapes follow pi 1.6.0's session format (its SessionManager is the oracle in tests);
 * entries keep every field of the file, including ones we do not know.
 */
import type { Seam } from './read/seam.js';

/** Any JSON object as parsed from a line. */
export type JsonObject = { [key: string]: unknown };

/** The first parsed line of a session file (`type: "session"`). Legacy fields are kept. */
export interface SessionHeader extends JsonObject {
  type: 'session';
  id: string;
  version?: number;
  timestamp?: string;
  cwd?: string;
  parentSession?: string;
}

/**
 * One non-header line, after the in-memory migration of v1/v2 files. `id` is always a string
 * (lines without one are reported as problems and left out), `parentId` a string or null.
 * Every other field is the file's own.
 */
export interface SessionEntry extends JsonObject {
  type: string;
  id: string;
  parentId: string | null;
  /** An ISO string in every file pi writes; broken files may hold anything (see `entryTimeMs`). */
  timestamp?: unknown;
}

/** Why a line (or the file) could not be used as is. Reading never throws for these. */
export type ProblemKind =
  | 'unparsable-line' // not JSON
  | 'glued-line' // two objects glued with `}{` (pre-0.84.4 pi); both recovered
  | 'not-an-object' // JSON that is not an object (number, string, array, null)
  | 'missing-id' // an entry without a string id
  | 'bad-parent' // parentId of the wrong type (treated as null)
  | 'junk-before-header' // unparsable lines before the header
  | 'bom' // a UTF-8 byte-order mark (pi refuses such a file)
  | 'invalid-utf8' // bytes that are not UTF-8 (decoded as U+FFFD, like pi)
  | 'torn-last-line' // the last line has no `\n` and does not parse
  | 'no-trailing-newline' // the last line parses but has no `\n` (pi would append one)
  | 'duplicate-header' // a second `session` line (pre-0.55.2 pi); ignored like pi
  | 'duplicate-id' // an id seen before; the last occurrence wins
  | 'orphan' // parentId names no entry: shown as an extra root
  | 'cycle' // parent links form a loop: broken at the entry shown as a root
  | 'bad-message' // a `message` entry without a usable `message` object
  | 'oversized-line' // a line too long for the listing to keep: counted from its start
  | 'retained-tail' // a compaction with `retainedTail` (pi 1.6 ignores the tail)
  | 'legacy-version'; // format v1/v2: migrated in memory, never written back by reading

export interface Problem {
  /** 1-based physical line number in the file; 0 for file-level problems. */
  line: number;
  kind: ProblemKind;
  message: string;
}

/** A file that cannot be read as a pi session (pi's "not a valid pi session"). */
export interface NotASession {
  ok: false;
  path: string;
  reason: 'not-found' | 'unreadable' | 'empty' | 'no-header' | 'bom' | 'not-a-file' | 'too-large';
  message: string;
}

/** A whole session file, read and migrated in memory (never written by reading). */
export interface LoadedSession {
  ok: true;
  path: string;
  header: SessionHeader;
  /** `version` of the header on disk; 1 when absent. */
  diskVersion: number;
  /** Entries in file order (the header excluded). Duplicated ids stay here twice. */
  entries: SessionEntry[];
  /** 1-based line number of each entry, parallel to `entries`. */
  entryLines: number[];
  problems: Problem[];
  /** Size in bytes and mtime at the moment it was read. */
  size: number;
  mtimeMs: number;
  /** Whether the file's last byte is `\n` (an append must then not add one). */
  endsWithNewline: boolean;
  /**
   * Where a reader of what pi appends next continues: the seam at the last `\n` read (see
   * scan.ts), the number of lines before it and the inode read. Absent only for sessions built
   * by hand.
   */
  resumeAt?: { seam: Seam; lines: number; ino: number };
}

export type ReadResult = LoadedSession | NotASession;

/** Token and cost totals, added up like pi's `/session` over every branch. */
export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: number;
}

/**
 * One row of a listing: pi's `SessionInfo` (same names and rules) plus what a browser needs.
 */
export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  name: string | undefined;
  parentSessionPath: string | undefined;
  created: Date;
  modified: Date;
  messageCount: number;
  firstMessage: string;
  /**
   * pi's rule, plus the text of compactions' `retainedTail` messages (which pi 1.6.0 ignores):
   * they are the session's messages too, and full-text search must find them.
   */
  allMessagesText: string;
  // Extras, not in pi:
  /**
   * Where the message text is in the session's tree, as runs over `allMessagesText`:
   * `[end, place, end, place, …]`, place 0 active, 1 abandoned, 2 compacted; `[]` when all of it
   * is active (store/summary/text-places.ts).
   */
  textPlaces: number[];
  /**
   * The `summary` of every branch_summary and compaction entry, joined with a space like the
   * message text: searched with it, but kept apart because `allMessagesText` is pi's own.
   */
  summaryText: string;
  /** The entry each summary in `summaryText` came from, in order (store/summary/text-places.ts). */
  summaryEntries: string[];
  /**
   * One `[end, place]` pair per summary, parallel to `summaryEntries`: its end offset in
   * `summaryText` (UTF-16 units, exclusive; the joining space belongs to the summary after it) and
   * its place (0 active, 1 abandoned, 2 compacted), like `textPlaces` but never merged or elided.
   */
  summaryPlaces: number[];
  /** File size in bytes and mtime (ms) when read. */
  size: number;
  mtimeMs: number;
  /** Header `version` on disk (1 when absent). */
  version: number;
  entryCount: number;
  /** User prompts over all branches (what a person calls "messages"). */
  userMessageCount: number;
  /** Assistant replies over all branches (0: the session never got an answer). */
  assistantMessageCount: number;
  /** Entries with two or more children. */
  branchCount: number;
  /** Last entry in file order: where pi resumes. */
  leafId: string | null;
  /** Every label currently set (resolved globally in file order). */
  labels: string[];
  /** Models that answered (provider/model), in order of first use. */
  models: string[];
  /** Tools the model called (names, in order of first use). */
  tools: string[];
  /** Paths tool calls touched and bash commands run, one per line (bounded: store/summary/tool-facts.ts). */
  toolTargets: string;
  /** The start of each tool output, while the session's bound allows (store/summary/tool-facts.ts). */
  toolOutputText: string;
  usage: UsageTotals;
  problems: Problem[];
}

/** A session's full-text pieces, kept beside its record by the catalogue and carried across an incremental refresh. */
export type SearchTexts = Pick<SessionInfo, 'allMessagesText' | 'summaryText' | 'toolTargets' | 'toolOutputText'>;
