/**
 * One self-contained HTML file, pure: readable offline, safe to open. It has no script at all;
 * every piece of session text is escaped; a Content-Security-Policy meta tag allows nothing but
 * its own stylesheet (by hash), so even markup that slipped through could load or run nothing.
 * Folding is `<details>`, light and dark follow `prefers-color-scheme`. Images are named, not
 * inlined (they are not scanned for secrets, and they make the file heavy).
 */
import { createHash } from 'node:crypto';
import type { ExportDocument, ExportMessage, ExportPart } from './messages.js';

/**
 * Text as HTML character data. Control characters (which HTML parsers drop or refuse, and which a
 * terminal would act on when the file is viewed as text) are shown as their Unicode pictures (␀, ␛).
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) =>
      c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0)),
    )
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --box: #f6f8fa; --line: #d1d9e0;
  --user: #0969da; --assistant: #8250df; --tool: #1a7f37; --error: #cf222e; --summary: #9a6700; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --box: #151b23; --line: #3d444d;
    --user: #4493f8; --assistant: #ab7df8; --tool: #3fb950; --error: #f85149; --summary: #d29922; }
}
body { background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
h1 { font-size: 1.5rem; margin-bottom: 0.25rem; }
.meta, .note, time { color: var(--muted); font-size: 0.85rem; }
section.message { border-left: 4px solid var(--line); padding: 0.25rem 0 0.25rem 1rem; margin: 1.25rem 0; }
section.user { border-color: var(--user); } section.assistant { border-color: var(--assistant); }
section.tool, section.bash { border-color: var(--tool); } section.summary { border-color: var(--summary); }
section.retained { border-left-style: dashed; }
h3 { font-size: 0.95rem; margin: 0 0 0.5rem; } .label { color: var(--summary); }
pre { background: var(--box); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; overflow-x: auto;
  white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.5rem 0; }
details { margin: 0.5rem 0; } summary { cursor: pointer; color: var(--muted); }
.error summary { color: var(--error); }
`;

/** The policy: nothing may load or run but this stylesheet (no script source at all). */
export function contentSecurityPolicy(style = STYLE): string {
  const hash = createHash('sha256').update(style).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'`;
}

function partHtml(part: ExportPart): string {
  switch (part.kind) {
    case 'text':
      return `<div class="text">${escapeHtml(part.text)}</div>`;
    case 'thinking':
      return `<details class="thinking"><summary>Thinking</summary><pre>${escapeHtml(part.text)}</pre></details>`;
    case 'system':
      return `<details class="system"><summary>System prompt</summary><pre>${escapeHtml(part.text)}</pre></details>`;
    case 'toolCall':
      return `<details class="tool-call"><summary>Tool call: ${escapeHtml(part.name)}</summary><pre>${escapeHtml(part.args)}</pre></details>`;
    case 'toolResult':
      return `<details class="tool-result${part.isError ? ' error' : ''}"><summary>${part.isError ? 'Output (error)' : 'Output'}, ${part.text.split('\n').length} line(s)</summary><pre>${escapeHtml(part.text)}</pre></details>`;
    case 'image':
      return `<p class="note">[image: ${escapeHtml(part.mimeType)}, ${part.bytes} bytes, not included]</p>`;
    case 'note':
      return `<p class="note">${escapeHtml(part.text)}</p>`;
  }
}

function messageHtml(message: ExportMessage): string {
  const classes = ['message', message.role, ...(message.retained ? ['retained'] : [])].join(' ');
  const label = message.label !== undefined ? ` <span class="label">[${escapeHtml(message.label)}]</span>` : '';
  const retained = message.retained ? ' <span class="note">(retained by the compaction)</span>' : '';
  const time = message.timestamp ? ` <time>${escapeHtml(message.timestamp)}</time>` : '';
  return [
    `<section class="${classes}" data-entry="${escapeHtml(message.entryId)}">`,
    `<h3>${escapeHtml(message.heading)}${retained}${label}${time}</h3>`,
    ...message.parts.map(partHtml),
    '</section>',
  ].join('\n');
}

export function documentHtml(doc: ExportDocument): string {
  const body: string[] = [
    `<h1>${escapeHtml(doc.title)}</h1>`,
    `<p class="meta">Session <code>${escapeHtml(doc.sessionId)}</code>${doc.cwd ? ` in <code>${escapeHtml(doc.cwd)}</code>` : ''}, exported by pi-sessions.</p>`,
  ];
  for (const branch of doc.branches) {
    body.push(`<h2>${escapeHtml(branch.heading)}</h2>`);
    if (branch.note) body.push(`<p class="note">${escapeHtml(branch.note)}</p>`);
    for (const message of branch.messages) body.push(messageHtml(message));
  }
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
