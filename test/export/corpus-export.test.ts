/**
 * Every fixture of both pi-written corpora exported in the three formats, its active branch and
 * (where it has one) an abandoned branch too: the JSONL opens in pi 1.6.0 (its SessionManager)
 * unchanged and gives pi's context for that branch exactly; the HTML, loaded in jsdom with scripts
 * enabled, has no script and raises no error, and holds every message's text as it is; the
 * Markdown holds every message's text as it is, in order, under its entry's marker.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { fenced } from '../../src/export/markdown.js';
import { exportDocument } from '../../src/export/messages.js';
import { planExport, writeExport } from '../../src/export/run.js';
import { buildContext, buildTree, readSessionSync, StoreError } from '../../src/store/index.js';
import { canonicalJson, goldenCases } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';

const cases = goldenCases();

/** The leaves to export: the active one and, when there is one, the first other leaf. */
function leavesOf(path: string): string[] {
  const session = readSessionSync(path);
  if (!session.ok) return [];
  const tree = buildTree(session);
  const others = tree.order.filter((e) => (tree.children.get(e.id)?.length ?? 0) === 0 && e.id !== tree.leafId);
  return [...(tree.leafId !== null ? [tree.leafId] : []), ...others.slice(0, 1).map((e) => e.id)];
}

/** The text as the page shows it: control characters as their pictures (␀), CR LF and lone CR as LF (HTML's rule). */
function asParsed(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0)))
    .replace(/\u007f/g, '\u2421');
}

describe.each(cases.map((c) => [`${c.corpus}/${c.folder}/${c.file}`, c] as const))('export %s', (_name, c) => {
  const leaves = leavesOf(c.sessionPath);

  it.runIf(leaves.length === 0)('is refused with one line (not a session, or no entries)', async () => {
    const error = await planExport(c.sessionPath, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).not.toContain('\n');
  });

  it.runIf(leaves.length > 0)('JSONL: pi opens it unchanged and gets its context for the branch', async () => {
    // A file pi itself refuses to open: the reference is our reading of pi's rules (context.ts asPi).
    const original = await openWithPi(c.sessionPath).catch(() => undefined);
    const session = readSessionSync(c.sessionPath);
    if (!session.ok) throw new Error(session.message);
    for (const leaf of leaves) {
      const out = join(tempDir('pi-sessions-export-'), 'branch.jsonl');
      const plan = await planExport(c.sessionPath, { leaf });
      if (session.problems.some((p) => p.kind === 'bom')) {
        // pi cannot open a file with a BOM: the store's writers (the fork planner) refuse it, in one line.
        await expect(writeExport(plan, { format: 'jsonl', secrets: 'keep', out })).rejects.toThrow(
          /^[^\n]*byte-order mark[^\n]*$/,
        );
        continue;
      }
      const outcome = await writeExport(plan, { format: 'jsonl', secrets: 'keep', out });
      expect(outcome.done).toBe(true);
      const exported = await openWithPi(out);
      expect(exported.changedOnOpen).toBe(false);
      // A fork re-creates the branch's labels after it: pi's leaf is the last of them, on top of the branch's end.
      const entries = exported.manager.getEntries();
      const last = entries.findLast((e) => e.type !== 'label');
      expect(last?.id).toBe(leaf);
      expect(entries.slice(entries.indexOf(last!) + 1).every((e) => e.type === 'label')).toBe(true);
      expect(exported.manager.getHeader()!['parentSession']).toBeUndefined();
      const want = original
        ? await piContextAt(original.manager, leaf)
        : buildContext(buildTree(session), leaf, { asPi: true }).messages;
      expect(exported.manager.buildSessionContext().messages.map(canonicalJson)).toEqual(want.map(canonicalJson));
    }
  });

  it.runIf(leaves.length > 0)(
    'HTML: no script, no error in a browser (jsdom), every message text present',
    async () => {
      for (const leaf of leaves) {
        const plan = await planExport(c.sessionPath, { leaf });
        const chunks: Buffer[] = [];
        await writeExport(plan, { format: 'html', secrets: 'keep', write: (b) => void chunks.push(b) });
        const html = Buffer.concat(chunks).toString('utf8');
        const errors: unknown[] = [];
        const virtualConsole = new VirtualConsole();
        virtualConsole.on('jsdomError', (error) => errors.push(error));
        virtualConsole.on('error', (error) => errors.push(error));
        const dom = new JSDOM(html, { runScripts: 'dangerously', virtualConsole });
        const { document } = dom.window;
        expect(document.querySelectorAll('script, iframe, object, embed, [onerror], [onload]').length).toBe(0);
        expect(document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toMatch(
          /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none'/,
        );
        const doc = exportDocument(plan.selection);
        const sections = [...document.querySelectorAll('section.message')];
        const messages = doc.branches.flatMap((b) => b.messages);
        expect(sections.map((s) => s.getAttribute('data-entry'))).toEqual(messages.map((m) => m.entryId));
        messages.forEach((message, i) => {
          const texts = [...sections[i]!.querySelectorAll(':scope > .text')].map((t) => t.textContent);
          expect(texts).toEqual(message.parts.flatMap((p) => (p.kind === 'text' ? [asParsed(p.text)] : [])));
        });
        expect(errors).toEqual([]);
        dom.window.close();
      }
    },
  );

  it.runIf(leaves.length > 0)('Markdown: every message text, as it is, in order under its entry marker', async () => {
    for (const leaf of leaves) {
      const plan = await planExport(c.sessionPath, { leaf });
      const chunks: Buffer[] = [];
      await writeExport(plan, { format: 'md', secrets: 'keep', write: (b) => void chunks.push(b) });
      const md = Buffer.concat(chunks).toString('utf8');
      const messages = exportDocument(plan.selection).branches.flatMap((b) => b.messages);
      let at = 0;
      for (const message of messages) {
        const marker = `<!-- entry ${message.entryId} -->`;
        const start = md.indexOf(marker, at);
        expect(start, message.entryId).toBeGreaterThanOrEqual(0);
        at = start + marker.length;
        for (const part of message.parts) {
          if (part.kind !== 'text') continue;
          const raw = md.indexOf(`\n\n${part.text}`, at);
          const inFence = md.indexOf(fenced(part.text, 'text'), at);
          const found = [raw, inFence].filter((n) => n >= 0);
          expect(found.length, `${message.entryId}: ${part.text.slice(0, 40)}`).toBeGreaterThan(0);
          at = Math.min(...found) + part.text.length;
        }
      }
    }
  });
});

it('the corpora are all here (both of them, every fixture)', () => {
  expect(new Set(cases.map((c) => c.corpus))).toEqual(new Set(['pi-written', 'generated']));
  expect(cases.length).toBeGreaterThanOrEqual(60);
  expect(readFileSync(cases[0]!.sessionPath).length).toBeGreaterThan(0);
});
