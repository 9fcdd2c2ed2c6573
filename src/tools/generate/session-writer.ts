/**
 * Builds one session file's lines exactly as pi 1.6.0's SessionManager writes them: its entry
 * shapes and key order, 8-hex entry ids unique in the file, ISO entry timestamps that increase in
 * file order, and a leaf that moves the way pi's `branch` / `branchWithSummary` move it. Pure: the
 * lines are plain objects; store.ts serialises and writes them.
 */
import type { Rng } from './random.js';

export type Line = Record<string, unknown>;

export interface WriterOptions {
  id: string;
  cwd: string;
  startMs: number;
  rng: Rng;
  /** Absolute path of the session this one was forked from (pi's `parentSession`). */
  parentSession?: string;
  /** Lines to continue from (header first), e.g. a fork's copied path; the leaf is the last entry. */
  lines?: Line[];
}

export class SessionWriter {
  readonly lines: Line[] = [];
  /** Entry id → its line, for path walks and label resolution. */
  private readonly byId = new Map<string, Line>();
  leaf: string | null = null;
  clockMs: number;
  private readonly rng: Rng;

  constructor(readonly options: WriterOptions) {
    this.rng = options.rng;
    this.clockMs = options.startMs;
    if (options.lines) {
      this.lines.push(...options.lines);
      for (const line of options.lines.slice(1)) this.byId.set(line['id'] as string, line);
      this.leaf = options.lines.length > 1 ? (options.lines.at(-1)!['id'] as string) : null;
      return;
    }
    const header: Line = {
      type: 'session',
      version: 3,
      id: options.id,
      timestamp: iso(options.startMs),
      cwd: options.cwd,
    };
    if (options.parentSession !== undefined) header['parentSession'] = options.parentSession;
    this.lines.push(header);
  }

  get header(): Line {
    return this.lines[0]!;
  }

  get entryCount(): number {
    return this.lines.length - 1;
  }

  /** Lets time pass before the next entry (a user typing, a model thinking, a tool running). */
  wait(minMs: number, maxMs: number): void {
    this.clockMs += this.rng.int(minMs, maxMs);
  }

  /** A new id, unique in this file (pi's generateId: the first 8 hex digits of a random UUID). */
  newId(): string {
    let id = this.rng.hex(8);
    while (this.byId.has(id)) id = this.rng.hex(8);
    return id;
  }

  /** Appends an entry under the leaf (or `parentId`) and makes it the leaf. */
  private append(type: string, fields: Line, parentId: string | null = this.leaf): string {
    this.clockMs += this.rng.int(5, 900);
    const id = this.newId();
    const line: Line = { type, id, parentId, timestamp: iso(this.clockMs), ...fields };
    this.lines.push(line);
    this.byId.set(id, line);
    this.leaf = id;
    return id;
  }

  /** A `message` entry; the message's own timestamp is the entry's time in epoch ms, like pi's. */
  message(build: (timestampMs: number) => Line): string {
    return this.append('message', { message: build(this.clockMs + 1) });
  }

  modelChange(provider: string, modelId: string): string {
    return this.append('model_change', { provider, modelId });
  }

  thinkingLevelChange(thinkingLevel: string): string {
    return this.append('thinking_level_change', { thinkingLevel });
  }

  /** pi writes `label` even when clearing; `undefined` drops the key (an older client's clear). */
  label(targetId: string, label: string | undefined): string {
    return this.append('label', label === undefined ? { targetId } : { targetId, label });
  }

  sessionInfo(name: string): string {
    return this.append('session_info', { name });
  }

  compaction(summary: string, firstKeptEntryId: string, tokensBefore: number, details?: Line): string {
    return this.append(
      'compaction',
      details ? { summary, firstKeptEntryId, tokensBefore, details } : { summary, firstKeptEntryId, tokensBefore },
    );
  }

  custom(customType: string, data: unknown): string {
    // pi's appendCustomEntry puts customType and data before the id.
    this.clockMs += this.rng.int(5, 900);
    const id = this.newId();
    const line: Line = { type: 'custom', customType, data, id, parentId: this.leaf, timestamp: iso(this.clockMs) };
    this.lines.push(line);
    this.byId.set(id, line);
    this.leaf = id;
    return id;
  }

  /** pi's `branch(id)`: the next entry continues from `id`; nothing is written. */
  branch(id: string | null): void {
    if (id !== null && !this.byId.has(id)) throw new Error(`no entry ${id}`);
    this.leaf = id;
  }

  /** pi's `branchWithSummary`: a `branch_summary` under `targetId` that remembers the old leaf. */
  branchWithSummary(targetId: string | null, summary: string): string {
    const fromId = this.leaf ?? 'root';
    return this.append('branch_summary', { fromId, summary }, targetId);
  }

  /** The entries from the root to `leafId`, in order. */
  path(leafId: string | null = this.leaf): Line[] {
    const out: Line[] = [];
    for (let id = leafId; id !== null; ) {
      const line = this.byId.get(id);
      if (!line) break;
      out.push(line);
      id = line['parentId'] as string | null;
    }
    return out.reverse();
  }

  /** Ids of the message entries on the current path with the given role. */
  messagesOnPath(role: string): string[] {
    return this.path()
      .filter((l) => l['type'] === 'message' && (l['message'] as Line)['role'] === role)
      .map((l) => l['id'] as string);
  }

  /** The resolved labels (target → latest label line), as pi keeps them. */
  resolvedLabels(): Map<string, Line> {
    const labels = new Map<string, Line>();
    for (const line of this.lines) {
      if (line['type'] !== 'label') continue;
      const target = line['targetId'] as string;
      if (typeof line['label'] === 'string' && line['label'] !== '') labels.set(target, line);
      else labels.delete(target);
    }
    return labels;
  }
}

/**
 * The lines pi's `createBranchedSession(leafId)` writes for a fork: a new header with
 * `parentSession`, the path from the root to `leafId` without its label entries (re-chained), and
 * the resolved labels of that path re-created at the end with their original timestamps.
 */
export function forkedLines(source: SessionWriter, leafId: string, header: Line, rng: Rng): Line[] {
  const kept: Line[] = [];
  let parentId: string | null = null;
  for (const line of source.path(leafId)) {
    if (line['type'] === 'label') continue;
    kept.push({ ...line, parentId });
    parentId = line['id'] as string;
  }
  const ids = new Set(kept.map((l) => l['id'] as string));
  const labels: Line[] = [];
  for (const [targetId, label] of source.resolvedLabels()) {
    if (!ids.has(targetId)) continue;
    let id = rng.hex(8);
    while (ids.has(id)) id = rng.hex(8);
    ids.add(id);
    labels.push({ type: 'label', id, parentId, timestamp: label['timestamp'], targetId, label: label['label'] });
    parentId = id;
  }
  return [header, ...kept, ...labels];
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** pi's file name for a session started at `startMs`: `<ISO time, ':' and '.' as '-'>_<id>.jsonl`. */
export function sessionFileName(startMs: number, id: string): string {
  return `${iso(startMs).replace(/[:.]/g, '-')}_${id}.jsonl`;
}

export function serializeLines(lines: readonly Line[]): string {
  let out = '';
  for (const line of lines) out += `${JSON.stringify(line)}\n`;
  return out;
}
