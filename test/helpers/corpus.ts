/** Paths and loaders for the committed corpus (`test/fixtures/`: pi-written sessions and pi's answers). */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
export const CORPORA = ['pi-written', 'generated'] as const;
export type Corpus = (typeof CORPORA)[number];

export interface GoldenCase {
  corpus: Corpus;
  folder: string;
  file: string;
  sessionPath: string;
  golden: Golden;
}

export interface Golden {
  error: string | null;
  change: string | null;
  idsFromMigration?: boolean;
  generatedHeader?: boolean;
  header?: Record<string, unknown>;
  diskVersion?: number;
  sessionId?: string;
  cwd?: string;
  sessionName: string | null;
  leafId: string | null;
  entryCount: number;
  entries: { id: string; parentId: string | null; type: string }[];
  tree: { roots: string[]; children: Record<string, string[]> };
  labels: Record<string, string>;
  labelTimestamps: Record<string, string>;
  branch: string[];
  contextEntries: string[];
  context: {
    model: { provider: string; modelId: string } | null;
    thinkingLevel: string;
    messages: { role: string; src: string; sha1: string; csha1: string }[];
  };
}

export function sessionsRoot(corpus: Corpus): string {
  return join(FIXTURES, corpus, 'sessions');
}

export function goldenCases(): GoldenCase[] {
  const cases: GoldenCase[] = [];
  for (const corpus of CORPORA) {
    const goldens = join(FIXTURES, corpus, 'goldens');
    for (const folder of readdirSync(goldens)) {
      if (folder === 'lists' || folder.endsWith('.json')) continue;
      for (const name of readdirSync(join(goldens, folder))) {
        const file = name.replace(/\.json$/, '.jsonl');
        cases.push({
          corpus,
          folder,
          file,
          sessionPath: join(sessionsRoot(corpus), folder, file),
          golden: JSON.parse(readFileSync(join(goldens, folder, name), 'utf8')) as Golden,
        });
      }
    }
  }
  return cases;
}

/** JSON with object keys sorted recursively (the goldens' `csha1`). */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const inner = (v as Record<string, unknown>)[key];
        if (inner !== undefined) out[key] = sort(inner);
      }
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
