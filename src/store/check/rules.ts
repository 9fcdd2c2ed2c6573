/**
 * The audit's rules (pure): what each problem the reader or the tree found means for pi 1.6.0
 * (session-format.md §7 and the corpus goldens' `error` / `change`), and what a person can do.
 * check.ts does the file-system part and hands the facts here.
 */
import { describeValue } from '../read/lines.js';
import type { JsonObject, NotASession, Problem, ProblemKind } from '../types.js';

/**
 * pi 1.6.0 parses every line of a session into memory when it opens it (and reads every file
 * again for each `/resume` listing): past this size opening and resuming take seconds and
 * hundreds of megabytes. 32 MiB is about 100,000 typical entries.
 */
export const SLOW_FOR_PI_BYTES = 32 * 1024 * 1024;

/**
 * Above this the audit does not read the file line by line: its entries would all be in memory
 * at once, at several times the file's size (a single line never is: too-large.ts). pi, which
 * holds the whole file as one string, fails on it well before V8's ~512 MB string limit.
 */
export const TOO_LARGE_TO_AUDIT_BYTES = 256 * 1024 * 1024;

export type CheckKind =
  | ProblemKind
  | 'not-a-session'
  | 'empty'
  | 'hidden-by-pi'
  | 'not-regular'
  | 'unreadable'
  | 'parent-session-missing'
  | 'cwd-missing'
  | 'slow-for-pi'
  | 'too-large'
  | 'impossible-value'
  | 'conflict-copy';

export interface CheckProblem {
  path: string;
  /** 1-based line; 0 for the whole file. */
  line: number;
  kind: CheckKind;
  /** `error`: pi loses, hides, refuses or rewrites something; `warning`: it works, with a cost. */
  severity: 'error' | 'warning';
  message: string;
  /** What pi 1.6.0 does with it. */
  pi: string;
  /** What can be done. */
  fix: string;
}

interface Rule {
  severity: CheckProblem['severity'];
  pi: string;
  fix: string;
}

const RULES: Record<CheckKind, Rule> = {
  'unparsable-line': {
    severity: 'error',
    pi: 'skips the line; a migration rewrite would lose it for good',
    fix: 'nothing is recoverable from the line; pi-sessions and pi both read past it',
  },
  'glued-line': {
    severity: 'error',
    pi: 'cannot parse the line and skips every entry on it',
    fix: 'fork the session with pi-sessions (it recovers both entries) and use the fork',
  },
  'not-an-object': {
    severity: 'error',
    pi: 'keeps it as an entry without an id (the leaf may become undefined)',
    fix: 'fork the session with pi-sessions: the fork leaves the line out',
  },
  'missing-id': {
    severity: 'error',
    pi: 'indexes it under `undefined`; if it is last, pi resumes from nothing',
    fix: 'fork the session with pi-sessions: the fork leaves the entry out',
  },
  'bad-parent': {
    severity: 'error',
    pi: 'cannot place the entry under a parent',
    fix: 'fork the session with pi-sessions to get a clean tree',
  },
  'junk-before-header': {
    severity: 'error',
    pi: 'skips the lines, then opens the file from its header',
    fix: 'nothing to do unless the lines matter; they are not JSON',
  },
  bom: {
    severity: 'error',
    pi: 'refuses to open the file ("not a valid pi session")',
    fix: 'remove the first 3 bytes (EF BB BF) of the file, e.g. with `sed -i "1s/^\\xEF\\xBB\\xBF//"`',
  },
  'invalid-utf8': {
    severity: 'warning',
    pi: 'reads the bytes as U+FFFD (the original text is lost to it)',
    fix: 'nothing needed; the rest of the line is intact',
  },
  'torn-last-line': {
    severity: 'error',
    pi: 'appends a newline on open and skips the fragment (a write on open: fails on read-only media)',
    fix: 'the cut-off entry is lost; resume normally, pi continues after the last whole entry',
  },
  'no-trailing-newline': {
    severity: 'warning',
    pi: 'appends "\\n" to the file when it opens it (fails on read-only media)',
    fix: 'open it once in pi, or append a newline',
  },
  'duplicate-header': { severity: 'warning', pi: 'ignores the second header', fix: 'nothing needed' },
  'duplicate-id': {
    severity: 'error',
    pi: 'shows the entry and its subtree twice in /tree; the last occurrence wins',
    fix: 'fork the session with pi-sessions (ids deduplicated, last wins)',
  },
  orphan: {
    severity: 'error',
    pi: 'shows it as a root; the context stops there, so everything before it is lost to the model',
    fix: 'branch from an entry above the orphan, or fork with pi-sessions',
  },
  cycle: {
    severity: 'error',
    pi: 'hangs if the leaf is inside the loop; otherwise the entries are invisible',
    fix: 'branch (pi-sessions branch) to an entry outside the loop before opening it in pi',
  },
  'bad-message': {
    severity: 'error',
    pi: 'hides the whole session from /resume and throws when building its context',
    fix: 'fork the session with pi-sessions from an entry before that line',
  },
  'oversized-line': {
    severity: 'warning',
    pi: 'reads the line whole into memory',
    fix: 'nothing needed unless the file is slow to open; then slim it (pi-sessions slim, or Alt+S in the list): only the active branch is kept',
  },
  'legacy-version': {
    severity: 'error',
    pi: 'rewrites the whole file (migration to v3) when it opens it; malformed lines are lost then',
    fix: 'check it first; pi-sessions reads it without migrating',
  },
  'hidden-by-pi': {
    severity: 'error',
    pi: 'fails while listing the file, so the whole session is missing from /resume',
    fix: 'fork the session with pi-sessions from an entry before that line, or open it by path in pi-sessions',
  },
  'not-a-session': {
    severity: 'error',
    pi: 'refuses to open it ("not a valid pi session") and leaves it out of /resume',
    fix: 'move it out of the sessions folder if it is not a session',
  },
  empty: {
    severity: 'error',
    pi: 'writes a new header into it when opened (the id then no longer matches the name)',
    fix: 'delete it: there is nothing in it',
  },
  'not-regular': {
    severity: 'error',
    pi: 'blocks or fails reading it (a FIFO blocks until something writes to it)',
    fix: 'remove it from the sessions folder',
  },
  unreadable: { severity: 'error', pi: 'cannot read it either and leaves it out', fix: 'fix its permissions' },
  'parent-session-missing': {
    severity: 'warning',
    pi: 'opens the fork; the link to the session it came from leads nowhere',
    fix: 'nothing needed; the fork holds its own copy of the conversation',
  },
  'conflict-copy': {
    severity: 'warning',
    pi: 'lists the original and each conflict copy as separate sessions with the same id; each resumes only what its machine wrote',
    fix: "pi-sessions merge-conflicts FILE --yes merges them into one file (each copy's entries as branches, the copy written last active; pi-sessions undo puts every file back)",
  },
  'cwd-missing': {
    severity: 'warning',
    pi: 'resumes it, but its tools run in a folder that no longer exists',
    fix: 'restore the folder, or delete the session if the project is gone',
  },
  'slow-for-pi': {
    severity: 'warning',
    pi: 'reads and parses the whole file on every open and /resume listing: slow, and memory-hungry',
    fix: 'slim it (pi-sessions slim, or Alt+S in the list): the active branch goes to a new file, the original to the trash (undo puts it back)',
  },
  'too-large': {
    severity: 'error',
    pi: 'cannot load it (a line or the file is beyond what it can hold in memory)',
    fix: 'slim it (pi-sessions slim, or Alt+S in the list) to keep only the active branch, or move the file away',
  },
  'retained-tail': {
    severity: 'warning',
    pi: 'ignores retainedTail (pi 1.6.0 predates it): the model does not see the retained messages after this compaction, and the context keeps the entries from firstKeptEntryId instead',
    fix: 'nothing to repair: the file is valid and a pi that reads retainedTail uses them; pi-sessions shows them in the tree (┆ rows) and Copy puts one back on the clipboard to re-send',
  },
  'impossible-value': {
    severity: 'warning',
    pi: 'loads it and adds the figure to its /session totals as written (huge, negative or not a number); a wrong date moves the entry among its siblings in /tree',
    fix: 'nothing breaks: pi-sessions stats leaves the value out and says so; if the file was edited by hand or another tool, compare it with a backup',
  },
};

export function checkProblem(path: string, line: number, kind: CheckKind, message: string): CheckProblem {
  const rule = RULES[kind];
  return { path, line, kind, severity: rule.severity, message, pi: rule.pi, fix: rule.fix };
}

/** The reader's and the tree's problems, as audit problems. */
export function fromReaderProblems(path: string, problems: readonly Problem[]): CheckProblem[] {
  return problems.map((problem) => checkProblem(path, problem.line, problem.kind, problem.message));
}

/**
 * Why pi 1.6.0's listing (`buildSessionInfo`) would throw on this entry and so hide the session,
 * or undefined. It calls `name?.trim()` on a session_info, and on a user or assistant message with
 * `content` either uses a string or calls `content.filter(block => block.type …)`.
 */
export function piListingFailure(entry: JsonObject): string | undefined {
  if (entry['type'] === 'session_info') {
    const name = entry['name'];
    if (name !== undefined && name !== null && typeof name !== 'string')
      return `session name is ${describeValue(name)}, not text`;
    return undefined;
  }
  if (entry['type'] !== 'message') return undefined;
  const message = entry['message'];
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined; // bad-message says it
  const m = message as JsonObject;
  if ((m['role'] !== 'user' && m['role'] !== 'assistant') || !('content' in m)) return undefined;
  const content = m['content'];
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `${m['role']} message content is ${describeValue(content)}, not text or blocks`;
  if (content.some((block) => block === null || block === undefined))
    return `${m['role']} message content holds a null block`;
  return undefined;
}

/** A file the reader could not read as a session. */
export function fromNotASession(result: NotASession): CheckProblem {
  switch (result.reason) {
    case 'empty':
      return checkProblem(result.path, 0, 'empty', result.message);
    case 'bom':
      return checkProblem(result.path, 1, 'bom', `${result.message} (the header follows a UTF-8 byte-order mark)`);
    case 'not-a-file':
      return checkProblem(result.path, 0, 'not-regular', result.message);
    case 'not-found':
    case 'unreadable':
      return checkProblem(result.path, 0, 'unreadable', result.message);
    case 'too-large':
      return checkProblem(result.path, 0, 'too-large', result.message);
    case 'no-header':
      return checkProblem(result.path, 0, 'not-a-session', result.message);
  }
}

/** The health figures of one readable session. */
export interface SessionHealth {
  size: number;
  entries: number;
  compactions: number;
  /** Bytes of the lines holding tool results, and their share of the file (0..1). */
  toolOutputBytes: number;
  toolOutputShare: number;
  /** The biggest entries, largest first (at most `LARGEST_ENTRIES`). */
  largestEntries: { line: number; id: string; type: string; bytes: number }[];
}

export const LARGEST_ENTRIES = 3;

/** Keeps the `n` largest items seen, largest first, without sorting everything. */
export function keepLargest<T extends { bytes: number }>(kept: T[], item: T, n = LARGEST_ENTRIES): void {
  if (kept.length === n && kept[n - 1]!.bytes >= item.bytes) return;
  let at = kept.findIndex((k) => k.bytes < item.bytes);
  if (at === -1) at = kept.length;
  kept.splice(at, 0, item);
  if (kept.length > n) kept.pop();
}
