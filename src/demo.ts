/**
 * A small, realistic demo store for `npm start` on a machine without pi sessions: three projects,
 * named and unnamed sessions, branches with a summary, labels, a compaction, a fork, tool calls
 * and results. Written in pi's format (v3, pi's key order) so every view has something to show.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCwd } from './store/locations.js';

type Json = Record<string, unknown>;

class DemoSession {
  private readonly lines: Json[] = [];
  private counter = 0;
  leaf: string | null = null;
  private clock: number;

  constructor(
    readonly id: string,
    readonly cwd: string,
    startMs: number,
    parentSession?: string,
  ) {
    this.clock = startMs;
    const header: Json = { type: 'session', version: 3, id, timestamp: new Date(startMs).toISOString(), cwd };
    if (parentSession) header['parentSession'] = parentSession;
    this.lines.push(header);
  }

  private add(type: string, fields: Json, parentId: string | null = this.leaf): string {
    this.counter++;
    this.clock += 20_000 + (this.counter % 7) * 9_000;
    const id = `${this.id.slice(0, 4)}${this.counter.toString(16).padStart(4, '0')}`;
    this.lines.push({ type, id, parentId, timestamp: new Date(this.clock).toISOString(), ...fields });
    this.leaf = id;
    return id;
  }

  model(provider: string, modelId: string): string {
    return this.add('model_change', { provider, modelId });
  }

  user(text: string): string {
    return this.add('message', { message: { role: 'user', content: text, timestamp: this.clock + 20_000 } });
  }

  assistant(text: string, tools: { name: string; args: Json }[] = []): string {
    const content: Json[] = [{ type: 'text', text }];
    tools.forEach((t, i) => content.push({ type: 'toolCall', id: `call_${this.counter}_${i}`, name: t.name, arguments: t.args }));
    const input = 1200 + text.length * 3;
    const output = 80 + text.length;
    return this.add('message', {
      message: {
        role: 'assistant',
        content,
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage: { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: input * 3e-6, output: output * 15e-6, cacheRead: 0, cacheWrite: 0, total: input * 3e-6 + output * 15e-6 } },
        stopReason: tools.length > 0 ? 'toolUse' : 'stop',
        timestamp: this.clock + 20_000,
      },
    });
  }

  toolResult(name: string, text: string): string {
    return this.add('message', {
      message: { role: 'toolResult', toolCallId: `call_${this.counter - 1}_0`, toolName: name, content: [{ type: 'text', text }], isError: false, timestamp: this.clock + 20_000 },
    });
  }

  label(targetId: string, label: string): string {
    return this.add('label', { targetId, label });
  }

  name(name: string): string {
    return this.add('session_info', { name });
  }

  branchSummary(parentId: string, summary: string): string {
    const fromId = this.leaf ?? 'root';
    return this.add('branch_summary', { fromId, summary }, parentId);
  }

  compaction(summary: string, firstKeptEntryId: string): string {
    return this.add('compaction', { summary, firstKeptEntryId, tokensBefore: 48_211 });
  }

  write(root: string): string {
    const dir = join(root, encodeCwd(this.cwd));
    mkdirSync(dir, { recursive: true });
    const stamp = new Date(this.lines[0]!['timestamp'] as string).toISOString().replace(/[:.]/g, '-');
    const path = join(dir, `${stamp}_${this.id}.jsonl`);
    writeFileSync(path, this.lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    // Like pi's files: modified when the last entry was written (not "now", which looks live).
    const last = new Date(this.clock);
    utimesSync(path, last, last);
    return path;
  }
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Writes the demo store under `root` (a sessions root); returns the cwd of its main project. */
export function writeDemoStore(root: string, nowMs = Date.now()): { mainCwd: string; files: string[] } {
  const files: string[] = [];
  const shop = '/home/demo/code/webshop';
  const api = '/home/demo/work/billing-api';
  const notes = '/home/demo/notes';

  const a = new DemoSession('019a0001-0000-7000-8000-00000000d001', shop, nowMs - 2 * DAY);
  a.model('anthropic', 'claude-sonnet-4-5');
  const ask = a.user('The checkout total is off by a cent for some carts. Can you find out why?');
  a.assistant("I'll look at how totals are computed.", [{ name: 'read', args: { path: 'src/cart/totals.ts' } }]);
  a.toolResult('read', 'export function total(items) {\n  return items.reduce((s, i) => s + i.price * i.qty, 0);\n}');
  const diagnosis = a.assistant('Prices are summed as floats. Rounding each line before summing fixes the off-by-one-cent totals.');
  a.label(diagnosis, 'diagnosis');
  a.user('Fix it with integer cents instead.');
  a.assistant('Switching to integer cents.', [{ name: 'edit', args: { path: 'src/cart/totals.ts', oldText: 'i.price', newText: 'i.priceCents' } }]);
  a.toolResult('edit', 'Applied 1 edit to src/cart/totals.ts');
  a.assistant('Done: totals are computed in integer cents; all 48 tests pass.');
  // The user went back and tried rounding instead, leaving a summary of the first attempt.
  a.branchSummary(diagnosis, 'Tried integer cents: works, but touches every price in the catalogue.');
  a.user('Actually, just round each line to cents before summing.');
  a.assistant('Rounded each line item; the cart in the bug report now totals $41.30.', [{ name: 'bash', args: { command: 'npm test -- cart' } }]);
  a.toolResult('bash', 'PASS test/cart.test.ts (48 tests)');
  a.assistant('Tests pass. The change is two lines in src/cart/totals.ts.');
  a.name('Checkout: fix rounding in totals');
  void ask;
  const parent = a.write(root);
  files.push(parent);

  const b = new DemoSession('019a0002-0000-7000-8000-00000000d002', shop, nowMs - 20 * DAY);
  b.user('Add a health endpoint that reports the database status.');
  b.assistant('Added GET /health returning {db: "ok"|"down"} with a 500 ms timeout.', [{ name: 'write', args: { path: 'src/routes/health.ts' } }]);
  b.toolResult('write', 'Wrote src/routes/health.ts (31 lines)');
  b.assistant('The endpoint is registered in src/server.ts.');
  files.push(b.write(root));

  const c = new DemoSession('019a0003-0000-7000-8000-00000000d003', shop, nowMs - 30 * 60_000, parent);
  c.user('The checkout total is off by a cent for some carts. Can you find out why?');
  c.assistant('(forked) Continuing from the diagnosis: prices are summed as floats.');
  c.user('Write a regression test for the 41.30 cart.');
  c.assistant('Added test/cart-rounding.test.ts with the cart from the bug report.');
  files.push(c.write(root));

  const d = new DemoSession('019a0004-0000-7000-8000-00000000d004', api, nowMs - 6 * DAY);
  const first = d.user('Why is the nightly invoice job slow?');
  d.assistant('Looking at the job first.', [{ name: 'bash', args: { command: 'rg -n "for (const invoice" src/jobs' } }]);
  d.toolResult('bash', 'src/jobs/nightly.ts:42:  for (const invoice of invoices) {');
  d.assistant('It runs one query per invoice (N+1). Batching them cuts the job from 40 minutes to 3.');
  d.compaction('The nightly job issues one query per invoice; the fix is to batch by customer.', first);
  d.user('Batch them by customer, 500 at a time.');
  d.assistant('Done. The job now takes 2m58s on the staging data.');
  d.label(first, 'perf');
  d.name('Billing: nightly job N+1');
  files.push(d.write(root));

  const e = new DemoSession('019a0005-0000-7000-8000-00000000d005', api, nowMs - 90 * DAY);
  e.user('Draft a migration that adds a currency column to invoices.');
  files.push(e.write(root));

  const f = new DemoSession('019a0006-0000-7000-8000-00000000d006', notes, nowMs - 3 * HOUR);
  f.user('Summarise my notes on the Q3 planning meeting in five bullet points.');
  f.assistant('• Ship multi-currency by October\n• Hire two engineers\n• Retire the v1 API\n• Quarterly security review\n• Move CI to the new runners');
  files.push(f.write(root));

  return { mainCwd: shop, files };
}
