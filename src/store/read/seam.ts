/**
 * The fingerprint a resumable read keeps of the file it stopped in: plain data, apart from the
 * scanner that makes and checks it (scan.ts), so the records that carry it (types.ts) need not
 * import the scanner that imports them.
 */

/** Fingerprint sizes: the header's first bytes (its id) and the end of the last line read. */
export const SEAM_HEAD_BYTES = 64;
export const SEAM_TAIL_BYTES = 256;

/** What to check before resuming a scan at `offset`: see `seamHolds` (scan.ts). */
export interface Seam {
  /** Offset just after the last `\n` read (0: no complete line). */
  offset: number;
  /** The first min(offset, SEAM_HEAD_BYTES) bytes of the file. */
  head: Buffer;
  /** The min(offset, SEAM_TAIL_BYTES) bytes before `offset`. */
  tail: Buffer;
}
