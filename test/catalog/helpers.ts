/** Stores for the catalogue tests: copies of both corpora (broken files included) in a temp dir. */
import { appendFileSync, cpSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { listSessionsCached } from '../../src/catalog/index.js';
import {
  countingIo,
  type ListScope,
  type Locations,
  listSessions,
  resolveLocations,
  type SessionInfo,
} from '../../src/store/index.js';
import { FIXTURES } from '../helpers/corpus.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';

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

/** A warm-or-cold cached listing of the whole store, with the bytes it read and plain rows. */
export async function cached(store: TestStore, extra: Partial<Parameters<typeof listSessionsCached>[1]> = {}) {
  const counter = { bytes: 0 };
  const result = await listSessionsCached(store.locations, {
    scope: 'all',
    cacheDir: store.cacheDir,
    io: countingIo(counter),
    ...extra,
  });
  const saved = await result.saved;
  return { result, saved, bytes: counter.bytes, sessions: result.sessions.map(plain) };
}

/** A store with one big session (tool output) to append to, besides the corpora. */
export function storeWithBigSession(): { store: TestStore; big: string; builder: SessionBuilder } {
  const store = corpusStore();
  const builder = new SessionBuilder({ id: '019b1111-0000-7000-8000-000000000001', cwd: '/home/test/big' });
  builder.user('start the big job');
  for (let i = 0; i < 60; i++) {
    builder.assistant(`step ${i}`, { model: 'claude-x', tokens: 10, cost: 0.01 });
    builder.toolResult('bash', 'x'.repeat(4000));
  }
  const big = builder.writeTo(
    join(store.root, '--home-test-big--', '2026-01-05T09-00-00-000Z_019b1111-0000-7000-8000-000000000001.jsonl'),
  );
  age(big);
  store.files.push(big);
  return { store, big, builder };
}
