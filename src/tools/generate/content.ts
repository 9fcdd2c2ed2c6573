/**
 * What the generated sessions talk about: project folders, prompts, answers, tool calls and tool
 * outputs of a requested size. Pure functions of the Rng, so content is as deterministic as the
 * structure.
 */
import type { Rng } from './random.js';

const HOMES = ['/home/dev', '/home/ana', '/Users/sam', '/home/rui', '/Users/dev/My Projects'];
const AREAS = ['code', 'work', 'src', 'projects'];
const NAMES = [
  'webshop',
  'billing-api',
  'data-pipeline',
  'notes-app',
  'ml-gateway',
  'stream-service',
  'auth-proxy',
  'docs-site',
  'mobile-client',
  'infra',
  'search-indexer',
  'cli-tools',
];

/** The cwd of project `index` (distinct for every index). */
export function projectCwd(index: number): string {
  const home = HOMES[index % HOMES.length]!;
  const name = NAMES[index % NAMES.length]!;
  const round = Math.floor(index / NAMES.length);
  return `${home}/${AREAS[index % AREAS.length]}/${name}${round > 0 ? `-${round + 1}` : ''}`;
}

const FILES = [
  'src/server.ts',
  'src/cart/totals.ts',
  'src/db/pool.ts',
  'src/jobs/nightly.ts',
  'src/auth/session.ts',
  'src/api/routes.ts',
  'src/ui/List.tsx',
  'test/cart.test.ts',
  'README.md',
  'package.json',
  'src/config.ts',
  'src/cache/lru.ts',
];
const TOPICS = [
  'the checkout total',
  'the nightly invoice job',
  'login redirects',
  'the search index',
  'flaky CI on main',
  'the cache eviction',
  'the config loader',
  'the config parser',
  'the CSV export',
  'the CSV parser',
  'rate limiting',
  'the migration to Postgres 16',
  'memory growth in the worker',
  'the date picker',
];
const ASKS = [
  'Why is {t} broken since yesterday?',
  'Can you look into {t}? Users report errors.',
  'Refactor {t} so it is easier to test.',
  'Add tests for {t}.',
  'Write a short design note about {t}.',
  'Make {t} twice as fast.',
  'Kannst du {t} prüfen? Es schlägt manchmal fehl.',
  '请帮我看看 {t} 的问题 🙏',
];
const FOLLOW_UPS = [
  'Go ahead.',
  'Use the smaller change.',
  'Also update the docs.',
  'Run the tests again.',
  'That broke the build, fix it.',
  'Looks good, commit it.',
  'Can you explain that diff?',
  'Try a different approach.',
];
const ANSWERS = [
  'The cause is in {f}: a value is read before it is initialised.',
  'I changed {f} and all tests pass.',
  'The slow part is an N+1 query; batching it fixes the slowdown.',
  'Done. The change is small and covered by a new test in test/.',
  'I could not reproduce it locally; the logs point at a timeout in {f}.',
  'Refactored {f} into two functions; behaviour is unchanged.',
];
const MODELS: readonly (readonly [string, string, string])[] = [
  ['anthropic', 'claude-sonnet-4-5', 'anthropic-messages'],
  ['anthropic', 'claude-opus-4-1', 'anthropic-messages'],
  ['openai', 'gpt-5', 'openai-responses'],
  ['google', 'gemini-2.5-pro', 'google-generative-ai'],
];
export const THINKING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high'] as const;

export interface Model {
  provider: string;
  modelId: string;
  api: string;
}

export function pickModel(rng: Rng): Model {
  const [provider, modelId, api] = rng.pick(MODELS);
  return { provider, modelId, api };
}

export function topic(rng: Rng): string {
  return rng.pick(TOPICS);
}

export function firstPrompt(rng: Rng, subject: string): string {
  return rng.pick(ASKS).replace('{t}', subject);
}

export function followUp(rng: Rng): string {
  return rng.pick(FOLLOW_UPS);
}

/** An answer of one to four sentences. */
export function answer(rng: Rng): string {
  return Array.from({ length: rng.int(1, 4) }, () => rng.pick(ANSWERS).replace('{f}', rng.pick(FILES))).join(' ');
}

const THOUGHTS = [
  'The failure only shows up when the cache is cold, so the order of initialisation matters here.',
  'Before changing anything I should check who else calls this function; the signature is exported.',
  'The test output points at a timeout rather than a wrong value, which suggests a missing await.',
  'A smaller change is to round at the boundary instead of changing every caller; that keeps the diff reviewable.',
  'The user asked for tests too, so after the fix I will add a case with the cart from the bug report.',
  'This file mixes parsing and I/O; splitting them would make the bug easy to test in isolation.',
  'The parser keeps a cache of compiled patterns; a stale entry there would explain the wrong match.',
];

/** A model's reasoning of two to eight sentences. */
export function thought(rng: Rng): string {
  return Array.from({ length: rng.int(2, 8) }, () => rng.pick(THOUGHTS)).join(' ');
}

export function sessionName(rng: Rng, subject: string): string {
  return `${rng.pick(['Fix', 'Investigate', 'Refactor', 'Speed up', 'Document'])} ${subject}`;
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export function toolCall(rng: Rng): ToolCall {
  const file = rng.pick(FILES);
  // Weighted like real sessions: mostly reading files and running commands.
  const roll = rng.next();
  switch (roll < 0.4 ? 0 : roll < 0.7 ? 1 : roll < 0.85 ? 2 : roll < 0.93 ? 3 : 4) {
    case 0:
      return { name: 'read', arguments: { path: file } };
    case 1:
      return {
        name: 'bash',
        arguments: {
          command: rng.pick([
            'npm test',
            'git status --short',
            `rg -n "TODO" src`,
            'npm run build',
            'git log --oneline -20',
          ]),
        },
      };
    case 2:
      return {
        name: 'edit',
        arguments: { path: file, oldText: 'const value = load();', newText: 'const value = await load();' },
      };
    case 3:
      return { name: 'grep', arguments: { pattern: 'export function', path: 'src' } };
    default:
      return { name: 'write', arguments: { path: file, content: 'export {};\n' } };
  }
}

const CODE_LINES = [
  'export function total(items: Item[]): number {',
  '  return items.reduce((sum, item) => sum + item.priceCents * item.qty, 0);',
  '}',
  "import { createPool } from './db/pool.js';",
  'const cache = new Map<string, Entry>();',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of sample TypeScript for generated sessions; the ${id} is that code's own template placeholder, kept as text
  '  if (!session) throw new Error(`no session ${id}`);',
  '  for (const invoice of invoices) await send(invoice);',
  '// Retries once: the upstream drops the first request after a deploy.',
];
const LOG_LINES = [
  ' ✓ test/cart.test.ts (48 tests) 312ms',
  ' × server > rejects an invalid route',
  '\u001b[32mPASS\u001b[39m src/db/pool.test.ts',
  'src/api/routes.ts:42:7 - error TS2345: Argument of type string is not assignable',
  'warning: 3 packages are looking for funding',
  ' M src/server.ts',
  '7f3a9c1 fix(cart): round each line before summing',
];

/** A tool's text output of about `bytes` bytes (file contents for read, logs otherwise). */
export function toolOutput(rng: Rng, tool: string, bytes: number): string {
  if (tool === 'edit') return `Successfully replaced text in ${rng.pick(FILES)}.`;
  if (tool === 'write') return `Successfully wrote ${rng.int(1, 400)} lines to ${rng.pick(FILES)}.`;
  const source = tool === 'read' ? CODE_LINES : LOG_LINES;
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = rng.pick(source);
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}
