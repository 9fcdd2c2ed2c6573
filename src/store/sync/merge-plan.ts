/**
 * Merging a session with its conflict copies (pure): a session is an append-only tree of
 * entries with unique ids, so the union of the copies' entries is a valid tree: the shared
 * prefix once, each copy's own entries after it as branches. pi makes the last entry of the
 * file its leaf, so the files are laid out oldest first (by mtime) and the copy modified last
 * comes last: its leaf is the merged file's leaf, as on the machine that wrote last.
 *
 * Each entry's line is copied byte for byte from the first file that has it; two files holding
 * the same id with different content (compared as canonical JSON, so key order and spacing do
 * not count) are refused: one of them would be lost.
 */
import { StoreError } from '../errors.js';
import { CURRENT_VERSION } from '../read/migrate.js';
import type { LoadedSession, ProblemKind } from '../types.js';

/** One file to merge: its bytes and what the reader made of them. */
export interface MergeInput {
  path: string;
  bytes: Buffer;
  session: LoadedSession;
  mtimeMs: number;
}

export interface MergePlan {
  /** The merged file's bytes: the original's header line, then every entry once. */
  bytes: Buffer;
  /** Per input path: the entries it holds that no other input does. */
  own: Map<string, number>;
  /** Entries in the merged file. */
  entries: number;
  /** The merged file's leaf (its last entry), and the path of the file whose leaf it is. */
  leafId: string | null;
  leafFrom: string;
}

/**
 * Reader problems a merge copies through unchanged (the lines stay as they were); any other means
 * a line the merge could not carry over exactly, so it is refused.
 */
const CARRIED: ReadonlySet<ProblemKind> = new Set(['no-trailing-newline', 'retained-tail', 'orphan', 'bad-message']);

/** JSON with object keys sorted at every depth: equal for equal values whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The physical lines of `bytes` (1-based: index 0 is line 1), without their `\n`. */
function physicalLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return lines;
}

function refuseUnmergeable(input: MergeInput): void {
  const { session, path } = input;
  if (session.diskVersion < CURRENT_VERSION)
    throw new StoreError(
      'bad-input',
      `cannot merge ${path}: it is format v${session.diskVersion} (open it in pi once to migrate it); nothing was merged`,
    );
  const problem = session.problems.find((p) => !CARRIED.has(p.kind));
  if (problem)
    throw new StoreError(
      'bad-input',
      `cannot merge ${path}: line ${problem.line}: ${problem.message} (pi-sessions check ${path} says more); nothing was merged`,
    );
}

/**
 * Plans the merge of `inputs` (the original first, then its copies; all the same session).
 * Throws a one-line StoreError when a file cannot be carried over exactly or two files disagree
 * about an entry.
 */
export function planMerge(inputs: readonly MergeInput[]): MergePlan {
  if (inputs.length < 2) throw new StoreError('no-entry', 'nothing to merge: no conflict copy');
  for (const input of inputs) refuseUnmergeable(input);
  const original = inputs[0]!;
  // Oldest first; a tie keeps the order given (the original, then the copies by name).
  const order = inputs
    .map((input, index) => ({ input, index }))
    .sort((a, b) => a.input.mtimeMs - b.input.mtimeMs || a.index - b.index);
  const seen = new Map<string, { canonical: string; path: string; line: number }>();
  const holders = new Map<string, number>();
  const out: Buffer[] = [];
  const newline = Buffer.from('\n');
  const header = physicalLines(original.bytes)[0]!;
  out.push(header, newline);
  let entries = 0;
  let leafId: string | null = null;
  let leafFrom = original.path;
  for (const { input } of order) {
    const lines = physicalLines(input.bytes);
    const { entries: list, entryLines } = input.session;
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!;
      const canonical = canonicalJson(entry);
      const line = entryLines[i]!;
      const before = seen.get(entry.id);
      if (before) {
        if (before.canonical !== canonical)
          throw new StoreError(
            'bad-input',
            `cannot merge: ${before.path} (line ${before.line}) and ${input.path} (line ${line}) hold different entries with the same id ${entry.id}; nothing was merged`,
          );
        if (before.path !== input.path) holders.set(entry.id, (holders.get(entry.id) ?? 1) + 1);
        continue;
      }
      seen.set(entry.id, { canonical, path: input.path, line });
      holders.set(entry.id, 1);
      out.push(lines[line - 1]!, newline);
      entries++;
      leafId = entry.id;
      leafFrom = input.path;
    }
  }
  const own = new Map(inputs.map((input) => [input.path, 0]));
  for (const [id, first] of seen) if (holders.get(id) === 1) own.set(first.path, own.get(first.path)! + 1);
  return { bytes: Buffer.concat(out), own, entries, leafId, leafFrom };
}
