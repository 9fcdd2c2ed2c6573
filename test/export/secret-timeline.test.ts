/**
 * A long scan keeps nothing in the global performance timeline: secretlint's core marks it around
 * every rule of every lint call, and its profiler keeps each mark and measure in arrays of its own
 * (src/store/export/secret-rules.ts gives it a timeline that keeps nothing). Hundreds of scans,
 * each one lint call, leave the timeline and the profiler's arrays as they were.
 */
import { performance } from 'node:perf_hooks';
import { secretLintProfiler } from '@secretlint/profiler';
import { describe, expect, it } from 'vitest';
import { type SessionEntry, scanEntries } from '../../src/store/index.js';
import { fakeSecrets } from '../helpers/fake-secrets.js';

/** What the profiler holds (private in its types, plain fields at run time). */
const held = secretLintProfiler as unknown as { entries: unknown[]; measures: unknown[]; executionPromises: unknown[] };

/** Past the performance observer's dispatch (a setImmediate) and the profiler's measures after it. */
async function settled(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

function entry(id: string, text: string): { entry: SessionEntry; line: number } {
  return {
    entry: { type: 'message', id, parentId: null, message: { role: 'user', content: text, timestamp: 1 } },
    line: 2,
  };
}

describe('the secret scan and the performance timeline', () => {
  it('300 scans leave no mark or measure, in the timeline or in secretlint’s profiler', async () => {
    const secrets = fakeSecrets();
    // The first scan loads secretlint (and its rules' setup); what follows must add nothing.
    await scanEntries([entry('e0', secrets[0]!.text)]);
    await settled();
    const before = performance.getEntries().length;
    for (let i = 0; i < 300; i++) {
      const { text, kind } = secrets[i % secrets.length]!;
      const scan = await scanEntries([entry(`e${i}`, `scan ${i}: ${text}`)]);
      expect(scan.findings.map((f) => f.kind)).toEqual([kind]);
      if (i % 50 === 0) await settled();
    }
    await settled();
    expect(performance.getEntries().length).toBe(before);
    expect(performance.getEntriesByType('mark').filter((m) => m.name.includes('@core>'))).toEqual([]);
    expect([held.entries.length, held.measures.length, held.executionPromises.length]).toEqual([0, 0, 0]);
  });
});
