/**
 * The writers on hostile text: HTML whose session text tries to run script (tags, event handlers,
 * a closing </style>, a javascript: link) runs nothing in a browser with scripts enabled (jsdom)
 * and shows the text as it is; Markdown keeps a code block whole with a fence longer than any
 * backtick run, fences text that would break the page (a fence left open, raw HTML), folds tool
 * calls and their output, trims long output with a note, and names images without inlining them.
 */
import { JSDOM, VirtualConsole } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { documentHtml } from '../../src/export/html.js';
import { documentMarkdown, fenceFor, safeAsMarkdown, TOOL_OUTPUT_LINES } from '../../src/export/markdown.js';
import type { ExportDocument } from '../../src/export/messages.js';

const HOSTILE = [
  '<script>window.ran = 1</script>',
  '<img src=x onerror="window.ran = 2">',
  '</style><script>window.ran = 3</script>',
  '<a href="javascript:window.ran=4">click</a>',
  '"><svg onload="window.ran = 5">',
  '<iframe srcdoc="<script>parent.ran=6</script>"></iframe>',
  '<meta http-equiv="refresh" content="0;url=https://example.com">',
].join('\n');

function doc(text: string, extra: ExportDocument['branches'][number]['messages'] = []): ExportDocument {
  return {
    title: '<b>title</b>',
    sessionId: 'id"><script>',
    cwd: '/home/a',
    branches: [
      {
        heading: 'Active branch',
        note: undefined,
        messages: [
          {
            entryId: 'e1',
            role: 'user',
            heading: 'User',
            timestamp: undefined,
            label: '<i>x</i>',
            parts: [{ kind: 'text', text }],
          },
          ...extra,
        ],
      },
    ],
  };
}

describe('HTML export', () => {
  it('runs nothing from the session and shows its text as it is', () => {
    const html = documentHtml(doc(HOSTILE));
    const errors: unknown[] = [];
    const virtualConsole = new VirtualConsole();
    virtualConsole.on('jsdomError', (e) => errors.push(e));
    const dom = new JSDOM(html, { runScripts: 'dangerously', virtualConsole });
    const { window } = dom;
    expect((window as unknown as { ran?: number }).ran).toBeUndefined();
    expect(window.document.querySelectorAll('script, img, a, svg, iframe, meta[http-equiv="refresh"]').length).toBe(0);
    expect(window.document.querySelector('.text')!.textContent).toBe(HOSTILE);
    expect(window.document.title).toBe('<b>title</b>');
    expect(window.document.querySelectorAll('style').length).toBe(1);
    expect(errors).toEqual([]);
    window.close();
  });

  it('has a strict policy, light and dark colours, and folds tool calls and output', () => {
    const html = documentHtml(
      doc('hi', [
        {
          entryId: 'e2',
          role: 'assistant',
          heading: 'Assistant',
          timestamp: undefined,
          label: undefined,
          parts: [
            { kind: 'toolCall', name: 'bash', args: '{"command": "ls"}' },
            { kind: 'toolResult', text: 'a\nb', isError: false },
            { kind: 'image', mimeType: 'image/png', bytes: 1234 },
          ],
        },
      ]),
    );
    const { document } = new JSDOM(html).window;
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
    expect(html).toContain('@media (prefers-color-scheme: dark)');
    expect([...document.querySelectorAll('details > summary')].map((s) => s.textContent)).toEqual([
      'Tool call: bash',
      'Output, 2 line(s)',
    ]);
    expect(document.body.textContent).toContain('[image: image/png, 1234 bytes, not included]');
    expect(html).not.toContain('data:');
  });
});

describe('Markdown export', () => {
  it('keeps code blocks, and fences text with a fence longer than any backtick run inside', () => {
    const code = 'Here:\n\n```ts\nconst a = 1;\n```\n';
    expect(safeAsMarkdown(code)).toBe(true);
    expect(documentMarkdown(doc(code))).toContain(`\n\n${code}`);
    const open = 'a fence left open:\n````\nnever closed';
    expect(safeAsMarkdown(open)).toBe(false);
    expect(documentMarkdown(doc(open))).toContain(`\`\`\`\`\`text\n${open}\n\`\`\`\`\``);
    expect(fenceFor('x ``````` y')).toBe('````````');
    expect(safeAsMarkdown(HOSTILE)).toBe(false);
    expect(safeAsMarkdown('end of comment --> here')).toBe(false);
    const md = documentMarkdown(doc(HOSTILE));
    expect(md).toContain(`\`\`\`text\n${HOSTILE}\n\`\`\``);
    expect(md).toContain('# \\<b\\>title\\</b\\>');
  });

  it('folds tool calls and output, trims long output with a note, names images', () => {
    const long = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const md = documentMarkdown(
      doc('hi', [
        {
          entryId: 'e2',
          role: 'tool',
          heading: 'Tool result: bash',
          timestamp: undefined,
          label: undefined,
          parts: [
            { kind: 'toolCall', name: 'bash', args: 'echo ```' },
            { kind: 'toolResult', text: long, isError: true },
            { kind: 'image', mimeType: 'image/png', bytes: 99 },
          ],
        },
      ]),
    );
    expect(md).toContain('<details>\n<summary>Tool call: bash</summary>\n\n````sh\necho ```\n````\n\n</details>');
    expect(md).toContain('<summary>Output (error)</summary>');
    expect(md).toContain(`line ${TOOL_OUTPUT_LINES - 1}\n\`\`\``);
    expect(md).not.toContain(`line ${TOOL_OUTPUT_LINES}\n`);
    expect(md).toContain(`_trimmed: the first ${TOOL_OUTPUT_LINES} of 100 lines`);
    expect(md).toContain('_[image: image/png, 99 bytes, not included]_');
  });
});
