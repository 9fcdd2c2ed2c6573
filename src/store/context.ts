/**
 * What the model sees (session-format.md §8): by default as the format defines it, where a
 * compaction carrying `retainedTail` is a self-contained checkpoint (§8.4); with `asPi`, exactly
 * pi 1.6.0's buildContextEntries → buildSessionProjection → buildSessionContext, which ignores
 * `retainedTail`. Both run on our cycle-safe tree. Message objects are built with pi's key order
 * so `JSON.stringify` matches pi's byte for byte; where each message came from is kept apart, in
 * `sources`, so `messages` stays exactly what a model is sent.
 */
import { entryTimeMs, isObject, messageOf } from './entry.js';
import { cutLineOf, type TooLargeLine } from './read/too-large.js';
import { getBranch, type SessionTree } from './tree.js';
import type { JsonObject, SessionEntry } from './types.js';

/** Where a context message came from: an entry, or one message of a compaction's `retainedTail`. */
export type MessageSource = { entryId: string } | { retainedBy: string; index: number };

/**
 * The latest compaction on the path carries `retainedTail`: what pi 1.6.0 does differently
 * (it ignores the tail and applies `firstKeptEntryId`, if any, instead).
 */
export interface RetainedTailDifference {
  compactionId: string;
  /** Retained messages pi 1.6.0 leaves out of the context. */
  droppedMessages: number;
  /** Entries from before the compaction that pi 1.6.0 puts in instead (its firstKeptEntryId rule). */
  keptEntriesInstead: string[];
}

export interface SessionContext {
  model: { provider: unknown; modelId: unknown } | null;
  thinkingLevel: unknown;
  contextEntries: SessionEntry[];
  /** The messages, exactly as a model gets them (no added keys). */
  messages: JsonObject[];
  /** Parallel to `messages`. */
  sources: MessageSource[];
  /** Set when the latest compaction on the path has a `retainedTail` (whatever the mode). */
  retainedTail?: RetainedTailDifference;
  /**
   * An entry on the path read from a line too long to hold, with its text cut (too-large.ts):
   * the messages are then not what the model gets, and a caller must not present them as such.
   */
  cutEntry?: { entryId: string; line: TooLargeLine };
}

/** Entry types that never reach the model's context or settings: a cut one changes nothing. */
const OUTSIDE_CONTEXT = new Set(['custom', 'label', 'session_info']);

export interface ContextOptions {
  /** pi 1.6.0's exact answer: `retainedTail` ignored (§8.4). Default: the format's rule. */
  asPi?: boolean;
}

/**
 * A compaction's `retainedTail` (§4, an intermediate pi line): its messages with their positions
 * in the array; elements that are not objects are skipped. Undefined when the entry has none.
 */
export function retainedTailOf(entry: SessionEntry): { index: number; message: JsonObject }[] | undefined {
  if (entry.type !== 'compaction') return undefined;
  const tail = entry['retainedTail'];
  if (!Array.isArray(tail)) return undefined;
  const out: { index: number; message: JsonObject }[] = [];
  tail.forEach((message, index) => {
    if (isObject(message)) out.push({ index, message: contextMessage(message) });
  });
  return out;
}

/** pi's buildSessionPath: a null leaf is empty, an unknown leaf falls back to the last entry. */
function contextPath(tree: SessionTree, leafId: string | null): SessionEntry[] {
  if (leafId === null) return [];
  if (tree.byId.has(leafId)) return getBranch(tree, leafId);
  const last = tree.order[tree.order.length - 1];
  return last ? getBranch(tree, last.id) : [];
}

export function buildContextEntries(
  tree: SessionTree,
  leafId: string | null = tree.leafId,
  options: ContextOptions = {},
): SessionEntry[] {
  return selectContextEntries(contextPath(tree, leafId), options.asPi === true).entries;
}

function latestCompaction(path: SessionEntry[]): number {
  let at = -1;
  for (let i = 0; i < path.length; i++) if (path[i]!.type === 'compaction') at = i;
  return at;
}

/**
 * §8.3 (pi 1.6.0): the latest compaction, the entries from its firstKeptEntryId on (system
 * messages excluded), then everything after it. §8.4: a compaction with `retainedTail` instead
 * keeps nothing from before it (its tail stands in for them).
 */
function selectContextEntries(
  path: SessionEntry[],
  asPi: boolean,
): { entries: SessionEntry[]; keptBefore: SessionEntry[] } {
  const at = latestCompaction(path);
  if (at < 0) return { entries: path, keptBefore: [] };
  const compaction = path[at]!;
  const keptBefore: SessionEntry[] = [];
  const firstKept = compaction['firstKeptEntryId'];
  let found = false;
  for (let i = 0; i < at; i++) {
    const entry = path[i]!;
    if (entry.id === firstKept) found = true;
    if (found && !(entry.type === 'message' && messageOf(entry)?.['role'] === 'system')) keptBefore.push(entry);
  }
  const checkpoint = !asPi && retainedTailOf(compaction) !== undefined;
  return { entries: [compaction, ...(checkpoint ? [] : keptBefore), ...path.slice(at + 1)], keptBefore };
}

function contextSettings(path: SessionEntry[]): Pick<SessionContext, 'model' | 'thinkingLevel'> {
  let thinkingLevel: unknown = 'off';
  let model: SessionContext['model'] = null;
  for (const entry of path) {
    if (entry.type === 'thinking_level_change') thinkingLevel = entry['thinkingLevel'];
    else if (entry.type === 'model_change') model = { provider: entry['provider'], modelId: entry['modelId'] };
    else if (entry.type === 'message') {
      const message = messageOf(entry);
      if (message?.['role'] === 'assistant') model = { provider: message['provider'], modelId: message['model'] };
    }
  }
  return { model, thinkingLevel };
}

/** A stored message as context building gives it: null content becomes "" (system) or [] (pi). */
function contextMessage(message: JsonObject): JsonObject {
  const role = message['role'];
  if (role === 'system' && message['content'] == null) return { ...message, content: '' };
  if ((role === 'user' || role === 'assistant' || role === 'toolResult') && message['content'] == null)
    return { ...message, content: [] };
  return message;
}

/** pi's sessionEntryToContextMessages. */
export function entryToMessages(entry: SessionEntry): JsonObject[] {
  switch (entry.type) {
    case 'message': {
      const message = messageOf(entry);
      return message ? [contextMessage(message)] : [];
    }
    case 'custom_message':
      return [
        {
          role: 'custom',
          customType: entry['customType'],
          content: entry['content'] ?? [],
          display: entry['display'],
          details: entry['details'],
          timestamp: entryTimeMs(entry),
        },
      ];
    case 'branch_summary':
      return entry['summary']
        ? [{ role: 'branchSummary', summary: entry['summary'], fromId: entry['fromId'], timestamp: entryTimeMs(entry) }]
        : [];
    case 'compaction': {
      const summary = {
        role: 'compactionSummary',
        summary: entry['summary'],
        tokensBefore: entry['tokensBefore'],
        timestamp: entryTimeMs(entry),
      };
      const system = entry['systemMessage'];
      return isObject(system) ? [system, summary] : [summary];
    }
    default:
      return [];
  }
}

/** pi's projectContextEntry: applies the latest context edit of the entry, if any. */
function projectEntry(entry: SessionEntry, edit: SessionEntry | undefined): JsonObject[] {
  const messages = entryToMessages(entry);
  if (!edit) return messages;
  const replacement = edit['replacement'];
  if (replacement === null) return [];
  const content = isObject(replacement) ? replacement['content'] : undefined;
  return messages.map((message) => {
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant' && role !== 'toolResult' && role !== 'custom') return message;
    const replaced =
      (role === 'assistant' || role === 'toolResult') && typeof content === 'string'
        ? [{ type: 'text', text: content }]
        : content;
    return { ...message, content: replaced };
  });
}

export function buildContext(
  tree: SessionTree,
  leafId: string | null = tree.leafId,
  options: ContextOptions = {},
): SessionContext {
  const path = contextPath(tree, leafId);
  const { model, thinkingLevel } = contextSettings(path);
  const { entries: contextEntries, keptBefore } = selectContextEntries(path, options.asPi === true);
  const edits = new Map<unknown, SessionEntry>();
  for (const entry of contextEntries) if (entry.type === 'context_edit') edits.set(entry['targetId'], entry);
  const first = contextEntries[0];
  const tail = first && !options.asPi ? retainedTailOf(first) : undefined;
  const messages: JsonObject[] = [];
  const sources: MessageSource[] = [];
  contextEntries.forEach((entry, index) => {
    // Only the newest compaction (at index 0) contributes; an older one inside the kept range
    // stays as an entry without messages (its retainedTail included: the newer one supersedes it).
    if (entry.type === 'compaction' && index > 0) return;
    for (const message of projectEntry(entry, edits.get(entry.id))) {
      messages.push(message);
      sources.push({ entryId: entry.id });
    }
    // The checkpoint's kept context follows its summary. No context_edit reaches these: edits
    // target entry ids, and retained messages have none.
    if (index === 0 && tail) {
      for (const { index: position, message } of tail) {
        messages.push(message);
        sources.push({ retainedBy: entry.id, index: position });
      }
    }
  });
  const result: SessionContext = { model, thinkingLevel, contextEntries, messages, sources };
  for (const entry of path) {
    const line = OUTSIDE_CONTEXT.has(entry.type) ? undefined : cutLineOf(entry);
    if (line) {
      result.cutEntry = { entryId: entry.id, line };
      break;
    }
  }
  const compaction = path[latestCompaction(path)];
  const retained = compaction ? retainedTailOf(compaction) : undefined;
  if (compaction && retained) {
    result.retainedTail = {
      compactionId: compaction.id,
      droppedMessages: retained.length,
      keptEntriesInstead: keptBefore.map((e) => e.id),
    };
  }
  return result;
}
