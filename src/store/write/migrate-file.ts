/** Rewriting a v1/v2 session file as v3 on disk (session-format.md §6), all or nothing. */
import { constants, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { StoreError } from '../errors.js';
import { CURRENT_VERSION, migrateInMemory } from '../read/migrate.js';
import { SessionCollector } from '../read/read.js';
import { scanBuffer } from '../read/scan.js';
import { openSession, readWhole, realSessionPath } from '../read/session-file.js';
import { describeTooLarge } from '../read/too-large.js';
import { removeStaleTemps, replaceAtomically } from './fs-write.js';

/**
 * Rewrites a v1/v2 file as v3 exactly like pi's migration (same ids we show), atomically (temp file
 * in the same folder, with the file's mode, fsync, rename), keeping every line pi would drop. A
 * symlink is followed: the real file is migrated, the link stays a link. A no-op for v3 files.
 */
export async function migrateFileAtomically(path: string): Promise<boolean> {
  const real = await realSessionPath(path);
  await removeStaleTemps(dirname(real));
  const { handle, stats: before } = await openSession(real, constants.O_RDONLY);
  let bytes: Buffer;
  try {
    bytes = await readWhole(handle, real, before.size);
  } finally {
    await handle.close();
  }
  const migrated = migratedText(bytes, real);
  if (migrated === bytes) return false;
  const unchanged = (now: Stats): boolean =>
    now.dev === before.dev && now.ino === before.ino && now.size === bytes.length && now.mtimeMs === before.mtimeMs;
  await replaceAtomically(real, before, migrated, unchanged, 'migrate');
  return true;
}

/**
 * The v3 text of a v1/v2 file exactly like pi's migration (the ids we show), keeping every line pi
 * would drop; `bytes` itself when the file is v3 already. Throws for a file that is not a session.
 */
export function migratedText(bytes: Buffer, path: string): Buffer {
  const collector = new SessionCollector({ keepLines: true });
  scanBuffer(bytes, collector.scanOptions());
  const header = collector.objects[0];
  if (header?.['type'] !== 'session' || typeof header['id'] !== 'string') {
    throw new StoreError('not-a-session', `${path}: refusing to migrate: not a pi session`);
  }
  const diskVersion = typeof header['version'] === 'number' ? header['version'] : 1;
  if (diskVersion >= CURRENT_VERSION) return bytes;
  refuseTooLargeMigration(path, collector.tooLargeLines[0]);
  migrateInMemory(collector.objects, collector.lines, diskVersion, []);
  const out: string[] = [];
  for (const line of collector.physical!) {
    if ('raw' in line) out.push(`${line.raw.toString('utf8')}\n`);
    else
      for (let i = line.first; i < line.first + line.count; i++) out.push(`${JSON.stringify(collector.objects[i])}\n`);
  }
  return Buffer.from(out.join(''));
}

/**
 * A v1/v2 file is rewritten whole, each line parsed and written again: a line too long to hold
 * cannot be, so the change is refused rather than made with that line cut.
 */
export function refuseTooLargeMigration(path: string, line: { line: number; bytes: number } | undefined): void {
  if (line === undefined) return;
  throw new StoreError(
    'too-large',
    `${path}: cannot rewrite this v1/v2 session as v3 (pi-sessions does before a change): ${describeTooLarge(line)}: too large to read whole`,
  );
}
