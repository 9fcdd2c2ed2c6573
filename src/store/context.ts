/**
 * What the model sees: pi 1.6.0's buildContextEntries → buildSessionProjection →
 * buildSessionContext (session-format.md §8), on our cycle-safe tree. Message objects are built
 * with pi's key order so `JSON.stringify` matches pi's byte for byte.
 */
import { entryTimeMs, isObject, messageOf } from './entry.js';
import { getBranch, type SessionTree } from './tree.js';
import type { JsonObject, SessionEntry } from './types.js';

export interface ContextMessage {
  /** Id of the entry that produced the message. */
  src: string;
  message: JsonObject;
}

export interface SessionContext {
  model: { provider: unknown; modelId: unknown } | null;
  thinkingLevel: unknown;
  contextEntries: SessionEntry[];
  messages: ContextMessage[];
  /**
   * When the latest compaction on the path carries `retainedTail` (an intermediate pi line),
   * that tail: writers of that line put these messages in context; pi 1.6 drops them.
   */
  retainedTail?: { compactionId: string; messages: unknown[] };
}

/** pi's buildSessionPath: a null leaf is empty, an unknown leaf falls back to the last entry. */
function contextPath(tree: SessionTree, leafId: string | null): SessionEntry[] {
  if (leafId === null) return [];
  if (tree.byId.has(leafId)) return getBranch(tree, leafId);
  const last = tree.order[tree.order.length - 1];
  return last ? getBranch(tree, last.id) : [];
}

export function buildContextEntries(tree: SessionTree, leafId: string | null = tree.leafId): SessionEntry[] {
  return selectContextEntries(contextPath(tree, leafId));
}

function selectContextEntries(path: SessionEntry[]): SessionEntry[] {
  let compactionIndex = -1;
  for (let i = 0; i < path.length; i++) if (path[i]!.type === 'compaction') compactionIndex = i;
  if (compactionIndex < 0) return path;
  const compaction = path[compactionIndex]!;
  const selected: SessionEntry[] = [compaction];
  const firstKept = compaction['firstKeptEntryId'];
  let found = false;
  for (let i = 0; i < compactionIndex; i++) {
    const entry = path[i]!;
    if (entry.id === firstKept) found = true;
    if (found && !(entry.type === 'message' && messageOf(entry)?.['role'] === 'system')) selected.push(entry);
  }
  for (let i = compactionIndex + 1; i < path.length; i++) selected.push(path[i]!);
  return selected;
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

/** pi's sessionEntryToContextMessages. */
export function entryToMessages(entry: SessionEntry): JsonObject[] {
  switch (entry.type) {
    case 'message': {
      const message = messageOf(entry);
      if (!message) return [];
      const role = message['role'];
      if (role === 'system' && message['content'] == null) return [{ ...message, content: '' }];
      if ((role === 'user' || role === 'assistant' || role === 'toolResult') && message['content'] == null) {
        return [{ ...message, content: [] }];
      }
      return [message];
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
      const summary = { role: 'compactionSummary', summary: entry['summary'], tokensBefore: entry['tokensBefore'], timestamp: entryTimeMs(entry) };
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
    const replaced = (role === 'assistant' || role === 'toolResult') && typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    return { ...message, content: replaced };
  });
}

export function buildContext(tree: SessionTree, leafId: string | null = tree.leafId): SessionContext {
  const path = contextPath(tree, leafId);
  const { model, thinkingLevel } = contextSettings(path);
  const contextEntries = selectContextEntries(path);
  const edits = new Map<unknown, SessionEntry>();
  for (const entry of contextEntries) if (entry.type === 'context_edit') edits.set(entry['targetId'], entry);
  const messages: ContextMessage[] = [];
  contextEntries.forEach((entry, index) => {
    // Only the newest compaction (at index 0) contributes; an older one inside the kept range
    // stays as an entry without messages.
    if (entry.type === 'compaction' && index > 0) return;
    for (const message of projectEntry(entry, edits.get(entry.id))) messages.push({ src: entry.id, message });
  });
  const result: SessionContext = { model, thinkingLevel, contextEntries, messages };
  const first = contextEntries[0];
  if (first?.type === 'compaction' && Array.isArray(first['retainedTail'])) {
    result.retainedTail = { compactionId: first.id, messages: first['retainedTail'] };
  }
  return result;
}
