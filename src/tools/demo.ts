/**
 * The demo store for `npm start` on a machine without pi sessions: a few hand-written sessions
 * that show every view something readable (named and unnamed sessions, a branch with a summary,
 * labels, a compaction, a fork, tool calls and results), plus generated projects from the store
 * generator for volume. Deterministic for a given `nowMs`; dated relative to it so it looks recent.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCwd } from '../store/index.js';
import type { Model } from './generate/content.js';
import { assistantMessage, toolResultMessage, userMessage } from './generate/messages.js';
import { Rng } from './generate/random.js';
import { SessionWriter, serializeLines, sessionFileName } from './generate/session-writer.js';
import { writeStore } from './generate/store.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const DEMO_SEED = 2026;
const SONNET: Model = { provider: 'anthropic', modelId: 'claude-sonnet-4-5', api: 'anthropic-messages' };

/** A hand-written conversation on top of a SessionWriter, one readable line per turn. */
class Script {
  readonly writer: SessionWriter;
  private calls = 0;
  private lastCallId = '';

  constructor(id: string, cwd: string, startMs: number, parentSession?: string) {
    // Ids and pauses drawn from the session id: the same story gives the same file.
    const options = { id, cwd, startMs, rng: Rng.derive(DEMO_SEED, Number.parseInt(id.slice(-4), 16)) };
    this.writer = new SessionWriter(parentSession === undefined ? options : { ...options, parentSession });
  }

  user(text: string): string {
    this.writer.wait(20 * 1000, 3 * MINUTE);
    return this.writer.message((t) => userMessage(text, t));
  }

  assistant(text: string, tools: { name: string; args: Record<string, unknown> }[] = []): string {
    this.writer.wait(10 * 1000, MINUTE);
    const content: Record<string, unknown>[] = [{ type: 'text', text }];
    for (const tool of tools) {
      this.lastCallId = `toolu_demo${(++this.calls).toString().padStart(4, '0')}`;
      content.push({ type: 'toolCall', id: this.lastCallId, name: tool.name, arguments: tool.args });
    }
    const usage = { input: 1200 + text.length * 3, output: 80 + text.length, cacheRead: 0 };
    return this.writer.message((t) =>
      assistantMessage(SONNET, content, tools.length > 0 ? 'toolUse' : 'stop', usage, t),
    );
  }

  toolResult(name: string, text: string): string {
    this.writer.wait(1000, 20 * 1000);
    return this.writer.message((t) => toolResultMessage(this.lastCallId, name, text, false, t));
  }

  write(root: string): string {
    const { cwd, id, startMs } = this.writer.options;
    const dir = join(root, encodeCwd(cwd));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, sessionFileName(startMs, id));
    writeFileSync(path, serializeLines(this.writer.lines));
    // Like pi's files: modified when the last entry was written (not "now", which looks live).
    const last = new Date(this.writer.clockMs);
    utimesSync(path, last, last);
    return path;
  }
}

/** Writes the demo store under `root` (a sessions root); returns the cwd of its main project. */
export function writeDemoStore(root: string, nowMs = Date.now()): { mainCwd: string; files: string[] } {
  const files: string[] = [];
  const shop = '/home/demo/code/webshop';
  const api = '/home/demo/work/billing-api';
  const notes = '/home/demo/notes';

  const a = new Script('019a0001-0000-7000-8000-00000000d001', shop, nowMs - 2 * DAY);
  a.writer.modelChange(SONNET.provider, SONNET.modelId);
  a.user('The checkout total is off by a cent for some carts. Can you find out why?');
  a.assistant("I'll look at how totals are computed.", [{ name: 'read', args: { path: 'src/cart/totals.ts' } }]);
  a.toolResult('read', 'export function total(items) {\n  return items.reduce((s, i) => s + i.price * i.qty, 0);\n}');
  const diagnosis = a.assistant(
    'Prices are summed as floats. Rounding each line before summing fixes the off-by-one-cent totals.',
  );
  a.writer.label(diagnosis, 'diagnosis');
  a.user('Fix it with integer cents instead.');
  a.assistant('Switching to integer cents.', [
    { name: 'edit', args: { path: 'src/cart/totals.ts', oldText: 'i.price', newText: 'i.priceCents' } },
  ]);
  a.toolResult('edit', 'Applied 1 edit to src/cart/totals.ts');
  a.assistant('Done: totals are computed in integer cents; all 48 tests pass.');
  // The user went back and tried rounding instead, leaving a summary of the first attempt.
  a.writer.branchWithSummary(diagnosis, 'Tried integer cents: works, but touches every price in the catalogue.');
  a.user('Actually, just round each line to cents before summing.');
  a.assistant('Rounded each line item; the cart in the bug report now totals $41.30.', [
    { name: 'bash', args: { command: 'npm test -- cart' } },
  ]);
  a.toolResult('bash', 'PASS test/cart.test.ts (48 tests)');
  a.assistant('Tests pass. The change is two lines in src/cart/totals.ts.');
  a.writer.sessionInfo('Checkout: fix rounding in totals');
  const parent = a.write(root);
  files.push(parent);

  const b = new Script('019a0002-0000-7000-8000-00000000d002', shop, nowMs - 20 * DAY);
  b.user('Add a health endpoint that reports the database status.');
  b.assistant('Added GET /health returning {db: "ok"|"down"} with a 500 ms timeout.', [
    { name: 'write', args: { path: 'src/routes/health.ts' } },
  ]);
  b.toolResult('write', 'Wrote src/routes/health.ts (31 lines)');
  b.assistant('The endpoint is registered in src/server.ts.');
  files.push(b.write(root));

  const c = new Script('019a0003-0000-7000-8000-00000000d003', shop, nowMs - 30 * MINUTE, parent);
  c.user('The checkout total is off by a cent for some carts. Can you find out why?');
  c.assistant('(forked) Continuing from the diagnosis: prices are summed as floats.');
  c.user('Write a regression test for the 41.30 cart.');
  c.assistant('Added test/cart-rounding.test.ts with the cart from the bug report.');
  files.push(c.write(root));

  const d = new Script('019a0004-0000-7000-8000-00000000d004', api, nowMs - 6 * DAY);
  const first = d.user('Why is the nightly invoice job slow?');
  d.assistant('Looking at the job first.', [
    { name: 'bash', args: { command: 'rg -n "for (const invoice" src/jobs' } },
  ]);
  d.toolResult('bash', 'src/jobs/nightly.ts:42:  for (const invoice of invoices) {');
  d.assistant('It runs one query per invoice (N+1). Batching them cuts the job from 40 minutes to 3.');
  d.writer.compaction('The nightly job issues one query per invoice; the fix is to batch by customer.', first, 48_211);
  d.user('Batch them by customer, 500 at a time.');
  d.assistant('Done. The job now takes 2m58s on the staging data.');
  d.writer.label(first, 'perf');
  d.writer.sessionInfo('Billing: nightly job N+1');
  files.push(d.write(root));

  const e = new Script('019a0005-0000-7000-8000-00000000d005', api, nowMs - 90 * DAY);
  e.user('Draft a migration that adds a currency column to invoices.');
  files.push(e.write(root));

  const f = new Script('019a0006-0000-7000-8000-00000000d006', notes, nowMs - 3 * HOUR);
  f.user('Summarise my notes on the Q3 planning meeting in five bullet points.');
  f.assistant(
    '• Ship multi-currency by October\n• Hire two engineers\n• Retire the v1 API\n• Quarterly security review\n• Move CI to the new runners',
  );
  files.push(f.write(root));

  // Volume: generated projects over the last two months, ending a day before now.
  const generated = writeStore(root, {
    projects: 4,
    sessions: 36,
    entries: 40,
    toolBytes: 600,
    seed: DEMO_SEED,
    startMs: nowMs - 62 * DAY,
    days: 60,
  });
  files.push(...generated.files.map((file) => file.path));
  return { mainCwd: shop, files };
}
