/**
 * Sessions whose figures and dates cannot be real: usage of 1e308 (twice, so a sum overflows to
 * Infinity), a number beyond a double (1e400 in the file), numbers written as strings ("NaN",
 * "1e308"), negative counts, and entries dated in the year 10000, in -271821, before 2020 or not
 * at all. Each file also holds a user prompt, so it is listed like any session. They share a
 * project and a model with the pi-written corpus, so a project or model row they poisoned would show.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionBuilder } from './factory.js';

/** The pi-written corpus's project the bad sessions claim to belong to. */
export const POISON_CWD = '/home/dev/code/webshop';

/** A usage object with these figures (`cost` is `cost.total`). */
function usage(figures: Record<string, unknown>): Record<string, unknown> {
  const { cost, ...tokens } = figures;
  return { ...tokens, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
}

function assistant(b: SessionBuilder, figures: Record<string, unknown>, timestamp?: unknown): string {
  return b.entry('message', {
    ...(timestamp === undefined ? {} : { timestamp }),
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'answer' }],
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage: usage(figures),
      stopReason: 'stop',
    },
  });
}

const GOOD = { input: 60, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 100, cost: 0.25 };

export interface ImpossibleSession {
  /** File name inside the project folder. */
  name: string;
  text: string;
  /** How many values in it stats must leave out. */
  excluded: number;
}

/** The bad sessions; `withGood` adds one real assistant message to each (100 tokens, $0.25). */
export function impossibleSessions(withGood = false): ImpossibleSession[] {
  const make = (n: number, fill: (b: SessionBuilder) => number): ImpossibleSession => {
    const id = `019b0000-0000-7000-8000-00000000ba${String(n).padStart(2, '0')}`;
    // An hour apart: entries with the same id and time in two files would be one fork's copies.
    const b = new SessionBuilder({ id, cwd: POISON_CWD, startMs: Date.UTC(2026, 0, 20, 8 + n, 0, 0) });
    b.user(`poisoned session ${n}`);
    const excluded = fill(b);
    if (withGood) assistant(b, GOOD);
    return { name: `2026-01-20T${String(8 + n).padStart(2, '0')}-00-00-000Z_${id}.jsonl`, text: b.text(), excluded };
  };
  return [
    make(1, (b) => {
      const huge = {
        input: 1e308,
        output: 1e308,
        cacheRead: 1e308,
        cacheWrite: 1e308,
        totalTokens: 1e308,
        cost: 1e308,
      };
      assistant(b, huge);
      assistant(b, huge);
      b.entry('usage', { kind: 'cache_warm', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(huge) });
      // JSON.stringify cannot write 1e400; a hand-edited file can, and JSON.parse reads it as Infinity.
      b.raw(
        JSON.stringify({
          type: 'message',
          id: 'inf00001',
          parentId: b.leaf,
          timestamp: '2026-01-20T09:10:00.000Z',
          message: { role: 'assistant', content: [], provider: 'anthropic', model: 'claude-sonnet-4-5', usage: {} },
        }).replace('"usage":{}', '"usage":{"input":1e400,"totalTokens":-1e400,"cost":{"total":1e400}}'),
      );
      b.branchFrom('inf00001');
      return 18 + 3;
    }),
    make(2, (b) => {
      assistant(b, {
        input: 'NaN',
        output: '1e308',
        cacheRead: 'Infinity',
        cacheWrite: null,
        totalTokens: {},
        cost: 'lots',
      });
      return 6;
    }),
    make(3, (b) => {
      assistant(b, { input: -1_000_000, output: -5, cacheRead: 0, cacheWrite: 0, totalTokens: -1_000_005, cost: -100 });
      // Larger than any model could spend in one call.
      assistant(b, {
        input: 200_000_000,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 200_000_000,
        cost: 50_000,
      });
      return 7;
    }),
    make(4, (b) => {
      assistant(b, GOOD, '+010000-01-01T00:00:00.000Z');
      assistant(b, GOOD, '-271821-04-20T00:00:00.000Z');
      assistant(b, GOOD, '1999-12-31T23:59:59.000Z');
      assistant(b, GOOD, 'last Tuesday');
      assistant(b, GOOD, 8.64e15);
      return 5;
    }),
  ];
}

/** Writes the bad sessions into `<sessionsDir>/--home-dev-code-webshop--/`; returns their paths. */
export function writeImpossibleSessions(sessionsDir: string, withGood = false): string[] {
  const dir = join(sessionsDir, '--home-dev-code-webshop--');
  mkdirSync(dir, { recursive: true });
  return impossibleSessions(withGood).map(({ name, text }) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
}
