/**
 * What the tree navigator shows for each entry (pi-ui-reference §2.5), what it searches (the whole
 * text, not pi's first 200 characters, plus the row text so a visible path or command can be
 * found) and what it copies (§2.13); the detail view is in entry-detail.ts. Pure; every string
 * taken from the session goes through sanitizeInline before it can reach the terminal.
 */
import { formatBytes } from '../format.js';
import {
  addUsage,
  cutLineOf,
  emptyUsage,
  isObject,
  type JsonObject,
  messageOf,
  type SessionEntry,
  type TooLargeLine,
  usageOf,
} from '../store/index.js';
import { sanitizeInline } from '../text/terminal-text.js';

/** Colour roles of row parts; the view maps them to Ink colours. */
export type Tone =
  | 'user'
  | 'assistant'
  | 'tool'
  | 'muted'
  | 'error'
  | 'custom'
  | 'compaction'
  | 'summary'
  | 'plain'
  | 'heading';

/** One row's text: a coloured prefix (`user: `) and the body. Both already sanitized. */
export interface EntryDisplay {
  prefix: string;
  prefixTone: Tone;
  text: string;
  textTone: Tone;
}

export interface ToolCallInfo {
  name: string;
  args: JsonObject;
}

/** toolCallId → the call that produced it, so a result row can show `[read: path:1-20]`. */
export type ToolCallIndex = Map<string, ToolCallInfo>;

export interface DisplayContext {
  toolCalls: ToolCallIndex;
  /** Home directory shown as `~` in tool paths (pi's shortenPath); omitted → paths as written. */
  home?: string;
}

/** Adds the tool calls of `entries` (assistant messages) to `into`. Live appends extend it. */
export function collectToolCalls(entries: Iterable<SessionEntry>, into: ToolCallIndex = new Map()): ToolCallIndex {
  for (const entry of entries) {
    const message = messageOf(entry);
    if (message?.['role'] !== 'assistant' || !Array.isArray(message['content'])) continue;
    for (const block of message['content']) {
      if (!isObject(block) || block['type'] !== 'toolCall' || typeof block['id'] !== 'string') continue;
      const name = typeof block['name'] === 'string' ? block['name'] : 'tool';
      into.set(block['id'], { name, args: isObject(block['arguments']) ? block['arguments'] : {} });
    }
  }
  return into;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Text blocks of a content value joined by newlines (full text, for search, copy and detail). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string') parts.push(block['text']);
  }
  return parts.join('\n');
}

function toolCallNames(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const names: string[] = [];
  for (const block of content) {
    if (isObject(block) && block['type'] === 'toolCall')
      names.push(typeof block['name'] === 'string' ? block['name'] : 'tool');
  }
  return names;
}

/**
 * An assistant turn with no text that did not end in an error: pi hides these (pure tool-call
 * turns, empty or thinking-only answers) in every filter except when they are the leaf. pi's test
 * is by truthiness (tree-selector.js `applyFilter`: `msg.stopReason && msg.stopReason !== "stop"
 * && msg.stopReason !== "toolUse"` is an error or abort): a missing, null or empty stopReason, which
 * pi never writes but older writers do, counts as an ordinary end, not as an error.
 */
export function isPureToolCallTurn(entry: SessionEntry): boolean {
  const message = messageOf(entry);
  if (message?.['role'] !== 'assistant') return false;
  const stop = message['stopReason'];
  if (stop && stop !== 'stop' && stop !== 'toolUse') return false;
  const content = message['content'];
  if (typeof content === 'string') return content.trim() === '';
  if (!Array.isArray(content)) return true;
  for (const block of content) {
    if (isObject(block) && block['type'] === 'text' && typeof block['text'] === 'string' && block['text'].trim() !== '')
      return false;
  }
  return true;
}

function shortenPath(path: string, home: string | undefined): string {
  if (home && home.length > 1 && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}

/** pi's tool-call formatting for result rows (§2.5). Unsanitized; callers sanitize. */
export function formatToolCall(name: string, args: JsonObject, home?: string): string {
  const path = shortenPath(str(args['path']) ?? str(args['file_path']) ?? '', home);
  switch (name) {
    case 'read': {
      const offset = typeof args['offset'] === 'number' ? args['offset'] : undefined;
      const limit = typeof args['limit'] === 'number' ? args['limit'] : undefined;
      let range = '';
      if (offset !== undefined || limit !== undefined) {
        const start = offset ?? 1;
        range = limit !== undefined ? `:${start}-${start + limit - 1}` : `:${start}`;
      }
      return `[read: ${path}${range}]`;
    }
    case 'write':
    case 'edit':
      return `[${name}: ${path}]`;
    case 'bash': {
      const command = str(args['command']) ?? '';
      const flat = command.replace(/[\n\t]/g, ' ').trim();
      return `[bash: ${flat.slice(0, 50)}${flat.length > 50 ? '...' : ''}]`;
    }
    case 'grep':
      return `[grep: /${str(args['pattern']) ?? ''}/ in ${path || '.'}]`;
    case 'find':
      return `[find: ${str(args['pattern']) ?? ''} in ${path || '.'}]`;
    case 'ls':
      return `[ls: ${path || '.'}]`;
    default: {
      const json = JSON.stringify(args) ?? '';
      return `[${name}: ${json.slice(0, 40)}${json.length > 40 ? '...' : ''}]`;
    }
  }
}

function inline(s: string): string {
  return sanitizeInline(s, { newline: 'space' });
}

function plainRow(text: string, tone: Tone): EntryDisplay {
  return { prefix: '', prefixTone: tone, text: inline(text), textTone: tone };
}

function messageDisplay(message: JsonObject, ctx: DisplayContext): EntryDisplay {
  const role = str(message['role']) ?? 'message';
  switch (role) {
    case 'user':
      return { prefix: 'user: ', prefixTone: 'user', text: inline(contentText(message['content'])), textTone: 'plain' };
    case 'assistant': {
      const text = contentText(message['content']).trim();
      if (text !== '') return { prefix: 'assistant: ', prefixTone: 'assistant', text: inline(text), textTone: 'plain' };
      if (message['stopReason'] === 'aborted')
        return { prefix: 'assistant: ', prefixTone: 'assistant', text: '(aborted)', textTone: 'muted' };
      const error = str(message['errorMessage']);
      if (error)
        return { prefix: 'assistant: ', prefixTone: 'assistant', text: inline(error.slice(0, 80)), textTone: 'error' };
      // Only the "all" filter (or the leaf) shows pure tool-call turns; name the calls instead of
      // pi's uninformative "(no content)".
      const calls = toolCallNames(message['content']);
      const body = calls.length > 0 ? `(tool calls: ${calls.join(', ')})` : '(no content)';
      return { prefix: 'assistant: ', prefixTone: 'assistant', text: inline(body), textTone: 'muted' };
    }
    case 'toolResult': {
      const callId = str(message['toolCallId']);
      const call = callId === undefined ? undefined : ctx.toolCalls.get(callId);
      const tone: Tone = message['isError'] === true ? 'error' : 'tool';
      if (call) return plainRow(formatToolCall(call.name, call.args, ctx.home), tone);
      return plainRow(`[${str(message['toolName']) ?? 'tool'}]`, tone);
    }
    case 'bashExecution':
      return plainRow(`[bash]: ${str(message['command']) ?? ''}`, 'muted');
    case 'custom':
    case 'hookMessage':
      return {
        prefix: `${inline(`[${str(message['customType']) ?? role}]: `)} `,
        prefixTone: 'custom',
        text: inline(contentText(message['content'])),
        textTone: 'plain',
      };
    default:
      return plainRow(`[${role}]`, 'muted');
  }
}

/**
 * The row text of an entry (§2.5), already sanitized for one terminal line. An entry read from a
 * line too long to hold whole says so first: its text is only the start (store/read/too-large.ts).
 */
export function entryDisplay(entry: SessionEntry, ctx: DisplayContext): EntryDisplay {
  const display = rowDisplay(entry, ctx);
  const cut = cutLineOf(entry);
  return cut ? { ...display, text: `${tooLargeTag(cut)} ${display.text}` } : display;
}

/** `[too large: 200 MB]`: the tag of a row whose entry was read with its text cut. */
export function tooLargeTag(line: Pick<TooLargeLine, 'bytes'>): string {
  return `[too large: ${formatBytes(line.bytes)}]`;
}

function rowDisplay(entry: SessionEntry, ctx: DisplayContext): EntryDisplay {
  switch (entry.type) {
    case 'message': {
      const message = messageOf(entry);
      return message ? messageDisplay(message, ctx) : plainRow('[message]', 'muted');
    }
    case 'custom_message':
      return {
        prefix: `${inline(`[${str(entry['customType']) ?? 'custom'}]:`)} `,
        prefixTone: 'custom',
        text: inline(contentText(entry['content'])),
        textTone: 'plain',
      };
    case 'compaction': {
      const tokens = typeof entry['tokensBefore'] === 'number' ? entry['tokensBefore'] : 0;
      return plainRow(`[compaction: ${Math.round(tokens / 1000)}k tokens]`, 'compaction');
    }
    case 'branch_summary':
      return {
        prefix: '[branch summary]: ',
        prefixTone: 'summary',
        text: inline(str(entry['summary']) ?? ''),
        textTone: 'plain',
      };
    case 'model_change':
      return plainRow(`[model: ${str(entry['modelId']) ?? '?'}]`, 'muted');
    case 'thinking_level_change':
      return plainRow(`[thinking: ${str(entry['thinkingLevel']) ?? '?'}]`, 'muted');
    case 'custom':
      return plainRow(`[custom: ${str(entry['customType']) ?? '?'}]`, 'muted');
    case 'context_edit': {
      const kind = entry['replacement'] === null ? 'omit' : 'replace';
      return plainRow(`[context ${kind}: ${str(entry['targetId']) ?? '?'}]`, 'muted');
    }
    case 'label': {
      // pi's text: `entry.label ?? "(cleared)"`, so an empty label reads `[label: ]`.
      const label = entry['label'];
      return plainRow(`[label: ${label === undefined || label === null ? '(cleared)' : String(label)}]`, 'muted');
    }
    case 'session_info': {
      const name = str(entry['name'])?.trim();
      return plainRow(`[title: ${name ? name : 'empty'}]`, 'muted');
    }
    case 'usage': {
      // pi never shows these; our "all" filter does, so say what they are.
      const totals = emptyUsage();
      addUsage(totals, usageOf(entry));
      const kind = str(entry['kind']) ?? 'usage';
      const model = str(entry['model']);
      return plainRow(`[usage: ${kind}${model ? ` ${model}` : ''}, ${totals.totalTokens} tokens]`, 'muted');
    }
    default:
      return plainRow(`[${entry.type}]`, 'muted');
  }
}

/** The row as one string (prefix + text), e.g. for tests and search. */
export function displayString(d: EntryDisplay): string {
  return d.prefix + d.text;
}

/**
 * The full (untruncated, unsanitized) text of an entry: what Copy puts on the clipboard (§2.13)
 * and what search matches besides the row text. Undefined when the entry has no text.
 */
export function entryFullText(entry: SessionEntry): string | undefined {
  switch (entry.type) {
    case 'message': {
      const message = messageOf(entry);
      if (!message) return undefined;
      const role = message['role'];
      if (role === 'assistant') {
        const text = contentText(message['content']);
        if (text.trim() !== '') return text;
        return str(message['errorMessage']);
      }
      if (role === 'bashExecution') return str(message['command']);
      if (role === 'toolResult') {
        // Before about 2025-11 a plain `output` string held the result.
        const text = contentText(message['content']);
        return text !== '' ? text : str(message['output']);
      }
      const text = contentText(message['content']);
      return text !== '' ? text : undefined;
    }
    case 'custom_message': {
      const text = contentText(entry['content']);
      return text !== '' ? text : undefined;
    }
    case 'compaction':
    case 'branch_summary':
      return str(entry['summary']);
    default:
      return undefined;
  }
}

/**
 * Everything search looks at, lowercased: the row text (so a tool row's path or command is
 * found), the whole message text (not pi's first 200 characters) and, for bash executions, the
 * output. The role word is left out on purpose: pi includes it, so `a` or `user` matched nearly
 * every row (§4 weakness 7). Labels are added by the caller because they change over time.
 */
export function entrySearchText(entry: SessionEntry, display: EntryDisplay): string {
  let text = display.text;
  // Keep bracketed prefixes (`[branch summary]`, `[skill]`) searchable, drop bare role words.
  if (display.prefix.startsWith('[')) text = display.prefix + text;
  const full = entryFullText(entry);
  if (full !== undefined && full !== '') text += `\n${full}`;
  if (entry.type === 'message') {
    const message = messageOf(entry);
    if (message?.['role'] === 'bashExecution') text += `\n${str(message['output']) ?? ''}`;
  }
  return text.toLowerCase();
}

/** pi's label time (§2.8), local time: `HH:MM` today, `M/D HH:MM` this year, `YY/M/D HH:MM` older. */
export function formatLabelTime(iso: string, nowMs: number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '?';
  const now = new Date(nowMs);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  if (d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate())
    return hm;
  if (d.getFullYear() === now.getFullYear()) return `${d.getMonth() + 1}/${d.getDate()} ${hm}`;
  return `${String(d.getFullYear() % 100).padStart(2, '0')}/${d.getMonth() + 1}/${d.getDate()} ${hm}`;
}
