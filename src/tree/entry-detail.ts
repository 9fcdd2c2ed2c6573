/**
 * The navigator's detail view (Enter → View): header facts, the full message (thinking, tool
 * calls with their arguments, tool output, images as placeholders), usage and cost, and for a
 * branch point the tokens and cost of each child's subtree. A compaction's retained messages are
 * rendered as messages, and so is a retained message's own view. Pure; every string taken from
 * the session goes through sanitizeInline/sanitizeBlock.
 */
import {
  addUsage,
  childrenOf,
  cutLineOf,
  emptyUsage,
  isObject,
  type JsonObject,
  messageOf,
  type SessionEntry,
  type SessionTree,
  tooLargeMessage,
  type UsageTotals,
  usageOf,
} from '../store/index.js';
import { sanitizeBlock, sanitizeInline } from '../text/terminal-text.js';
import type { DisplayContext, Tone } from './entry-display.js';
import { displayString, entryDisplay } from './entry-display.js';
import type { TreeIndex } from './tree-index.js';
import { retainedNode } from './tree-index.js';

export interface DetailLine {
  text: string;
  tone: Tone;
}

export interface DetailFormat {
  tokens(n: number): string;
  cost(usd: number): string;
  date(iso: string): string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function usageLine(usage: unknown, fmt: DetailFormat): string | undefined {
  if (!isObject(usage)) return undefined;
  const t = emptyUsage();
  addUsage(t, usage);
  return (
    `usage: ${fmt.tokens(t.totalTokens)} tokens (in ${fmt.tokens(t.input)}, out ${fmt.tokens(t.output)}, ` +
    `cache read ${fmt.tokens(t.cacheRead)}, cache write ${fmt.tokens(t.cacheWrite)}) · cost ${fmt.cost(t.cost)}`
  );
}

class DetailBuilder {
  readonly lines: DetailLine[] = [];
  heading(text: string): void {
    if (this.lines.length > 0) this.lines.push({ text: '', tone: 'plain' });
    this.lines.push({ text: sanitizeInline(text), tone: 'heading' });
  }
  line(text: string, tone: Tone = 'plain'): void {
    this.lines.push({ text: sanitizeInline(text), tone });
  }
  block(text: string, tone: Tone = 'plain'): void {
    // Tool output often carries colour codes: dropped, never printed raw nor shown as ␛[31m.
    for (const line of sanitizeBlock(text, { stripColours: true })) this.lines.push({ text: line, tone });
  }
}

function imagePlaceholder(block: JsonObject): string {
  const mime = str(block['mimeType']) ?? 'image';
  const data = str(block['data']);
  // base64 carries 3 bytes per 4 characters.
  const size = data === undefined ? '' : `, ${Math.round((data.length * 3) / 4 / 1024)} KB`;
  return `[image: ${mime}${size}]`;
}

function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function contentBlocks(b: DetailBuilder, content: unknown): void {
  if (typeof content === 'string') {
    b.block(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (!isObject(block)) continue;
    switch (block['type']) {
      case 'text':
        b.block(str(block['text']) ?? '');
        break;
      case 'thinking':
        if (block['redacted'] === true) b.line('[thinking redacted by the provider]', 'muted');
        else {
          b.line('thinking:', 'muted');
          b.block(str(block['thinking']) ?? '', 'muted');
        }
        break;
      case 'toolCall':
        b.line(`→ tool call ${str(block['name']) ?? 'tool'} (${str(block['id']) ?? '?'})`, 'tool');
        b.block(prettyJson(block['arguments']), 'tool');
        break;
      case 'image':
        b.line(imagePlaceholder(block), 'muted');
        break;
      default:
        b.line(`[${String(block['type'])} block]`, 'muted');
    }
  }
}

/** A message's facts and body; `usage` is the usage line to show (already worded), if any. */
function messageBody(b: DetailBuilder, message: JsonObject, ctx: DisplayContext, usage: string | undefined): void {
  const role = str(message['role']) ?? '?';
  if (role === 'assistant') {
    const model = [str(message['provider']), str(message['model'])].filter(Boolean).join('/');
    b.line(`model: ${model || '?'} · stop: ${str(message['stopReason']) ?? '?'}`, 'muted');
    const error = str(message['errorMessage']);
    if (error) b.line(`error: ${error}`, 'error');
  }
  if (role === 'toolResult') {
    const callId = str(message['toolCallId']);
    const call = callId === undefined ? undefined : ctx.toolCalls.get(callId);
    b.line(
      `tool: ${str(message['toolName']) ?? call?.name ?? '?'}${message['isError'] === true ? ' (error)' : ''}`,
      'muted',
    );
    if (call) {
      b.heading('call arguments');
      b.block(prettyJson(call.args), 'tool');
    }
  }
  if (usage) b.line(usage, 'muted');
  if (role === 'bashExecution') {
    b.heading('command');
    b.block(str(message['command']) ?? '');
    const exit = message['exitCode'];
    b.line(
      `exit code: ${typeof exit === 'number' ? exit : message['cancelled'] === true ? 'cancelled' : 'unknown'}`,
      'muted',
    );
    b.heading('output');
    b.block(str(message['output']) ?? '');
  } else {
    b.heading(role === 'toolResult' ? 'output' : 'content');
    contentBlocks(b, message['content'] ?? message['output']);
  }
}

/** The usage a retained copy repeats: shown, but said not to count (its entry spent it). */
function retainedUsageLine(message: JsonObject, fmt: DetailFormat): string | undefined {
  const role = message['role'];
  const line = role === 'assistant' || role === 'toolResult' ? usageLine(message['usage'], fmt) : undefined;
  return line === undefined ? undefined : `${line} — spent by the entry it copies, not counted again`;
}

const PI_IGNORES_TAIL =
  'pi 1.6.0 ignores retainedTail: these messages are not in its context (pi-sessions context --as-pi)';

const ENVELOPE_KEYS = new Set(['type', 'id', 'parentId', 'timestamp']);

export function detailLines(
  entry: SessionEntry,
  tree: SessionTree,
  ctx: DisplayContext,
  fmt: DetailFormat,
  subtreeUsage: (tree: SessionTree, id: string) => UsageTotals,
): DetailLine[] {
  const b = new DetailBuilder();
  const display = entryDisplay(entry, ctx);
  b.line(displayString(display), 'heading');
  b.line(`${entry.type} · id ${entry.id} · parent ${entry.parentId ?? '(root)'}`, 'muted');
  const cut = cutLineOf(entry);
  if (cut) b.line(tooLargeMessage(cut), 'error');
  if (typeof entry.timestamp === 'string') b.line(`time: ${fmt.date(entry.timestamp)}`, 'muted');
  const label = tree.labels.get(entry.id);
  if (label !== undefined) {
    const at = tree.labelTimestamps.get(entry.id);
    b.line(`label: [${label}]${at ? ` set ${fmt.date(at)}` : ''}`, 'muted');
  }
  if (tree.leafId === entry.id) b.line('this is the leaf: pi resumes here', 'muted');

  const message = messageOf(entry);
  if (message) {
    messageBody(b, message, ctx, usageLine(usageOf(entry), fmt));
  } else {
    const usage = usageLine(usageOf(entry), fmt);
    if (usage) b.line(usage, 'muted');
    if (entry.type === 'compaction' || entry.type === 'branch_summary') {
      if (typeof entry['tokensBefore'] === 'number')
        b.line(`tokens before: ${fmt.tokens(entry['tokensBefore'])}`, 'muted');
      b.heading('summary');
      b.block(str(entry['summary']) ?? '');
    } else if (entry.type === 'custom_message') {
      b.heading('content');
      contentBlocks(b, entry['content']);
    }
    const tail = Array.isArray(entry['retainedTail']) ? (entry['retainedTail'] as unknown[]) : undefined;
    if (entry.type === 'compaction' && tail) {
      b.heading(`retained messages (${tail.length}): in context right after the summary`);
      b.line(PI_IGNORES_TAIL, 'muted');
      tail.forEach((kept, i) => {
        if (!isObject(kept)) {
          b.heading(`${i + 1}. not a message`);
          b.block(prettyJson(kept), 'muted');
          return;
        }
        b.heading(`${i + 1}. ${str(kept['role']) ?? '?'}`);
        messageBody(b, kept, ctx, retainedUsageLine(kept, fmt));
      });
    }
    const rest: JsonObject = {};
    for (const [key, value] of Object.entries(entry)) {
      if (
        !ENVELOPE_KEYS.has(key) &&
        key !== 'summary' &&
        key !== 'content' &&
        key !== 'usage' &&
        !(entry.type === 'compaction' && key === 'retainedTail')
      )
        rest[key] = value;
    }
    if (Object.keys(rest).length > 0) {
      b.heading('fields');
      b.block(prettyJson(rest), 'muted');
    }
  }

  const kids = childrenOf(tree, entry.id);
  if (kids.length > 1) {
    b.heading(`${kids.length} branches from here`);
    for (const kid of kids) {
      const totals = subtreeUsage(tree, kid.id);
      const kidText = displayString(entryDisplay(kid, ctx));
      b.line(
        `${kidText.length > 60 ? `${kidText.slice(0, 59)}…` : kidText} — ${fmt.tokens(totals.totalTokens)} tokens, ${fmt.cost(totals.cost)}`,
      );
    }
  }
  return b.lines;
}

/** The detail view of a retained message: what it is (a copy, not an entry), then the message. */
function retainedDetailLines(index: TreeIndex, num: number, fmt: DetailFormat): DetailLine[] {
  const node = retainedNode(index, num)!;
  const compaction = index.entries[node.owner]!;
  const tail = compaction['retainedTail'] as unknown[];
  const b = new DetailBuilder();
  b.line(`retained ${displayString(entryDisplay(index.entries[num]!, index.displayContext))}`, 'heading');
  b.line(`message ${node.position + 1} of ${tail.length} retained by compaction ${compaction.id}`, 'muted');
  b.line(
    'a copy the compaction keeps in context, not an entry: it has no id and cannot be branched to, labelled or forked from',
    'muted',
  );
  b.line(PI_IGNORES_TAIL, 'muted');
  const stamp = node.message['timestamp'];
  if (typeof stamp === 'number' && Number.isFinite(stamp))
    b.line(`time: ${fmt.date(new Date(stamp).toISOString())}`, 'muted');
  messageBody(b, node.message, index.displayContext, retainedUsageLine(node.message, fmt));
  return b.lines;
}

/** The detail view of the row with key `id` (an entry id, or a retained message's row key). */
export function nodeDetailLines(
  index: TreeIndex,
  id: string,
  fmt: DetailFormat,
  subtreeUsage: (tree: SessionTree, id: string) => UsageTotals,
): DetailLine[] {
  const num = index.numOf.get(id);
  if (num === undefined) return [];
  if (num >= index.size) return retainedDetailLines(index, num, fmt);
  return detailLines(index.entries[num]!, index.tree, index.displayContext, fmt, subtreeUsage);
}
