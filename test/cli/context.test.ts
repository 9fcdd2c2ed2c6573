/**
 * `context --json`: `messages` are exactly pi's messages (canonically equal to what pi 1.6.0's
 * SessionManager builds, on the whole corpus), provenance lives in `sources`, and on files with a
 * compaction checkpoint the format's rule and `--as-pi` are both right.
 */
import { describe, expect, it } from 'vitest';
import { contextJson } from '../../src/cli/commands.js';
import type { JsonObject, MessageSource } from '../../src/store/index.js';
import { readSessionSync } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';
import { canonicalJson, goldenCases } from '../helpers/corpus.js';
import { openWithPi, piContextAt } from '../helpers/pi.js';
import { describeMessage, RETAINED_EXPECTED, retainedPath } from '../helpers/retained.js';

interface ContextOut {
  rule: string;
  contextEntries: string[];
  messages: JsonObject[];
  sources: MessageSource[];
  droppedByPi: unknown;
}

/** What a script reading stdout gets (JSON drops undefined keys and turns NaN into null). */
function asPrinted(value: Record<string, unknown>): ContextOut {
  return JSON.parse(JSON.stringify(value)) as ContextOut;
}

describe('context --json messages equal pi 1.6.0 on the whole corpus', () => {
  const cases = goldenCases().filter((c) => !c.golden.error && !c.golden.generatedHeader);

  it('covers the corpus', () => {
    expect(cases.length).toBeGreaterThanOrEqual(55);
  });

  for (const c of cases) {
    it(`${c.corpus}: ${c.folder}/${c.file}`, async () => {
      const read = readSessionSync(c.sessionPath);
      expect(read.ok).toBe(true);
      if (!read.ok) return;
      const pi = await openWithPi(c.sessionPath);
      const piMessages = pi.manager.buildSessionContext().messages.map(canonicalJson);
      for (const asPi of [false, true]) {
        const out = asPrinted(contextJson(read, undefined, { asPi }));
        expect(out.messages.map(canonicalJson)).toEqual(piMessages);
        expect(out.sources).toHaveLength(out.messages.length);
        expect(out.droppedByPi).toBeNull();
      }
    });
  }
});

describe('context on a compaction checkpoint, through the built CLI', () => {
  const file = 'no-first-kept.jsonl';
  const expected = RETAINED_EXPECTED[file]!.contexts[0]!;

  it('follows the format by default and says pi 1.6.0 drops the retained messages', () => {
    const run = runCli(['context', retainedPath(file), '--json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as ContextOut;
    expect(out.rule).toBe('format');
    expect(out.contextEntries).toEqual(expected.format.contextEntries);
    expect(out.messages.map((m, i) => describeMessage(m, out.sources[i]!))).toEqual(expected.format.messages);
    expect(out.sources[1]).toEqual({ retainedBy: 'a0000005', index: 0 });
    expect(out.droppedByPi).toEqual(expected.droppedByPi);
    for (const message of out.messages) expect(Object.keys(message)).not.toContain('src');
  });

  it('--as-pi prints exactly what the real pi 1.6.0 builds', async () => {
    const run = runCli(['context', retainedPath(file), '--json', '--as-pi']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as ContextOut;
    expect(out.rule).toBe('pi-1.6.0');
    expect(out.contextEntries).toEqual(expected.pi.contextEntries);
    const pi = await openWithPi(retainedPath(file));
    const piMessages = await piContextAt(pi.manager, expected.leaf);
    expect(out.messages.map(canonicalJson)).toEqual(piMessages.map(canonicalJson));
    expect(out.droppedByPi).toEqual(expected.droppedByPi);
  });
});
