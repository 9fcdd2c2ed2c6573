/** Stores for the catalogue tests: copies of both corpora (broken files included) in a temp dir. */
import { appendFileSync, cpSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ListScope,
  type Locations,
  listSessions,
  resolveLocations,
  type SessionInfo,
} from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { tempDir } from '../helpers/factory.js';

export interface TestStore {
  agentDir: string;
  root: string;
  cacheDir: string;
  locations: Locations;
  files: string[];
}

/** Every file of a store, moved an hour into the past (fresh mtimes are "racy" and never trusted). */
export function ageAll(root: string): string[] {
  const files: string[] = [];
  for (const dir of readdirSync(root)) {
    for (const name of readdirSync(join(root, dir))) {
      const path = join(root, dir, name);
      if (!statSync(path).isFile()) continue;
      age(path);
      files.push(path);
    }
  }
  return files;
}

let tick = 0;
/** Sets a distinct past mtime (an hour ago, plus a counter so two calls never give the same one). */
export function age(path: string): void {
  const when = (Date.now() - 3600_000 + tick++ * 7) / 1000;
  utimesSync(path, when, when);
}

export function corpusStore(): TestStore {
  const agentDir = tempDir('pi-sessions-catalog-');
  const root = join(agentDir, 'sessions');
  for (const corpus of ['pi-written', 'generated'])
    cpSync(join(FIXTURES, corpus, 'sessions'), root, { recursive: true });
  const files = ageAll(root);
  const locations = resolveLocations({ cwd: '/nonexistent', env: { PI_CODING_AGENT_DIR: agentDir } });
  return { agentDir, root, cacheDir: join(tempDir('pi-sessions-cache-'), 'pi-sessions'), locations, files };
}

/** The reference: a plain listing, with every row as a plain object. */
export async function freshList(locations: Locations, scope: ListScope = 'all') {
  const result = await listSessions(locations, { scope });
  return { sessions: result.sessions.map(plain), skipped: result.skipped };
}

/** A row as plain data (reads a lazy text), for deep equality. */
export function plain(info: SessionInfo): SessionInfo {
  return { ...info };
}

/** Appends lines the way pi does (one write per line) and moves the mtime on. */
export function appendLines(path: string, lines: object[]): number {
  let bytes = 0;
  for (const line of lines) {
    const text = `${JSON.stringify(line)}\n`;
    appendFileSync(path, text);
    bytes += Buffer.byteLength(text);
  }
  age(path);
  return bytes;
}
