/**
 * Writing the catalogue file (format.ts) as the listing goes: `CatalogueSink`.
 *
 * A cold listing reads every session, and what it learns of each (its search texts, its resume
 * point) used to stay in memory until the whole catalogue was written at the end: on 10,000
 * sessions that was most of the program's peak memory. The sink appends each fresh session's
 * bytes to the temp file as soon as the session is read, so the listing keeps only what the rows
 * need; a row's tool output, which only `out:` reads, is read back from the file on demand
 * (`readText`). At the end, `finish` copies the unchanged sessions' bytes from the old catalogue,
 * writes the metadata and the header, and renames the temp file over the catalogue.
 *
 * It is a cache, so nothing here throws at the caller: a write that fails (a full disk, a
 * file-size limit, an unwritable folder) marks the sink failed, its temp file is removed, the
 * listing goes on, and `finish` resolves false. Reads of a failed sink return undefined (the
 * caller reads the session file instead), and so do reads of a saved catalogue that has been
 * replaced since (another listing saved a newer one). The temp file is 0600 in a 0700 folder (privacy: it
 * holds every session's text) and is named so that `removeStaleTemps` knows it.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  openRegularSync,
  type PauseFn,
  removeStaleTemps,
  type SessionInfo,
  summarizeFileSync,
  waitWhilePaused,
} from '../store/index.js';
import { type Catalogue, readByNameSync, readExactlySync } from './file.js';
import {
  CATALOGUE_FORMAT,
  CATALOGUE_VERSION,
  type CatalogueHeader,
  type CatalogueRecord,
  fromSessionRecord,
  metaSum,
  recordJson,
  type SessionRecord,
  sliceTag,
} from './format.js';
import { folderIndexJson, metaLayout } from './meta-pieces.js';
import { MAIN_TEXT_PIECES, type MainTexts, searchTextPieces } from './text-slices.js';

/** Bytes are gathered and written in batches of about this size (bounded memory, few system calls). */
const WRITE_BATCH = 4 * 1024 * 1024;
/** Section lengths are reserved in the header at this many digits (up to 10^15 bytes). */
const LENGTH_DIGITS = 16;

/** A byte range of the data section. */
export type DataRange = [offset: number, length: number];

/** What to write for one file: its record (its ranges are filled in by `finish`), and where its bytes are. */
export interface PlannedRecord {
  record: CatalogueRecord;
  /**
   * A session's texts: already in this sink (`written`, as `CatalogueRecord.t`), the range of an
   * unchanged one in the old catalogue (`copy`, as its `t`), or a row to write now.
   */
  text?: { written: [number, number, number] } | { copy: [number, number, number] } | SessionInfo;
  /** Its resume point: already in this sink, or the range of the old one in the old catalogue. */
  resume?: { written: DataRange } | { copy: DataRange };
}

/** A record carried over unchanged: its bytes are copied from the old catalogue. */
export function copyOf(record: CatalogueRecord): PlannedRecord {
  const copy: PlannedRecord = { record: { ...record } };
  if (record.t) copy.text = { copy: record.t };
  if (record.r) copy.resume = { copy: record.r };
  return copy;
}

export class CatalogueSink {
  private fd: number | undefined;
  private readonly temp: string;
  private readonly dataStart: number;
  /** File offset just after the last byte handed to the sink (written or batched). */
  private end: number;
  private batch = Buffer.allocUnsafe(0);
  private batchUsed = 0;
  /** File offset of batch[0]. */
  private batchAt: number;
  private failed = false;
  private finished = false;
  /** The inode of the catalogue once it was saved (its file then closed). */
  private savedIno: number | undefined;

  private constructor(
    readonly file: string,
    private readonly root: string,
    fd: number,
    temp: string,
  ) {
    this.fd = fd;
    this.temp = temp;
    // The header goes first, written last: its room is reserved for the longest header this root can have.
    this.dataStart = Buffer.byteLength(
      headerLine(root, 10 ** (LENGTH_DIGITS - 1), 10 ** (LENGTH_DIGITS - 1), metaSum('')),
    );
    this.end = this.dataStart;
    this.batchAt = this.dataStart;
  }

  /** Opens a temp file beside `file`; undefined when the folder cannot take one. */
  static open(file: string, root: string): CatalogueSink | undefined {
    const dir = join(file, '..');
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      privateDirSync(dir);
      const { fd } = openRegularSync(temp, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600);
      return new CatalogueSink(file, root, fd, temp);
    } catch {
      return undefined;
    }
  }

  /** Appends a session's texts; returns its `CatalogueRecord.t`, or undefined once the sink failed. */
  appendTexts(info: SessionInfo): [number, number, number] | undefined {
    const parts = searchTextPieces(info, sliceTag(info.path));
    const at = this.end;
    let main = 0;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (!this.append(part)) return undefined;
      if (i < MAIN_TEXT_PIECES) main = this.end - at;
    }
    return [at - this.dataStart, this.end - at, main];
  }

  /** Appends the resume point's JSON of the session at `path` (after its tag); its range, or undefined once the sink failed. */
  appendResume(path: string, json: string): DataRange | undefined {
    const at = this.end;
    return this.append(`${sliceTag(path)} ${json}`) ? [at - this.dataStart, this.end - at] : undefined;
  }

  /**
   * `length` bytes of the data section from `offset`, or undefined if the sink failed. Once
   * finished, its file is closed (a picker lists again and again: it must not keep a descriptor per
   * listing); it is then opened by name, and read only while it is still the very file written.
   */
  read(offset: number, length: number): Buffer | undefined {
    if (this.failed) return undefined;
    if (this.fd === undefined)
      return this.savedIno === undefined ? undefined : this.readSaved(this.savedIno, offset, length);
    const position = this.dataStart + offset;
    const out = Buffer.allocUnsafe(length);
    // What is not on disk yet is still in the batch.
    const onDisk = Math.max(0, Math.min(length, this.batchAt - position));
    try {
      readExactlySync(this.fd, out.subarray(0, onDisk), position);
    } catch {
      return undefined;
    }
    if (onDisk < length)
      this.batch.copy(out, onDisk, position + onDisk - this.batchAt, position + length - this.batchAt);
    return out;
  }

  private readSaved(ino: number, offset: number, length: number): Buffer | undefined {
    try {
      return readByNameSync(this.file, ino, this.dataStart + offset, length);
    } catch {
      return undefined;
    }
  }

  /**
   * Copies the unchanged sessions' bytes from `source`, then writes the metadata and the header,
   * and renames the file over the catalogue. Resolves false (never rejects) when it could not.
   */
  async finish(plan: readonly PlannedRecord[], source: Catalogue | undefined, pause?: PauseFn): Promise<boolean> {
    if (this.finished) throw new Error('catalogue sink finished twice');
    this.finished = true;
    source?.hold();
    try {
      await waitWhilePaused(pause);
      const kept: CatalogueRecord[] = [];
      for (const { record, text, resume } of plan) {
        delete record.t;
        delete record.r;
        delete record.h;
        // Bytes carried over from the old catalogue must be this session's (their tag): a record
        // pointing at another one's is not carried over, so the next listing reads the file.
        const tag = sliceTag(record.p);
        let foreign = false;
        if (text && 'written' in text) record.t = text.written;
        else if (text && 'copy' in text) {
          const range = await this.copy(source, text.copy[0], text.copy[1], pause, tag);
          if (range === 'foreign') foreign = true;
          else if (range) record.t = [range[0], range[1], text.copy[2]];
        } else if (text) record.t = this.appendTexts(text);
        if (resume && 'written' in resume) record.r = resume.written;
        else if (resume && !foreign) {
          const range = await this.copy(source, resume.copy[0], resume.copy[1], pause, tag);
          if (range === 'foreign') foreign = true;
          else record.r = range;
        }
        if (this.failed) return false;
        if (!foreign) kept.push(record);
      }
      await waitWhilePaused(pause);
      const dataLength = this.end - this.dataStart;
      // The metadata, as latin1 (asciiJson) after the data: its length is known only now. Written
      // a few hundred records at a time: the whole array as one JSON string (twice, escaped) was
      // the last peak of a cold listing's memory. Each record carries its checksum, the header
      // the checksum of the whole (see format.ts).
      const sum = createHash('sha1');
      const appendMeta = (text: string): boolean => {
        sum.update(text, 'latin1');
        return this.append(text, 'latin1');
      };
      const { pieces, folders } = metaLayout(kept);
      for (const piece of pieces) {
        const json = piece.map(recordJson).join(',');
        if (!appendMeta(`[${json}]\n`)) return false;
      }
      if (!appendMeta(`${folderIndexJson(folders)}\n`)) return false;
      if (!this.flush()) return false;
      const header = headerLine(this.root, this.end - this.dataStart - dataLength, dataLength, sum.digest('hex'));
      const padded = Buffer.alloc(this.dataStart, ' ');
      padded.write(header.slice(0, -1), 0, 'utf8');
      padded[this.dataStart - 1] = 0x0a;
      if (!this.writeAt(padded, 0)) return false;
      this.batch = Buffer.allocUnsafe(0);
      const ino = fstatSync(this.fd!).ino;
      renameSync(this.temp, this.file);
      this.savedIno = ino;
      closeSync(this.fd!);
      this.fd = undefined;
      await removeStaleTemps(join(this.file, '..'));
      return true;
    } catch {
      this.fail();
      return false;
    } finally {
      source?.release();
    }
  }

  /**
   * The listing's row for a session whose texts were just appended (`t`): the same fields, with the
   * tool output read back from this file on first use instead of kept in memory (a cold listing of
   * 10,000 sessions held ~80 MB of it for `out:` alone). A failed sink reads the session file.
   */
  rowReadingBack(info: SessionInfo, record: SessionRecord, t: [number, number, number]): SessionInfo {
    const main: MainTexts = {
      allMessagesText: info.allMessagesText,
      toolTargets: info.toolTargets,
      summaryText: info.summaryText,
    };
    return fromSessionRecord(info.path, info.size, info.mtimeMs, record, {
      main: () => main,
      output: (self) => {
        const bytes = this.read(t[0] + t[2], t[1] - t[2]);
        if (bytes) return bytes.toString('utf8');
        const fresh = summarizeFileSync(self.path);
        return 'ok' in fresh ? '' : fresh.toolOutputText;
      },
    });
  }

  /** Gives up: the temp file is removed (the listing was aborted, or nothing needs saving). */
  abandon(): void {
    this.fail();
  }

  /**
   * Bytes of the old catalogue's data section, copied in bounded slices; 'foreign' (nothing
   * copied) when they do not start with `tag ` (they are not the session's).
   */
  private async copy(
    source: Catalogue | undefined,
    offset: number,
    length: number,
    pause: PauseFn | undefined,
    tag: string,
  ): Promise<DataRange | undefined | 'foreign'> {
    if (!source) throw new Error('copy without a source');
    const at = this.end;
    for (let done = 0; done < length; done += WRITE_BATCH) {
      const bytes = source.dataBytes(offset + done, Math.min(WRITE_BATCH, length - done));
      if (done === 0 && bytes.toString('latin1', 0, tag.length + 1) !== `${tag} `) return 'foreign';
      if (!this.append(bytes)) return undefined;
      if (this.batchUsed === 0) await waitWhilePaused(pause);
    }
    return [at - this.dataStart, this.end - at];
  }

  private append(data: string | Buffer, encoding: BufferEncoding = 'utf8'): boolean {
    if (this.failed) return false;
    const bytes = typeof data === 'string' ? Buffer.byteLength(data, encoding) : data.length;
    if (bytes === 0) return true;
    if (this.batchUsed + bytes > this.batch.length) {
      if (!this.flush()) return false;
      // A piece bigger than a batch is written on its own.
      if (bytes > WRITE_BATCH) {
        if (!this.writeAt(typeof data === 'string' ? Buffer.from(data, encoding) : data, this.end)) return false;
        this.end += bytes;
        this.batchAt = this.end;
        return true;
      }
      if (this.batch.length === 0) this.batch = Buffer.allocUnsafe(WRITE_BATCH);
    }
    if (typeof data === 'string') this.batch.write(data, this.batchUsed, encoding);
    else data.copy(this.batch, this.batchUsed);
    this.batchUsed += bytes;
    this.end += bytes;
    return true;
  }

  private flush(): boolean {
    if (this.failed) return false;
    if (this.batchUsed === 0) return true;
    if (!this.writeAt(this.batch.subarray(0, this.batchUsed), this.batchAt)) return false;
    this.batchAt += this.batchUsed;
    this.batchUsed = 0;
    return true;
  }

  /** `write` may write short (a nearly full disk, a file-size limit): loop until done or failed. */
  private writeAt(bytes: Buffer, position: number): boolean {
    if (this.fd === undefined) return false;
    try {
      for (let done = 0; done < bytes.length; ) {
        const n = writeSync(this.fd, bytes, done, bytes.length - done, position + done);
        if (n <= 0) throw new Error('no progress writing');
        done += n;
      }
      return true;
    } catch {
      this.fail();
      return false;
    }
  }

  private fail(): void {
    if (this.failed) return;
    this.failed = true;
    this.batch = Buffer.allocUnsafe(0);
    this.batchUsed = 0;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Nothing more to do with it.
      }
      this.fd = undefined;
    }
    try {
      unlinkSync(this.temp);
    } catch {
      // Already gone (renamed, or never made).
    }
  }
}

/** The header line (with its newline) for these section lengths and metadata checksum. */
function headerLine(root: string, meta: number, data: number, sum: string): string {
  const header: CatalogueHeader = { format: CATALOGUE_FORMAT, version: CATALOGUE_VERSION, root, meta, data, sum };
  return `${JSON.stringify(header)}\n`;
}

/** Writes a whole catalogue from a plan (no listing going on): a sink opened and finished at once. */
export async function writeCatalogue(
  file: string,
  root: string,
  plan: readonly PlannedRecord[],
  source?: Catalogue,
  pause?: PauseFn,
): Promise<boolean> {
  const sink = CatalogueSink.open(file, root);
  return sink ? sink.finish(plan, source, pause) : false;
}

/** Creates the catalogue folder 0700, or tightens an existing one that others can read. */
function privateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stats = statSync(dir);
  if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) chmodSync(dir, stats.mode & 0o700);
}
