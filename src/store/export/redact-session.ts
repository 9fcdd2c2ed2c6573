/**
 * Redacting a session in the store, for good: like `slim`, never a rewrite in place. The redacted
 * copy is written beside the file (same header, same ids, every line without a secret byte for
 * byte as it was; in a line with one, only the secret replaced: redact-text.ts), the original goes
 * to the trash, and the copy takes its name. One `redact` journal record, so one undo puts the
 * original back (the copy to the trash). The original in the trash still holds the secrets until
 * the trash is emptied: every message says so.
 */
import { constants } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { describeFsError, StoreError } from '../errors.js';
import { fileStateOf, recordChange } from '../journal/file.js';
import { isAsWeLeftIt, type JournalNote, PATH_TEXT_MAX, preview } from '../journal/records.js';
import { readSessionFromBuffer } from '../read/read.js';
import { openSession, readWhole, realSessionPath } from '../read/session-file.js';
import { restoreSessions, type TrashFunction, trashSessions } from '../trash/trash.js';
import { buildTree } from '../tree.js';
import { createWhole, removeStaleTemps, tempPathFor } from '../write/fs-write.js';
import { redactLine } from './redact-text.js';
import { type SecretFinding, scanSession } from './secrets.js';

/** Said wherever a redaction is offered or done. */
export const TRASH_STILL_HOLDS =
  'the original, in the trash, still holds the secrets until the trash is emptied (and undo needs it there)';

export interface RedactionPlan {
  path: string;
  sessionId: string;
  findings: SecretFinding[];
  /** The redacted file's bytes (not written yet). */
  redacted: Buffer;
  /** Lines that change. */
  lines: number;
}

const NEWLINE = 0x0a;

/**
 * The file's bytes with the secrets replaced: only lines that hold one (as JSON writes it, or a
 * spelling with escapes) are decoded and changed; every other byte stays, invalid UTF-8 included.
 */
export function redactBytes(bytes: Buffer, secrets: ReadonlyMap<string, string>): { bytes: Buffer; lines: number } {
  const needles = [...secrets.keys()].map((s) => Buffer.from(JSON.stringify(s).slice(1, -1)));
  const escapes = [Buffer.from('\\u00'), Buffer.from('\\/')];
  const parts: Buffer[] = [];
  let changed = 0;
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    const line = bytes.subarray(start, end);
    const candidate = needles.some((n) => line.includes(n)) || escapes.some((e) => line.includes(e));
    const text = candidate ? line.toString('utf8') : '';
    const redacted = candidate ? redactLine(text, secrets) : text;
    if (candidate && redacted !== text) {
      parts.push(Buffer.from(redacted));
      changed++;
    } else parts.push(line);
    if (newline >= 0) parts.push(bytes.subarray(newline, newline + 1));
    start = end + 1;
  }
  return { bytes: changed === 0 ? bytes : Buffer.concat(parts), lines: changed };
}

async function readAll(real: string): Promise<{ bytes: Buffer; before: import('node:fs').Stats }> {
  const { handle, stats } = await openSession(real, constants.O_RDONLY);
  try {
    return { bytes: await readWhole(handle, real, stats.size), before: stats };
  } finally {
    await handle.close();
  }
}

/** What redacting `path` would change, without writing. Refused when no secret is found. */
export async function planRedaction(path: string): Promise<RedactionPlan> {
  const real = await realSessionPath(resolve(path));
  const { bytes } = await readAll(real);
  return planFor(real, bytes);
}

async function planFor(real: string, bytes: Buffer): Promise<RedactionPlan> {
  const session = readSessionFromBuffer(real, bytes);
  if (!session.ok) throw new StoreError('not-a-session', `cannot redact ${real}: ${session.message}`);
  const { findings, secrets } = await scanSession(session);
  if (findings.length === 0) throw new StoreError('no-entry', `${real}: nothing to redact: no secret found`);
  const { bytes: redacted, lines } = redactBytes(bytes, secrets);
  return { path: real, sessionId: session.header.id, findings, redacted, lines };
}

export interface RedactionResult {
  path: string;
  findings: SecretFinding[];
  lines: number;
  sizeBefore: number;
  sizeAfter: number;
  changeId?: string;
  journalWarning?: string;
}

/** Redacts every secret found in `path` (see the header); `trash` replaces the system trash (tests). */
export async function redactSession(
  path: string,
  options: { trash?: TrashFunction; note?: JournalNote } = {},
): Promise<RedactionResult> {
  const real = await realSessionPath(resolve(path));
  const { bytes, before } = await readAll(real);
  const plan = await planFor(real, bytes);
  await removeStaleTemps(dirname(real));
  const copy = tempPathFor(real);
  await createWhole(copy, [plan.redacted], before);
  const dropCopy = async (why: string): Promise<never> => {
    await unlink(copy).catch(() => undefined);
    throw new StoreError('write-failed', `${why}; nothing changed`);
  };
  // pi may have appended while the copy was written: its new entries would be in the trash only.
  const now = await stat(real).catch(() => undefined);
  if (!now || !isAsWeLeftIt(fileStateOf(before), now))
    await dropCopy(`cannot redact ${real}: it changed while it was being copied (pi is writing to it?)`);
  const outcome = await trashSessions([real], { journal: false, ...(options.trash ? { trash: options.trash } : {}) });
  const failure = outcome.failed[0];
  if (failure) {
    if (failure.kept === false)
      throw new StoreError('write-failed', `${real}: ${failure.error}; its redacted copy is kept at ${copy}`);
    await dropCopy(`cannot redact ${real}: ${failure.error}`);
  }
  const trashed = outcome.trashed[0]!;
  try {
    await rename(copy, real);
  } catch (error) {
    const back = await restoreSessions([trashed]);
    await unlink(copy).catch(() => undefined);
    throw new StoreError(
      'write-failed',
      back.failed.length === 0
        ? `cannot redact ${real}: ${describeFsError(error)}; nothing changed`
        : `cannot redact ${real}: ${describeFsError(error)}; the original is in the trash (${trashed.trashedPath ?? 'see the trash'})`,
    );
  }
  const after = await stat(real);
  const session = readSessionFromBuffer(real, plan.redacted);
  const tree = session.ok ? buildTree(session) : undefined;
  const title = tree?.sessionName;
  const cwd = session.ok && typeof session.header.cwd === 'string' ? session.header.cwd : undefined;
  const recorded = await recordChange({
    kind: 'redact',
    path: real,
    time: new Date().toISOString(),
    after: fileStateOf(after),
    trashedPath: trashed.trashedPath ?? null,
    infoPath: trashed.infoPath ?? null,
    ...(trashed.trash ? { trash: trashed.trash } : {}),
    sizeBefore: before.size,
    secrets: plan.findings.length,
    sessionId: plan.sessionId,
    ...(title !== undefined ? { title: preview(title) } : {}),
    ...(cwd !== undefined && cwd.length <= PATH_TEXT_MAX ? { cwd } : {}),
    ...options.note,
  });
  return {
    path: real,
    findings: plan.findings,
    lines: plan.lines,
    sizeBefore: before.size,
    sizeAfter: after.size,
    changeId: recorded.id,
    ...(recorded.warning ? { journalWarning: recorded.warning } : {}),
  };
}
