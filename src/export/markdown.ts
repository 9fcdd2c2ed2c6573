/**
 * Markdown for a pull request or an issue, pure. Message text is Markdown already and goes in as
 * it is, unless it would break the page (a fence left open, raw HTML): then it is fenced. Every
 * fence is longer than any backtick run inside it. Tool calls and their output are folded in
 * `<details>`, long output trimmed with a note saying how much; images are named, not inlined.
 * Each message starts with an HTML comment naming its entry (invisible once rendered), so the
 * text of every message can be found again.
 */
import type { ExportDocument, ExportMessage, ExportPart } from './messages.js';

/** Tool output past this many lines (or characters) is trimmed in Markdown. */
export const TOOL_OUTPUT_LINES = 40;
export const TOOL_OUTPUT_CHARS = 4000;

/** A fence of backticks longer than any run of backticks in `text` (at least three). */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function fenced(text: string, info = ''): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}\n${fence}`;
}

/** Whether Markdown text can go in as it is: every fence it opens is closed, and no HTML block. */
export function safeAsMarkdown(text: string): boolean {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === undefined) {
      if (fence) open = fence;
      else if (/^ {0,3}<\/?[A-Za-z!?]/.test(line)) return false;
    } else if (fence && fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = undefined;
  }
  return open === undefined && !text.includes('<!--') && !text.includes('-->');
}

/** `text` trimmed to the limits, with a note saying what was left out. */
export function trimOutput(text: string): { text: string; note: string | undefined } {
  const lines = text.split('\n');
  if (lines.length <= TOOL_OUTPUT_LINES && text.length <= TOOL_OUTPUT_CHARS) return { text, note: undefined };
  let kept = lines.slice(0, TOOL_OUTPUT_LINES).join('\n');
  if (kept.length > TOOL_OUTPUT_CHARS) kept = kept.slice(0, TOOL_OUTPUT_CHARS);
  const keptLines = kept.split('\n').length;
  return {
    text: kept,
    note: `trimmed: the first ${keptLines} of ${lines.length} lines (${kept.length} of ${text.length} characters) are shown; the whole output is in the session`,
  };
}

/** `<summary>` text: no tag can open or close in it. */
function summaryText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function details(summary: string, body: string): string {
  return `<details>\n<summary>${summaryText(summary)}</summary>\n\n${body}\n\n</details>`;
}

function partMarkdown(part: ExportPart): string {
  switch (part.kind) {
    case 'text':
      return safeAsMarkdown(part.text) ? part.text : fenced(part.text, 'text');
    case 'thinking':
      return details('Thinking', fenced(part.text, 'text'));
    case 'system':
      return details('System prompt', fenced(part.text, 'text'));
    case 'toolCall':
      return details(`Tool call: ${part.name}`, fenced(part.args, part.name === 'bash' ? 'sh' : 'json'));
    case 'toolResult': {
      const { text, note } = trimOutput(part.text);
      const body = `${fenced(text, 'text')}${note ? `\n\n_${note}_` : ''}`;
      return details(part.isError ? 'Output (error)' : 'Output', body);
    }
    case 'image':
      return `_[image: ${part.mimeType}, ${part.bytes} bytes, not included]_`;
    case 'note':
      return `_${escapeInline(part.text)}_`;
  }
}

/** Session text on one line of Markdown (a heading): no line break, no markup, no HTML. */
export function escapeInline(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(/[\\`*_[\]<>#|!~&]/g, '\\$&');
}

function heading(message: ExportMessage): string {
  const extras = [
    message.retained ? 'retained by the compaction' : undefined,
    message.label !== undefined ? `label: ${message.label}` : undefined,
    message.timestamp,
  ].filter((x) => x !== undefined);
  return `### ${escapeInline([message.heading, ...extras].join(' · '))}`;
}

export function messageMarkdown(message: ExportMessage): string {
  const body = message.parts.map(partMarkdown);
  return [`<!-- entry ${message.entryId.replace(/[^\w.:-]/g, '_')} -->`, heading(message), ...body].join('\n\n');
}

/** Inline code that no backtick inside can end. */
function inlineCode(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const ticks = '`'.repeat(longest + 1);
  return `${ticks} ${text.replace(/[\r\n]+/g, ' ')} ${ticks}`;
}

export function documentMarkdown(doc: ExportDocument): string {
  const title = escapeInline(doc.title);
  const where = doc.cwd ? ` in ${inlineCode(doc.cwd)}` : '';
  const out = [`# ${title}`, '', `Session ${inlineCode(doc.sessionId)}${where}, exported by pi-sessions.`];
  for (const branch of doc.branches) {
    out.push('', `## ${branch.heading}`);
    if (branch.note) out.push('', `_${branch.note}_`);
    for (const message of branch.messages) out.push('', messageMarkdown(message));
  }
  return `${out.join('\n')}\n`;
}
