/** The hand-made retained-tail fixtures (test/fixtures/retained) and their hand-checked contexts. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, MessageSource } from '../../src/store/index.js';
import { REPO_ROOT } from './corpus.js';

export const RETAINED_DIR = join(REPO_ROOT, 'test', 'fixtures', 'retained');

export interface ExpectedContext {
  leaf: string;
  format: { contextEntries: string[]; messages: string[] };
  pi: { contextEntries: string[]; messages: string[] };
  droppedByPi: Record<string, unknown> | null;
}

export const RETAINED_EXPECTED = JSON.parse(readFileSync(join(RETAINED_DIR, 'expected.json'), 'utf8')) as Record<
  string,
  { contexts: ExpectedContext[] }
>;

export const RETAINED_FILES = Object.keys(RETAINED_EXPECTED);

export function retainedPath(file: string): string {
  return join(RETAINED_DIR, file);
}

function text(message: JsonObject): string {
  if (typeof message['summary'] === 'string') return message['summary'];
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: unknown) =>
      b !== null && typeof b === 'object' && typeof (b as JsonObject)['text'] === 'string'
        ? (b as JsonObject)['text']
        : '',
    )
    .join('');
}

/** `<source> <role>: <text>`, the form expected.json writes a message in. */
export function describeMessage(message: JsonObject, source: MessageSource): string {
  const from = 'entryId' in source ? source.entryId : `${source.retainedBy}[${source.index}]`;
  return `${from} ${String(message['role'])}: ${text(message)}`;
}
