/**
 * The fields of a listing row that only a search reads (the full-text search, its hit focus,
 * `tool:`, `file:` and `out:`), and the row that reads them from its file on first use: the
 * listing's `on-demand` mode (summary.ts). Commands that print rows or look a session up by id
 * never read them, and gathering them as the file streams past (the text places and tool facts
 * above all) was about a quarter of a cold listing's CPU and much of its memory.
 */
import { isObject, textOfContent } from '../entry.js';
import type { SessionInfo } from '../types.js';

/**
 * `with-listing`: the search fields are gathered in the listing's one pass (the picker searches
 * them, the catalogue keeps them). `on-demand`: a row's search fields are read from its file on
 * first use, so a listing that only prints rows or finds an id never pays for them.
 */
export type SearchFieldsMode = 'with-listing' | 'on-demand';

export type SearchFields = Pick<
  SessionInfo,
  | 'allMessagesText'
  | 'textPlaces'
  | 'summaryText'
  | 'summaryEntries'
  | 'summaryPlaces'
  | 'toolTargets'
  | 'toolOutputText'
>;

/** Every other field of a row: what a listing gathers in either mode. */
export type ListedFields = Omit<SessionInfo, keyof SearchFields>;

/** What a file that is no longer a session (or cannot be read) gives when its fields are asked for later. */
export const noSearchFields = (): SearchFields => ({
  allMessagesText: '',
  textPlaces: [],
  summaryText: '',
  summaryEntries: [],
  summaryPlaces: [],
  toolTargets: '',
  toolOutputText: '',
});

/** The row with its search fields as gathered (keys in the order of SESSION_INFO_FIELDS, as every producer's). */
export function withSearchFields(row: ListedFields, fields: SearchFields): SessionInfo {
  return {
    path: row.path,
    id: row.id,
    cwd: row.cwd,
    name: row.name,
    parentSessionPath: row.parentSessionPath,
    created: row.created,
    modified: row.modified,
    messageCount: row.messageCount,
    firstMessage: row.firstMessage,
    allMessagesText: fields.allMessagesText,
    textPlaces: fields.textPlaces,
    summaryText: fields.summaryText,
    summaryEntries: fields.summaryEntries,
    summaryPlaces: fields.summaryPlaces,
    size: row.size,
    mtimeMs: row.mtimeMs,
    version: row.version,
    entryCount: row.entryCount,
    userMessageCount: row.userMessageCount,
    assistantMessageCount: row.assistantMessageCount,
    branchCount: row.branchCount,
    leafId: row.leafId,
    labels: row.labels,
    models: row.models,
    tools: row.tools,
    toolTargets: fields.toolTargets,
    toolOutputText: fields.toolOutputText,
    usage: row.usage,
    problems: row.problems,
  };
}

/**
 * The row with its search fields read by `read(path)` on the first use of any of them, all of them
 * from that one read: `textPlaces` are offsets into `allMessagesText` (`summaryPlaces` into
 * `summaryText`) and must describe the same text. They describe the file as it is at that first use. Assigning a field works like a plain
 * property. The accessors are written in the literal: that keeps V8's fast object shape
 * (catalog/format.ts measured defineProperty afterwards 4× slower).
 */
export function withSearchFieldsOnDemand(row: ListedFields, read: (path: string) => SearchFields): SessionInfo {
  const path = row.path;
  let fields: SearchFields | undefined;
  const loaded = (): SearchFields => (fields ??= read(path));
  return {
    path,
    id: row.id,
    cwd: row.cwd,
    name: row.name,
    parentSessionPath: row.parentSessionPath,
    created: row.created,
    modified: row.modified,
    messageCount: row.messageCount,
    firstMessage: row.firstMessage,
    get allMessagesText(): string {
      return loaded().allMessagesText;
    },
    set allMessagesText(value: string) {
      fields = { ...loaded(), allMessagesText: value };
    },
    get textPlaces(): number[] {
      return loaded().textPlaces;
    },
    set textPlaces(value: number[]) {
      fields = { ...loaded(), textPlaces: value };
    },
    get summaryText(): string {
      return loaded().summaryText;
    },
    set summaryText(value: string) {
      fields = { ...loaded(), summaryText: value };
    },
    get summaryEntries(): string[] {
      return loaded().summaryEntries;
    },
    set summaryEntries(value: string[]) {
      fields = { ...loaded(), summaryEntries: value };
    },
    get summaryPlaces(): number[] {
      return loaded().summaryPlaces;
    },
    set summaryPlaces(value: number[]) {
      fields = { ...loaded(), summaryPlaces: value };
    },
    size: row.size,
    mtimeMs: row.mtimeMs,
    version: row.version,
    entryCount: row.entryCount,
    userMessageCount: row.userMessageCount,
    assistantMessageCount: row.assistantMessageCount,
    branchCount: row.branchCount,
    leafId: row.leafId,
    labels: row.labels,
    models: row.models,
    tools: row.tools,
    get toolTargets(): string {
      return loaded().toolTargets;
    },
    set toolTargets(value: string) {
      fields = { ...loaded(), toolTargets: value };
    },
    get toolOutputText(): string {
      return loaded().toolOutputText;
    },
    set toolOutputText(value: string) {
      fields = { ...loaded(), toolOutputText: value };
    },
    usage: row.usage,
    problems: row.problems,
  };
}

/** The user and assistant text of a `retainedTail` (part of `allMessagesText`), as pi's text of message entries is taken. */
export function retainedTexts(tail: unknown): string[] {
  if (!Array.isArray(tail)) return [];
  const out: string[] = [];
  for (const message of tail) {
    if (!isObject(message) || (message['role'] !== 'user' && message['role'] !== 'assistant')) continue;
    const text = textOfContent(message['content']);
    if (text) out.push(text);
  }
  return out;
}
