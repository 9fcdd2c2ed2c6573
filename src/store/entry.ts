/**
 * Small, defensive accessors for entry and message fields. Files from old or broken writers hold
 * anything anywhere, so nothing here trusts a type it has not checked.
 */
import { isPlausibleCost, isPlausibleTokens, timestampMs } from './implausible.js';
import type { JsonObject, SessionEntry, UsageTotals } from './types.js';

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Epoch ms of the entry's ISO timestamp, NaN when absent or unparsable. */
export function entryTimeMs(entry: SessionEntry): number {
  return timestampMs(entry.timestamp);
}

/** The entry's timestamp as written when it is a string, else undefined. */
export function entryIso(entry: SessionEntry): string | undefined {
  return typeof entry.timestamp === 'string' ? entry.timestamp : undefined;
}

/** The `message` object of a `message` entry, when it is one. */
export function messageOf(entry: SessionEntry): JsonObject | undefined {
  if (entry.type !== 'message') return undefined;
  const message = entry['message'];
  return isObject(message) ? message : undefined;
}

export function roleOf(entry: SessionEntry): string | undefined {
  const role = messageOf(entry)?.['role'];
  return typeof role === 'string' ? role : undefined;
}

/**
 * pi's `extractTextContent`: a string whole, or the text blocks joined with single spaces.
 * Images, thinking and tool calls are ignored.
 */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string') parts.push(block['text']);
    else if (isObject(block) && block['type'] === 'text') parts.push(String(block['text']));
  }
  return parts.join(' ');
}

/**
 * A message's text as pi puts it back in the editor to re-send (its fork and tree navigation,
 * pi-ai's contentText with no separator): a string as is, else its text blocks joined.
 */
export function editorTextOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block) => isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string')
    .map((block) => (block as JsonObject)['text'] as string)
    .join('');
}

export function emptyUsage(): UsageTotals {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: 0 };
}

/** A token figure, or 0 when it is missing (older files) or cannot be real (implausible.ts). */
const tokensOf = (value: unknown): number => (typeof value === 'number' && isPlausibleTokens(value) ? value : 0);

/**
 * Adds one pi `Usage` object to the totals; missing numbers count as 0 (older files), and so do
 * numbers that cannot be real (1e308, negative, not numbers: implausible.ts), so one corrupt entry
 * never makes a total Infinity.
 */
export function addUsage(totals: UsageTotals, usage: unknown): void {
  if (!isObject(usage)) return;
  const input = tokensOf(usage['input']);
  const output = tokensOf(usage['output']);
  const cacheRead = tokensOf(usage['cacheRead']);
  const cacheWrite = tokensOf(usage['cacheWrite']);
  totals.input += input;
  totals.output += output;
  totals.cacheRead += cacheRead;
  totals.cacheWrite += cacheWrite;
  // `totalTokens` is absent before about 2025-12: fall back to the sum of the parts.
  // A total that cannot be real is replaced by its parts' sum, as a missing one is.
  const total = usage['totalTokens'];
  totals.totalTokens +=
    typeof total === 'number' && isPlausibleTokens(total) ? total : input + output + cacheRead + cacheWrite;
  const cost = usage['cost'];
  if (isObject(cost) && typeof cost['total'] === 'number' && isPlausibleCost(cost['total']))
    totals.cost += cost['total'];
}

/**
 * The usage an entry carries, counted like pi's `/session`: assistant messages, toolResult usage,
 * compaction and branch_summary usage, and `usage` entries.
 */
export function usageOf(entry: SessionEntry): unknown {
  switch (entry.type) {
    case 'message': {
      const message = messageOf(entry);
      const role = message?.['role'];
      return role === 'assistant' || role === 'toolResult' ? message?.['usage'] : undefined;
    }
    case 'compaction':
    case 'branch_summary':
    case 'usage':
      return entry['usage'];
    default:
      return undefined;
  }
}

/** Where `usageOf` finds an entry's usage, as a dotted field path (`message.usage`, `usage`). */
export const usageFieldOf = (entry: SessionEntry): string => (entry.type === 'message' ? 'message.usage' : 'usage');

/** `provider/model` of an assistant message, when it names one. */
export function assistantModel(message: JsonObject): string | undefined {
  const model = message['model'];
  if (typeof model !== 'string' || model === '') return undefined;
  const provider = message['provider'];
  return typeof provider === 'string' && provider !== '' ? `${provider}/${model}` : model;
}

/** The first user prompt's text (trimmed), '' when there is none: a session's title when it has no name. */
export function firstPrompt(entries: readonly SessionEntry[]): string {
  for (const entry of entries) {
    if (roleOf(entry) !== 'user') continue;
    const text = textOfContent(messageOf(entry)?.['content']).trim();
    if (text) return text;
  }
  return '';
}
