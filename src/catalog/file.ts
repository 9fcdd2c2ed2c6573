/**
 * Loading the catalogue file (format.ts; writer.ts writes it). It is a cache: anything wrong with
 * the file as a whole (missing, truncated, another version, unreadable) makes `loadCatalogue`
 * return undefined, and the listing simply reads the session files; a record that is wrong alone
 * (edited, of the wrong shape, pointing outside the data) is dropped alone, and so is read from
 * its session file like a new one. Texts are checked to be their session's when they are read
 * (the slice's tag); a slice that is not is replaced by the session file's. Nothing here ever
 * throws at the caller for a bad cache.
 *
 * Concurrency: a writer fills a temp file of its own in the same folder and renames it over the
 * catalogue, so a reader sees either the old or the new file, whole. A reader keeps its
 * descriptor open while it may still read text, so a replaced file stays readable for it (POSIX).
 *
 * Privacy: the catalogue holds the text of every session, so its folder is 0700 (tightened if an
 * older version or the user made it wider) and its files 0600, whatever the umask.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import {
  type NotASession,
  openRegularSync,
  type ResumePoint,
  readIntoSync,
  type SessionInfo,
  summarizeFileSync,
} from '../store/index.js';
import {
  type CatalogueRecord,
  fromSessionRecord,
  isUsableRecord,
  metaSum,
  parseHeader,
  recordHashHolds,
  sliceTag,
} from './format.js';
import { MetaPieces } from './meta-pieces.js';
import { type MainTexts, TEXT_HEADER_MAX, textHeaderHolds, unpackMainTexts } from './text-slices.js';

/** `$XDG_CACHE_HOME/pi-sessions`, else `~/.cache/pi-sessions` (a relative XDG value is ignored, per the spec). */
export function catalogueDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'pi-sessions');
}

/** One catalogue per sessions root, so a test store or a custom dir never mixes with the main one. */
export function catalogueFile(dir: string, root: string): string {
  return join(dir, `catalogue-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.bin`);
}

/** The header is one line: the root path (at most PATH_MAX, JSON-escaped) and a few numbers. */
const HEADER_PROBE = 64 * 1024;

const NO_TEXTS: MainTexts = { allMessagesText: '', toolTargets: '', summaryText: '' };

/** A catalogue's metadata not parsed yet. */
interface UnparsedMeta {
  pieces: MetaPieces;
  bytes: Buffer;
  /** The header's `sum`: pieces parsed after the whole is checked are believed when it holds. */
  sum: string;
}

/**
 * An opened catalogue: its records, and per-session text read on demand from the open file. The
 * metadata's head is parsed when it opens (a warm start paints from it); `loadRest` parses the
 * other pieces (`complete` then).
 */
export class Catalogue {
  readonly records = new Map<string, CatalogueRecord>();
  /** Records of the file that were left out, as they could not be trusted. */
  dropped = 0;
  private fd: number | undefined;
  /** File offset of the data section (texts and resume points). */
  private readonly dataBase: number;
  private unparsed: UnparsedMeta | undefined;
  /** Rows handed out whose message text was not read yet, plus writers copying from this file. */
  private pending = 0;
  private holds = 0;
  /** Rows handed out, by path (plain Map and Set: weak collections measurably slow the GC here). */
  private readonly infos = new Map<string, SessionInfo | NotASession>();
  /** Bytes read from the file after loading (tests: a plain search must not read the tool output). */
  bytesRead = 0;
  /** Paths of handed-out rows whose message text was not read yet. */
  private readonly unread = new Set<string>();
  /** Paths whose text slice was seen to carry their tag (their tool output can be read alone). */
  private readonly tagged = new Set<string>();

  /**
   * The file stays open while handed-out rows may still read their message text (every search
   * needs it), then closes: a picker lists again and again and must not keep a descriptor per
   * listing. A tool output read after that (`out:` only) opens the file again by name, while it is
   * still this file (`ino`).
   */
  constructor(
    fd: number,
    private readonly file: string,
    private readonly ino: number,
    headerBytes: number,
    /** The data section's length: a record's ranges must stay inside it. */
    private readonly dataLength: number,
    meta: Buffer,
    sum: string,
  ) {
    this.fd = fd;
    this.dataBase = headerBytes;
    this.unparsed = { pieces: new MetaPieces(meta), bytes: meta, sum };
    // The head: each record is checked by its own checksum (the whole's is not computed yet).
    this.addPiece(0, false);
  }

  /** Whether every piece of the metadata has been parsed. */
  get complete(): boolean {
    return this.unparsed === undefined;
  }

  /** Parses the pieces of these session folders (a project's start paints from them), each record checked alone. */
  loadFolders(folders: readonly string[]): void {
    for (const folder of folders) for (const i of this.unparsed?.pieces.ofFolder(folder) ?? []) this.addPiece(i, false);
  }

  /** Parses the rest of the metadata; `slice` (a listing's slicer) may yield between pieces. */
  async loadRest(slice?: () => Promise<void> | undefined): Promise<void> {
    const intact = this.restIntact();
    for (let i = this.unparsed?.pieces.next() ?? -1; i !== -1; i = this.unparsed?.pieces.next() ?? -1) {
      await slice?.();
      this.addPiece(i, intact);
    }
  }

  /** loadRest without yielding (a scan or a test that needs every record now). */
  loadRestSync(): void {
    const intact = this.restIntact();
    for (let i = this.unparsed?.pieces.next() ?? -1; i !== -1; i = this.unparsed?.pieces.next() ?? -1)
      this.addPiece(i, intact);
  }

  /**
   * The usual case, the metadata as written, costs one native hash; otherwise each record's own
   * checksum says which were edited.
   */
  private restIntact(): boolean {
    return this.unparsed !== undefined && metaSum(this.unparsed.bytes) === this.unparsed.sum;
  }

  /**
   * Adds the trusted records of piece `i` (once); a piece that is not a JSON array counts as one
   * dropped record (its sessions are read from their files, and the catalogue is written again).
   * Every record is checked for its shape; `intact`: the whole metadata's checksum held.
   */
  private addPiece(i: number, intact: boolean): void {
    const meta = this.unparsed;
    const piece = meta?.pieces.take(i);
    if (meta?.pieces.done) this.unparsed = undefined;
    if (!piece) return;
    if (!Array.isArray(piece.value)) {
      this.dropped++;
      return;
    }
    for (const r of piece.value) {
      if (!isUsableRecord(r, this.dataLength) || (!intact && !recordHashHolds(r)) || this.records.has(r.p)) {
        this.dropped++;
        continue;
      }
      this.records.set(r.p, r);
    }
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
          this.settle(self);
          return texts;
        },
        output: (self) => this.readOutput(self, offset, main, length - main),
      });
      this.unread.add(record.p);
      this.pending++;
      out = info;
    } else {
      out = { ok: false, path: record.p, reason: record.x?.reason ?? 'unreadable', message: record.x?.message ?? '' };
    }
    this.infos.set(record.p, out);
    return out;
  }

  /** A row that will never be shown or written: its text will not be read. */
  discard(info: SessionInfo | NotASession): void {
    if (!('ok' in info)) this.settle(info);
  }

  /** The record's resume point, when its slice is this session's (it starts with the session's tag). */
  resumePoint(record: CatalogueRecord): ResumePoint | undefined {
    if (!record.r || this.fd === undefined) return undefined;
    try {
      const text = this.dataBytes(record.r[0], record.r[1]).toString('utf8');
      const tag = `${sliceTag(record.p)} `;
      return text.startsWith(tag) ? (JSON.parse(text.slice(tag.length)) as ResumePoint) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Reads `length` bytes of the data section from `offset` (writers copying unchanged bytes). */
  dataBytes(offset: number, length: number): Buffer {
    return this.bytes(this.dataBase + offset, length);
  }

  hold(): void {
    this.holds++;
  }

  release(): void {
    this.holds--;
    this.maybeClose();
  }

  private settle(info: SessionInfo): void {
    if (this.infos.get(info.path) !== info || !this.unread.delete(info.path)) return;
    this.pending--;
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.pending > 0 || this.holds > 0 || this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private bytes(position: number, length: number): Buffer {
    let buf: Buffer;
    if (this.fd === undefined) buf = readByNameSync(this.file, this.ino, position, length);
    else {
      buf = Buffer.allocUnsafe(length);
      readExactlySync(this.fd, buf, position);
    }
    this.bytesRead += length;
    return buf;
  }

  /**
   * A record's message text and targets: from its slice when that is this session's (its tag),
   * else, and whenever reading fails, from the session file itself.
   */
  private readMain(info: SessionInfo, offset: number, length: number): MainTexts {
    try {
      const texts = unpackMainTexts(this.dataBytes(offset, length).toString('utf8'), sliceTag(info.path));
      this.tagged.add(info.path);
      return texts;
    } catch {
      const fresh = summarizeFileSync(info.path);
      return 'ok' in fresh ? NO_TEXTS : fresh;
    }
  }

  /** The tool output after the message text (`main` bytes from `offset`), checked like readMain. */
  private readOutput(info: SessionInfo, offset: number, main: number, length: number): string {
    try {
      // Checked even for an empty output: another session's empty output is not this one's.
      if (!this.tagged.has(info.path)) {
        const head = this.dataBytes(offset, Math.min(main, TEXT_HEADER_MAX)).toString('latin1');
        if (!textHeaderHolds(head, sliceTag(info.path))) throw new Error('catalogue text of another session');
        this.tagged.add(info.path);
      }
      return length === 0 ? '' : this.dataBytes(offset + main, length).toString('utf8');
    } catch {
      const fresh = summarizeFileSync(info.path);
      return 'ok' in fresh ? '' : fresh.toolOutputText;
    }
  }
}

/** Fills `buffer` from `position` of `fd`; throws on a short file. */
export function readExactlySync(fd: number, buffer: Buffer, position: number): void {
  if (readIntoSync(fd, buffer, position) < buffer.length) throw new Error('catalogue truncated');
}

/**
 * `length` bytes at `position` of the catalogue at `path`, opened again by name, only while it is
 * still the file read before (inode `ino`): a newer catalogue renamed over it has other offsets.
 * Throws otherwise.
 */
export function readByNameSync(path: string, ino: number, position: number, length: number): Buffer {
  const { fd, stats } = openRegularSync(path);
  try {
    if (stats.ino !== ino) throw new Error('catalogue replaced');
    const buf = Buffer.allocUnsafe(length);
    readExactlySync(fd, buf, position);
    return buf;
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens the catalogue for `root` with its metadata's head parsed (`loadRest` parses the rest), or
 * undefined when there is none or it cannot be trusted.
 */
export function openCatalogue(file: string, root: string): Catalogue | undefined {
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
    const n = readIntoSync(fd, probe, 0);
    const nl = probe.subarray(0, n).indexOf(0x0a);
    if (nl === -1) throw new Error('no header');
    const header = parseHeader(probe.toString('utf8', 0, nl), root);
    const headerBytes = nl + 1;
    if (!header || headerBytes + header.data + header.meta !== size) throw new Error('bad header or truncated');
    const meta = Buffer.allocUnsafe(header.meta);
    readExactlySync(fd, meta, headerBytes + header.data);
    return new Catalogue(fd, file, fstatSync(fd).ino, headerBytes, header.data, meta, header.sum);
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** Loads the catalogue for `root` with every record, or undefined when there is none or it cannot be trusted. */
export function loadCatalogue(file: string, root: string): Catalogue | undefined {
  const catalogue = openCatalogue(file, root);
  catalogue?.loadRestSync();
  return catalogue;
}
