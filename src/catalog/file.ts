/**
 * Loading and writing the catalogue file (format.ts). It is a cache: anything wrong with it
 * (missing, truncated, corrupt, another version, unreadable, unwritable) makes `loadCatalogue`
 * return undefined or `writeCatalogue` resolve false, and the listing simply reads the session
 * files. Nothing here ever throws at the caller for a bad cache.
 *
 * Concurrency: a writer fills a temp file of its own in the same folder and renames it over the
 * catalogue, so a reader sees either the old or the new file, whole. Two processes writing at
 * once both succeed and the last rename wins; nothing is ever written in place. A reader keeps its
 * descriptor open while it may still read text, so a replaced file stays readable for it (POSIX).
 * A full disk or a file-size limit fails the temp file only: it is removed and the old catalogue
 * stays as it was.
 *
 * Privacy: the catalogue holds the text of every session, so its folder is 0700 (tightened if an
 * older version or the user made it wider) and its files 0600, whatever the umask.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, readSync } from 'node:fs';
import { chmod, mkdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { removeStaleTemps, writeFully } from '../store/fs-write.js';
import { openRegular, openRegularSync } from '../store/regular-file.js';
import { waitWhilePaused, type PauseFn } from '../store/list.js';
import { summarizeFileSync } from '../store/summary.js';
import type { NotASession, SessionInfo } from '../store/types.js';
import { asciiJson, CATALOGUE_FORMAT, CATALOGUE_VERSION, fromSessionRecord, parseHeader, searchTextPieces, unpackMainTexts, type CatalogueHeader, type CatalogueRecord, type MainTexts } from './format.js';
import type { ResumePoint } from './incremental.js';

/** `$XDG_CACHE_HOME/pi-sessions`, else `~/.cache/pi-sessions` (a relative XDG value is ignored, per the spec). */
export function catalogueDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'pi-sessions');
}

/** One catalogue per sessions root, so a test store or a custom dir never mixes with the main one. */
export function catalogueFile(dir: string, root: string): string {
  return join(dir, `catalogue-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.bin`);
}

const HEADER_PROBE = 4096;
/** Pieces are written in batches of about this size (bounded memory, event-loop turns between). */
const WRITE_BATCH = 4 * 1024 * 1024;

const NO_TEXTS: MainTexts = { allMessagesText: '', toolTargets: '' };

/** The two lazy reads of a handed-out row: its message text and targets, and its tool output. */
type LazyPart = 'main' | 'output';

/** A loaded catalogue: its records, and per-session text read on demand from the open file. */
export class Catalogue {
  readonly records: Map<string, CatalogueRecord>;
  private fd: number | undefined;
  private readonly textBase: number;
  private readonly resumeBase: number;
  /** Lazy reads handed out and not done yet (two per row), plus writers copying from this file. */
  private pending = 0;
  private holds = 0;
  /** Rows handed out, by path (plain Map and Set: weak collections measurably slow the GC here). */
  private readonly infos = new Map<string, SessionInfo | NotASession>();
  /** Bytes read from the file after loading (tests: a plain search must not read the tool output). */
  bytesRead = 0;
  /** Handed-out rows whose main text, and whose tool output, were not read yet (by path). */
  private readonly unread: Record<LazyPart, Set<string>> = { main: new Set(), output: new Set() };

  constructor(fd: number, header: CatalogueHeader, headerBytes: number, records: CatalogueRecord[]) {
    this.fd = fd;
    this.textBase = headerBytes + header.meta;
    this.resumeBase = this.textBase + header.text;
    this.records = new Map(records.map((r) => [r.p, r]));
  }

  /**
   * The row of a record (one object per path, so the picker's per-object text preparation is kept
   * across publishes). The text is a lazy property: reading it reads that session's bytes.
   */
  info(record: CatalogueRecord): SessionInfo | NotASession {
    const known = this.infos.get(record.p);
    if (known) return known;
    let out: SessionInfo | NotASession;
    if (record.s) {
      const [offset, length, main] = record.t ?? [0, 0, 0];
      const info = fromSessionRecord(record.p, record.z, record.m, record.s, {
        main: (self) => {
          const texts = this.readMain(self, offset, main);
          this.settle(self, 'main');
          return texts;
        },
        output: (self) => {
          const output = this.readOutput(self, offset + main, length - main);
          this.settle(self, 'output');
          return output;
        },
      });
      this.unread.main.add(record.p);
      this.unread.output.add(record.p);
      this.pending += 2;
      out = info;
    } else {
      out = { ok: false, path: record.p, reason: record.x?.reason ?? 'unreadable', message: record.x?.message ?? '' };
    }
    this.infos.set(record.p, out);
    return out;
  }

  /** The byte range of a session's text in this file, if the row came from it. */
  originOf(info: SessionInfo): [number, number, number] | undefined {
    // Only the very object handed out: a row with the same path may hold newer text.
    return this.infos.get(info.path) === info ? this.records.get(info.path)?.t : undefined;
  }

  /** A row that will never be shown or written: its text will not be read. */
  discard(info: SessionInfo | NotASession): void {
    if (!('ok' in info)) {
      this.settle(info, 'main');
      this.settle(info, 'output');
    }
  }

  resumePoint(record: CatalogueRecord): ResumePoint | undefined {
    if (!record.r || this.fd === undefined) return undefined;
    try {
      return JSON.parse(this.bytes(this.resumeBase + record.r[0], record.r[1]).toString('utf8')) as ResumePoint;
    } catch {
      return undefined;
    }
  }

  /** Reads `length` bytes of the text section from `offset` (writers copying unchanged text). */
  textBytes(offset: number, length: number): Buffer {
    return this.bytes(this.textBase + offset, length);
  }

  /** Reads `length` bytes of the resume section from `offset` (writers copying unchanged points). */
  resumeBytes(offset: number, length: number): Buffer {
    return this.bytes(this.resumeBase + offset, length);
  }

  hold(): void {
    this.holds++;
  }

  release(): void {
    this.holds--;
    this.maybeClose();
  }

  private settle(info: SessionInfo, part: LazyPart): void {
    if (this.infos.get(info.path) !== info || !this.unread[part].delete(info.path)) return;
    this.pending--;
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.pending > 0 || this.holds > 0 || this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private bytes(position: number, length: number): Buffer {
    if (this.fd === undefined) throw new Error('catalogue closed');
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, got, length - got, position + got);
      if (n === 0) throw new Error('catalogue truncated');
      got += n;
    }
    this.bytesRead += length;
    return buf;
  }

  private readMain(info: SessionInfo, offset: number, length: number): MainTexts {
    try {
      return length === 0 ? NO_TEXTS : unpackMainTexts(this.bytes(this.textBase + offset, length).toString('utf8'));
    } catch {
      // The open file cannot fail us in practice; if it does, the session file still has the texts.
      const fresh = summarizeFileSync(info.path);
      return 'ok' in fresh ? NO_TEXTS : fresh;
    }
  }

  private readOutput(info: SessionInfo, offset: number, length: number): string {
    try {
      return length === 0 ? '' : this.bytes(this.textBase + offset, length).toString('utf8');
    } catch {
      const fresh = summarizeFileSync(info.path);
      return 'ok' in fresh ? '' : fresh.toolOutputText;
    }
  }
}

/** Loads the catalogue for `root`, or undefined when there is none or it cannot be trusted. */
export function loadCatalogue(file: string, root: string): Catalogue | undefined {
  let fd: number;
  try {
    // Only a regular file: a FIFO in its place would block every listing (it is ignored instead).
    fd = openRegularSync(file).fd;
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const probe = Buffer.allocUnsafe(Math.min(HEADER_PROBE, size));
    const n = readSync(fd, probe, 0, probe.length, 0);
    const nl = probe.subarray(0, n).indexOf(0x0a);
    if (nl === -1) throw new Error('no header');
    const header = parseHeader(probe.toString('utf8', 0, nl), root);
    const headerBytes = nl + 1;
    if (!header || headerBytes + header.meta + header.text + header.resume !== size) throw new Error('bad header or truncated');
    const meta = Buffer.allocUnsafe(header.meta);
    let got = 0;
    while (got < meta.length) {
      const r = readSync(fd, meta, got, meta.length - got, headerBytes + got);
      if (r === 0) throw new Error('truncated');
      got += r;
    }
    const records = JSON.parse(meta.toString('latin1')) as unknown;
    if (!Array.isArray(records)) throw new Error('bad meta');
    for (const r of records as CatalogueRecord[]) {
      if (typeof r !== 'object' || r === null || typeof r.p !== 'string' || typeof r.z !== 'number' || typeof r.m !== 'number' || typeof r.i !== 'number' || (!r.s && !r.x)) {
        throw new Error('bad record');
      }
    }
    return new Catalogue(fd, header, headerBytes, records as CatalogueRecord[]);
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** What to write for one file: its record (offsets are filled in here) and where its data is. */
export interface PlannedRecord {
  record: CatalogueRecord;
  /** A session's text: its row (the text is copied from `source` when it came from there), or its range in `source` (as `CatalogueRecord.t`). */
  text?: SessionInfo | [number, number, number];
  /** A fresh resume point, or the byte range of the old one in `source`. */
  resume?: ResumePoint | [number, number];
}

/** Bytes copied from the source catalogue, or strings written one after the other. */
type Piece = { copy: [number, number] } | { parts: string[]; bytes: number };

/** Lays out one section: coalesces byte ranges that follow each other in the source. */
function layout(pieces: Piece[]): { ranges: [number, number][]; total: number; merged: Piece[] } {
  const ranges: [number, number][] = [];
  const merged: Piece[] = [];
  let total = 0;
  for (const piece of pieces) {
    const length = 'copy' in piece ? piece.copy[1] : piece.bytes;
    ranges.push([total, length]);
    total += length;
    const last = merged[merged.length - 1];
    if ('copy' in piece && last && 'copy' in last && last.copy[0] + last.copy[1] === piece.copy[0]) last.copy = [last.copy[0], last.copy[1] + piece.copy[1]];
    else merged.push('copy' in piece ? { copy: [...piece.copy] } : piece);
  }
  return { ranges, total, merged };
}

/**
 * Writes a new catalogue atomically (temp file + rename). `source` is the catalogue the plan was
 * made from: unchanged text and resume points are copied from it as bytes. Resolves false (never
 * rejects) when it cannot be written.
 */
export async function writeCatalogue(file: string, root: string, plan: PlannedRecord[], source?: Catalogue, pause?: PauseFn): Promise<boolean> {
  const dir = join(file, '..');
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  source?.hold();
  try {
    await privateDir(dir);
    const textPieces: Piece[] = [];
    const resumePieces: Piece[] = [];
    /** Each text piece's owner, and the length of its packed main texts (the tool output follows). */
    const textOwners: { record: CatalogueRecord; main: number }[] = [];
    const resumeOwners: CatalogueRecord[] = [];
    for (const { record, text, resume } of plan) {
      delete record.t;
      delete record.r;
      if (text) {
        const origin = Array.isArray(text) ? text : source?.originOf(text);
        if (origin) {
          textPieces.push({ copy: [origin[0], origin[1]] });
          textOwners.push({ record, main: origin[2] });
        } else if (!Array.isArray(text)) {
          // byteLength of each flat string: no packed copy of the text is ever made.
          const parts = searchTextPieces(text);
          const lengths = parts.map((part) => Buffer.byteLength(part));
          textPieces.push({ parts, bytes: lengths.reduce((sum, n) => sum + n, 0) });
          textOwners.push({ record, main: lengths[0]! + lengths[1]! + lengths[2]! });
        }
      }
      if (resume) {
        if (Array.isArray(resume)) resumePieces.push({ copy: resume });
        else {
          const json = JSON.stringify(resume);
          resumePieces.push({ parts: [json], bytes: Buffer.byteLength(json) });
        }
        resumeOwners.push(record);
      }
    }
    // The serialising below and each batch of copied bytes are synchronous: stand aside for keys first.
    await waitWhilePaused(pause);
    const text = layout(textPieces);
    const resumes = layout(resumePieces);
    textOwners.forEach(({ record, main }, i) => (record.t = [...text.ranges[i]!, main]));
    resumeOwners.forEach((record, i) => (record.r = resumes.ranges[i]!));
    const meta = Buffer.from(asciiJson(plan.map((p) => p.record)), 'latin1');
    const header: CatalogueHeader = { format: CATALOGUE_FORMAT, version: CATALOGUE_VERSION, root, meta: meta.length, text: text.total, resume: resumes.total };
    const { handle } = await openRegular(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      await handle.chmod(0o600); // the open mode is already 0600; a umask can only narrow it
      await writeFully(handle, Buffer.from(`${JSON.stringify(header)}\n`), null);
      await writeFully(handle, meta, null);
      for (const [pieces, base] of [
        [text.merged, 'text'],
        [resumes.merged, 'resume'],
      ] as const) {
        let batch: Buffer[] = [];
        let batchBytes = 0;
        const flush = async (): Promise<void> => {
          if (batch.length > 0) await writeBatch(handle, batch);
          await waitWhilePaused(pause);
          batch = [];
          batchBytes = 0;
        };
        for (const piece of pieces) {
          if ('parts' in piece) {
            for (const part of piece.parts) if (part !== '') batch.push(Buffer.from(part));
            batchBytes += piece.bytes;
          } else {
            if (!source) throw new Error('copy without a source');
            // Big unchanged stretches are copied in bounded slices.
            for (let at = 0; at < piece.copy[1]; at += WRITE_BATCH) {
              const length = Math.min(WRITE_BATCH, piece.copy[1] - at);
              const bytes = base === 'text' ? source.textBytes(piece.copy[0] + at, length) : source.resumeBytes(piece.copy[0] + at, length);
              batch.push(bytes);
              batchBytes += length;
              if (batchBytes >= WRITE_BATCH) await flush();
            }
          }
          if (batchBytes >= WRITE_BATCH) await flush();
        }
        await flush();
      }
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    await removeStaleTemps(dir);
    return true;
  } catch {
    await unlink(temp).catch(() => undefined);
    return false;
  } finally {
    source?.release();
  }
}

/** Creates the catalogue folder 0700, or tightens an existing one that others can read. */
async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stats = await stat(dir);
  if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) await chmod(dir, stats.mode & 0o700);
}

/** `writev` may also write short: whatever it did not take is written again, until all is on disk. */
async function writeBatch(handle: FileHandle, batch: Buffer[]): Promise<void> {
  const total = batch.reduce((sum, b) => sum + b.length, 0);
  const { bytesWritten } = await handle.writev(batch);
  if (bytesWritten < total) await writeFully(handle, Buffer.concat(batch).subarray(bytesWritten), null);
}
