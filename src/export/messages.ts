/**
 * The exported conversation as display data, pure: each entry of a branch becomes a message with a
 * role and parts (text, thinking, tool calls and results, images, notes), the one shape both the
 * Markdown and the HTML writers render. A compaction shows its summary and, when it has one, its
 * retained tail (the messages it keeps, session-format.md §8.4); labels are shown on their target.
 */

import type { JsonObject, SessionEntry } from '../store/index.js';
import {
  type ExportBranch,
  type ExportSelection,
  isObject,
  messageOf,
  retainedTailOf,
  sessionTitle,
} from '../store/index.js';

export type ExportPart =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | { kind: 'toolCall'; name: string; args: string }
  | { kind: 'toolResult'; text: string; isError: boolean }
  | { kind: 'image'; mimeType: string; bytes: number }
  | { kind: 'system'; text: string }
  | { kind: 'note'; text: string };

export interface ExportMessage {
  entryId: string;
  /** user, assistant, tool, bash, custom, summary, system, setting. */
  role: string;
  /** What the heading says: "User", "Assistant (anthropic/claude…)", "Tool result: bash". */
  heading: string;
  timestamp: string | undefined;
  label: string | undefined;
  parts: ExportPart[];
  /** Inside a compaction's retained tail. */
  retained?: boolean;
}

export interface ExportDocument {
  title: string;
  sessionId: string;
  cwd: string;
  branches: { heading: string; note: string | undefined; messages: ExportMessage[] }[];
}

function contentParts(content: unknown): ExportPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ kind: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const parts: ExportPart[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    switch (block['type']) {
      case 'text':
        if (typeof block['text'] === 'string') parts.push({ kind: 'text', text: block['text'] });
        break;
      case 'thinking':
        if (typeof block['thinking'] === 'string' && block['thinking'] !== '')
          parts.push({ kind: 'thinking', text: block['thinking'] });
        else if (block['redacted']) parts.push({ kind: 'note', text: 'thinking (redacted by the provider)' });
        break;
      case 'toolCall':
        parts.push({
          kind: 'toolCall',
          name: typeof block['name'] === 'string' ? block['name'] : 'tool',
          args: JSON.stringify(block['arguments'] ?? {}, null, 2),
        });
        break;
      case 'image': {
        const data = block['data'];
        parts.push({
          kind: 'image',
          mimeType: typeof block['mimeType'] === 'string' ? block['mimeType'] : 'image',
          bytes: typeof data === 'string' ? Math.floor((data.length * 3) / 4) : 0,
        });
        break;
      }
      default:
        break;
    }
  }
  return parts;
}

/** The text of parts (text parts only), joined as pi joins a message's text. */
function textOf(content: unknown): string {
  return contentParts(content)
    .flatMap((p) => (p.kind === 'text' ? [p.text] : []))
    .join('\n');
}

function iso(entry: SessionEntry): string | undefined {
  return typeof entry.timestamp === 'string' ? entry.timestamp : undefined;
}

/** One stored message (an entry's, or one of a retained tail) as display data. */
function fromMessage(message: JsonObject, base: Omit<ExportMessage, 'role' | 'heading' | 'parts'>): ExportMessage {
  const role = message['role'];
  switch (role) {
    case 'user':
      return { ...base, role: 'user', heading: 'User', parts: contentParts(message['content']) };
    case 'assistant': {
      const model = [message['provider'], message['model']].filter((v) => typeof v === 'string').join('/');
      const parts = contentParts(message['content']);
      if (typeof message['errorMessage'] === 'string')
        parts.push({ kind: 'note', text: `error: ${message['errorMessage']}` });
      return { ...base, role: 'assistant', heading: model ? `Assistant (${model})` : 'Assistant', parts };
    }
    case 'toolResult': {
      const text = message['content'] !== undefined ? textOf(message['content']) : String(message['output'] ?? '');
      const images = contentParts(message['content']).filter((p) => p.kind === 'image');
      const name = typeof message['toolName'] === 'string' ? message['toolName'] : 'tool';
      return {
        ...base,
        role: 'tool',
        heading: `Tool result: ${name}`,
        parts: [{ kind: 'toolResult', text, isError: message['isError'] === true }, ...images],
      };
    }
    case 'bashExecution': {
      const code = typeof message['exitCode'] === 'number' ? `exit ${message['exitCode']}` : 'no exit code';
      return {
        ...base,
        role: 'bash',
        heading: `Shell command (${code})`,
        parts: [
          { kind: 'toolCall', name: 'bash', args: String(message['command'] ?? '') },
          { kind: 'toolResult', text: String(message['output'] ?? ''), isError: message['exitCode'] !== 0 },
        ],
      };
    }
    case 'system': {
      const text = typeof message['content'] === 'string' ? message['content'] : textOf(message['content']);
      return { ...base, role: 'system', heading: 'System prompt', parts: text ? [{ kind: 'system', text }] : [] };
    }
    case 'custom':
    case 'hookMessage':
      return {
        ...base,
        role: 'custom',
        heading: `Extension message${typeof message['customType'] === 'string' ? `: ${message['customType']}` : ''}`,
        parts: contentParts(message['content']),
      };
    default:
      return { ...base, role: 'custom', heading: `Message (${String(role)})`, parts: contentParts(message['content']) };
  }
}

/** The display messages of one entry (none for bookkeeping entries: labels, names, usage). */
export function entryMessages(entry: SessionEntry, label: string | undefined): ExportMessage[] {
  const base = { entryId: entry.id, timestamp: iso(entry), label };
  switch (entry.type) {
    case 'message': {
      const message = messageOf(entry);
      return message ? [fromMessage(message, base)] : [];
    }
    case 'custom_message':
      return [fromMessage({ role: 'custom', customType: entry['customType'], content: entry['content'] ?? [] }, base)];
    case 'branch_summary':
      return [
        {
          ...base,
          role: 'summary',
          heading: 'Summary of an abandoned branch',
          parts: [{ kind: 'text', text: String(entry['summary'] ?? '') }],
        },
      ];
    case 'compaction': {
      const tail = retainedTailOf(entry) ?? [];
      const tokens = typeof entry['tokensBefore'] === 'number' ? ` (${entry['tokensBefore']} tokens before)` : '';
      const out: ExportMessage[] = [
        {
          ...base,
          role: 'summary',
          heading: `Compaction${tokens}`,
          parts: [
            { kind: 'text', text: String(entry['summary'] ?? '') },
            {
              kind: 'note',
              text:
                tail.length > 0
                  ? `From here the model sees this summary and the ${tail.length} message(s) it retained, instead of what came before.`
                  : 'From here the model sees this summary instead of what came before (and the entries it keeps, if any).',
            },
          ],
        },
      ];
      for (const { message } of tail) out.push({ ...fromMessage(message, base), retained: true });
      return out;
    }
    case 'model_change':
      return [
        {
          ...base,
          role: 'setting',
          heading: 'Model changed',
          parts: [{ kind: 'note', text: `${String(entry['provider'])}/${String(entry['modelId'])}` }],
        },
      ];
    case 'thinking_level_change':
      return [
        {
          ...base,
          role: 'setting',
          heading: 'Thinking level changed',
          parts: [{ kind: 'note', text: String(entry['thinkingLevel']) }],
        },
      ];
    default:
      return [];
  }
}

function branchHeading(branch: ExportBranch, index: number, count: number): string {
  if (count === 1) return branch.active ? 'Active branch' : `Branch to ${branch.leafId}`;
  return `Branch ${index + 1} of ${count}${branch.active ? ' (active)' : ''}`;
}

/** The whole export as display data. */
export function exportDocument(selection: ExportSelection): ExportDocument {
  const { tree, session } = selection;
  const first = tree.order.find((e) => e.type === 'message' && messageOf(e)?.['role'] === 'user');
  // The first prompt's first line: a document title is one line.
  const firstPrompt = first ? textOf(messageOf(first)!['content']).split('\n')[0]! : '';
  const title = sessionTitle({ name: tree.sessionName, firstMessage: firstPrompt });
  return {
    title: title.slice(0, 200) || 'pi session',
    sessionId: session.header.id,
    cwd: typeof session.header.cwd === 'string' ? session.header.cwd : '',
    branches: selection.branches.map((branch, i) => ({
      heading: branchHeading(branch, i, selection.branches.length),
      note: branch.continuesFrom ? `continues from entry ${branch.continuesFrom}` : undefined,
      messages: branch.entries.flatMap((entry) => entryMessages(entry, tree.labels.get(entry.id))),
    })),
  };
}
