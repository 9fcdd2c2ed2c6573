/**
 * Every write pi-sessions makes to a session file (session-format.md §9–§12, §15 traps 12–19).
 *
 * - Append-only: one `write` per entry line on an O_APPEND descriptor, compact JSON + `\n`.
 * - The entry hangs under the file's real last line: the file is re-read right before writing, and
 *   if it changed between that read and the append (pi appended meanwhile), we read again.
 * - v1/v2 files are first migrated by an atomic rewrite (temp file, fsync, rename) that keeps
 *   every line pi would drop; a file that is not a session is refused.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isObject, messageOf, textOfContent } from './entry.js';
import { describeFsError, StoreError } from './errors.js';
import { LineSplitter } from './lines.js';
import { CURRENT_VERSION, migrateInMemory } from './migrate.js';
import { readSessionSync, SessionCollector } from './read.js';
import { buildTree, getBranch, parentOf, type SessionTree } from './tree.js';
import type { JsonObject, LoadedSession, SessionEntry } from './types.js';

/** 8 lowercase hex characters, unique among `taken` (pi's generateId, without the UUID fallback need). */
export function newEntryId(taken: { has(id: string): boolean }): string {
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (!taken.has(id)) return id;
  }
}

/** A UUIDv7 (what pi 0.67.1+ uses for session ids). */
export function uuidv7(nowMs = Date.now()): string {
  const bytes = randomBytes(16);
  let ms = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** pi's session-name sanitising: runs of CR/LF become one space, then trim (0.80+). */
export function sanitizeSessionName(name: string): string {
  return name.replace(/[\r\n]+/g, ' ').trim();
}

function loadForWrite(path: string): LoadedSession {
  const result = readSessionSync(path);
  if (!result.ok) {
    if (result.reason === 'not-found') throw new StoreError('not-found', `${path}: no such session file`);
    throw new StoreError('not-a-session', `${path}: refusing to write: ${result.message}`);
  }
  if (result.problems.some((p) => p.kind === 'bom')) {
    throw new StoreError('not-a-session', `${path}: refusing to write: the file starts with a byte-order mark and pi cannot open it`);
  }
  return result;
}

const APPEND_ATTEMPTS = 12;

/** Blocks the thread for `ms` (the store's writes are synchronous: a short, bounded wait). */
function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds the new entries from the current state of the file; may throw StoreError. */
type EntryPlanner = (session: LoadedSession, tree: SessionTree) => JsonObject[];

export interface AppendResult {
  /** Ids of the appended entries, in order. */
  entryIds: string[];
  /** The session as it was right before the append. */
  before: LoadedSession;
  tree: SessionTree;
}

/**
 * Appends the planned entries, one write each. Retries the plan when the file changed between
 * reading and appending (size or mtime), so our entries never hang under a stale leaf.
 */
export function appendPlanned(path: string, plan: EntryPlanner): AppendResult {
  const absolute = resolve(path);
  for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
    // pi writes in bursts (a tool result, then the next assistant message): wait a little longer
    // after each collision so our append lands in a pause, instead of giving up mid-burst.
    if (attempt > 0) sleepMs(Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));
    let session = loadForWrite(absolute);
    if (session.diskVersion < CURRENT_VERSION) {
      migrateFileAtomically(absolute);
      session = loadForWrite(absolute);
    }
    const tree = buildTree(session);
    const entries = plan(session, tree);
    let fd: number;
    try {
      fd = openSync(absolute, constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      throw new StoreError('write-failed', `${absolute}: cannot write: ${describeFsError(error)}`);
    }
    try {
      const now = fstatSync(fd);
      if (now.size !== session.size || now.mtimeMs !== session.mtimeMs) continue; // pi appended: plan again
      let prefix = session.endsWithNewline || session.size === 0 ? '' : '\n';
      for (const entry of entries) {
        writeSync(fd, `${prefix}${JSON.stringify(entry)}\n`);
        prefix = '';
      }
      fsyncSync(fd);
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError('write-failed', `${absolute}: write failed: ${describeFsError(error)}`);
    } finally {
      closeSync(fd);
    }
    return { entryIds: entries.map((e) => e['id'] as string), before: session, tree };
  }
  throw new StoreError('write-failed', `${absolute}: the file keeps changing (is pi writing to it?); nothing was written`);
}

function nowIso(): string {
  return new Date().toISOString();
}

/** Appends a `session_info` under the leaf. An empty name clears it (pi 0.59+). */
export function renameSession(path: string, name: string): { entryId: string; name: string | undefined } {
  const sanitized = sanitizeSessionName(name);
  const { entryIds } = appendPlanned(path, (_session, tree) => [
    { type: 'session_info', id: newEntryId(tree.byId), parentId: tree.leafId, timestamp: nowIso(), name: sanitized },
  ]);
  return { entryId: entryIds[0]!, name: sanitized || undefined };
}

/** Appends a `label` under the leaf; no label (or "") clears it, written with `label` omitted. */
export function setLabel(path: string, targetId: string, label?: string): { entryId: string; label: string | undefined } {
  const clean = label === undefined ? undefined : label.replace(/[\r\n]+/g, ' ').trim() || undefined;
  const { entryIds } = appendPlanned(path, (_session, tree) => {
    if (!tree.byId.has(targetId)) throw new StoreError('no-entry', `no entry ${targetId} in ${path}`);
    const entry: JsonObject = { type: 'label', id: newEntryId(tree.byId), parentId: tree.leafId, timestamp: nowIso(), targetId };
    if (clean !== undefined) entry['label'] = clean;
    return [entry];
  });
  return { entryId: entryIds[0]!, label: clean };
}

export interface BranchResult {
  /** The entry pi will resume from (null: a fresh root, like pi's resetLeaf). */
  leafId: string | null;
  /** The appended entry that makes the move persist (the file's new last line). */
  entryId: string;
  /** For a user message or custom message target: its text, to re-send or edit. */
  editorText?: string;
}

/** pi's /tree target rule: a user message or custom_message → its parent; anything else → itself. */
export function branchTarget(tree: SessionTree, target: SessionEntry): { leafId: string | null; editorText?: string } {
  const role = messageOf(target)?.['role'];
  if (role === 'user' || target.type === 'custom_message') {
    const content = role === 'user' ? messageOf(target)?.['content'] : target['content'];
    return { leafId: parentOf(tree, target)?.id ?? null, editorText: textOfContent(content) };
  }
  return { leafId: target.id };
}

/**
 * Branch in place, persisted so that pi resumes there (pi's leaf is the last line).
 * With a summary: a `branch_summary` like pi's branchWithSummary. Without one: a context-neutral
 * entry under the new leaf, a `label` restating the leaf's current label (what pi writes when a
 * label is given while navigating); for a null leaf, an empty-summary `branch_summary` root, which
 * contributes nothing to context (pi's resetLeaf state).
 */
export function branchInPlace(path: string, targetId: string, options: { summary?: string } = {}): BranchResult {
  let outcome: { leafId: string | null; editorText?: string } = { leafId: null };
  const summary = options.summary?.trim();
  const { entryIds } = appendPlanned(path, (_session, tree) => {
    const target = tree.byId.get(targetId);
    if (!target) throw new StoreError('no-entry', `no entry ${targetId} in ${path}`);
    outcome = branchTarget(tree, target);
    const { leafId } = outcome;
    const id = newEntryId(tree.byId);
    if (summary || leafId === null) {
      return [{ type: 'branch_summary', id, parentId: leafId, timestamp: nowIso(), fromId: tree.leafId ?? 'root', summary: summary ?? '' }];
    }
    const entry: JsonObject = { type: 'label', id, parentId: leafId, timestamp: nowIso(), targetId: leafId };
    const current = tree.labels.get(leafId);
    if (current !== undefined) entry['label'] = current;
    return [entry];
  });
  const result: BranchResult = { leafId: outcome.leafId, entryId: entryIds[0]! };
  if (outcome.editorText !== undefined) result.editorText = outcome.editorText;
  return result;
}

function hasConversation(entries: JsonObject[]): boolean {
  return entries.some((e) => {
    const role = isObject(e['message']) ? e['message']['role'] : undefined;
    return e['type'] === 'message' && (role === 'user' || role === 'assistant');
  });
}

/**
 * pi's createBranchedSession (§12): the path to `entryId` (default: the leaf, like /clone) into a
 * new file next to the source, labels dropped and re-created at the end with their timestamps,
 * the rest rechained, `firstKeptEntryId` remapped, a v3 header with `parentSession`. The source is
 * read (migrated in memory), never written.
 */
export function forkSession(path: string, entryId?: string): { path: string; id: string; entries: number } {
  const source = resolve(path);
  const session = loadForWrite(source);
  const tree = buildTree(session);
  const leaf = entryId ?? tree.leafId;
  if (leaf === null) throw new StoreError('no-entry', `${source}: nothing to fork yet (the session has no entries)`);
  if (!tree.byId.has(leaf)) throw new StoreError('no-entry', `no entry ${leaf} in ${source}`);
  const branch = getBranch(tree, leaf);

  const kept: JsonObject[] = [];
  const replacementByLabel = new Map<string, string>();
  const pendingLabels: string[] = [];
  let previous: string | null = null;
  for (const entry of branch) {
    if (entry.type === 'label') {
      pendingLabels.push(entry.id);
      continue;
    }
    for (const labelId of pendingLabels) replacementByLabel.set(labelId, entry.id);
    pendingLabels.length = 0;
    const copy: JsonObject = { ...entry, parentId: previous };
    if (entry.type === 'compaction') {
      const firstKept = entry['firstKeptEntryId'];
      copy['firstKeptEntryId'] = firstKept === entry.id ? entry.id : (typeof firstKept === 'string' ? replacementByLabel.get(firstKept) : undefined) ?? firstKept;
    }
    kept.push(copy);
    previous = entry.id;
  }
  if (!hasConversation(kept)) {
    throw new StoreError('no-entry', `${source}: nothing to fork: the branch has no user or assistant message yet`);
  }
  const ids = new Set(kept.map((e) => e['id'] as string));
  const labels: JsonObject[] = [];
  for (const [targetId, label] of tree.labels) {
    if (!ids.has(targetId)) continue;
    const id = newEntryId(ids);
    ids.add(id);
    labels.push({ type: 'label', id, parentId: previous, timestamp: tree.labelTimestamps.get(targetId), targetId, label });
    previous = id;
  }
  const timestamp = new Date().toISOString();
  const sessionId = uuidv7(Date.parse(timestamp));
  const cwd = typeof session.header.cwd === 'string' && session.header.cwd !== '' ? resolve(session.header.cwd) : process.cwd();
  const header = { type: 'session', version: CURRENT_VERSION, id: sessionId, timestamp, cwd, parentSession: source };
  const target = join(dirname(source), `${timestamp.replace(/[:.]/g, '-')}_${sessionId}.jsonl`);
  const lines = [header, ...kept, ...labels].map((e) => `${JSON.stringify(e)}\n`).join('');
  let fd: number;
  try {
    fd = openSync(target, 'wx');
  } catch (error) {
    throw new StoreError('write-failed', `cannot create ${target}: ${describeFsError(error)}`);
  }
  try {
    writeSync(fd, lines);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(target);
    } catch {
      // Nothing more we can do; the message below says what failed.
    }
    throw new StoreError('write-failed', `cannot write ${target}: ${describeFsError(error)}`);
  }
  closeSync(fd);
  return { path: target, id: sessionId, entries: kept.length + labels.length };
}

/**
 * Rewrites a v1/v2 file as v3 exactly like pi's migration (same ids we show), atomically (temp file
 * in the same folder, fsync, rename), keeping every line pi would drop. A no-op for v3 files.
 */
export function migrateFileAtomically(path: string): boolean {
  const absolute = resolve(path);
  let bytes: Buffer;
  let before;
  try {
    before = statSync(absolute);
    bytes = readFileSync(absolute);
  } catch (error) {
    throw new StoreError('write-failed', `${absolute}: cannot read: ${describeFsError(error)}`);
  }
  const collector = new SessionCollector(true);
  const splitter = new LineSplitter(collector.onLine);
  splitter.push(bytes, bytes.length);
  splitter.end();
  const header = collector.objects[0];
  if (!header || header['type'] !== 'session' || typeof header['id'] !== 'string') {
    throw new StoreError('not-a-session', `${absolute}: refusing to migrate: not a pi session`);
  }
  const diskVersion = typeof header['version'] === 'number' ? header['version'] : 1;
  if (diskVersion >= CURRENT_VERSION) return false;
  migrateInMemory(collector.objects, collector.lines, diskVersion, []);
  const out: string[] = [];
  for (const line of collector.physical!) {
    if ('raw' in line) out.push(`${line.raw.toString('utf8')}\n`);
    else for (let i = line.first; i < line.first + line.count; i++) out.push(`${JSON.stringify(collector.objects[i])}\n`);
  }
  const temp = join(dirname(absolute), `.${basename(absolute)}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(temp, 'wx', before.mode & 0o777);
  } catch (error) {
    throw new StoreError('write-failed', `${absolute}: cannot migrate (creating a temp file): ${describeFsError(error)}`);
  }
  try {
    writeSync(fd, out.join(''));
    fsyncSync(fd);
    closeSync(fd);
    const now = statSync(absolute);
    if (now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
      throw new StoreError('write-failed', `${absolute}: the file changed while it was being migrated; nothing was written`);
    }
    renameSync(temp, absolute);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // The temp file may already be gone (renamed); nothing else to undo.
    }
    if (error instanceof StoreError) throw error;
    throw new StoreError('write-failed', `${absolute}: migration failed: ${describeFsError(error)}`);
  }
  return true;
}
