/**
 * The start of one JSON string of a line too long to hold, as the bounded parser (bounded-json.ts)
 * reads it piece by piece: its JSON text is kept up to a quota of bytes, the rest only noted as
 * cut, so a string of any length costs at most its quota.
 */
import { decodeKept } from './json-grammar.js';

export class KeptString {
  private pieces: Buffer[] = [];
  private bytes = 0;
  private quota = 0;
  /** Whether bytes of the string were left out (it is longer than its quota). */
  cut = false;

  /** Starts a string of which at most `quota` bytes of JSON text are kept (0: none of it). */
  begin(quota: number): void {
    this.pieces = [];
    this.bytes = 0;
    this.cut = false;
    this.quota = quota;
  }

  /** The string's bytes `[start, end)` of `buf` (escapes still escaped): kept while the quota lasts. */
  keep(buf: Buffer, start: number, end: number): void {
    if (end <= start) return;
    const room = this.quota - this.bytes;
    if (room <= 0) {
      this.cut = true;
      return;
    }
    const take = Math.min(room, end - start);
    // Copied: the caller's buffer is reused for the next piece of the line.
    this.pieces.push(Buffer.from(buf.subarray(start, start + take)));
    this.bytes += take;
    if (take < end - start) this.cut = true;
  }

  /** The kept JSON bytes so far: what the string costs of the parser's budget. */
  get keptBytes(): number {
    return this.bytes;
  }

  /**
   * The string's text as kept (a character or escape the cut split is dropped), or undefined
   * when it had no quota and nothing of it is kept.
   */
  end(): string | undefined {
    const raw = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    this.pieces = [];
    return this.quota > 0 ? decodeKept(raw, this.cut) : undefined;
  }
}
