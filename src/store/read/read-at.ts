/**
 * Reading `length` bytes at `position`: the one loop every reader shares, since a read(2) may
 * return fewer bytes than asked for. Each stops early only at the end of the file and returns
 * what it got; a caller that needs every byte checks the length.
 */
import { readSync } from 'node:fs';

/** A positional read (node's `readSync`, or a counting wrapper in tests and the bench). */
export type ReadAt = (fd: number, buffer: Buffer, offset: number, length: number, position: number) => number;

/** What the asynchronous readers read from: a FileHandle, or a test's fake. */
export interface ByteSource {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ dev: number; ino: number; size: number; mtimeMs: number }>;
}

/** Fills `buffer` from `position` of `fd` (less at the end of the file); the bytes read. */
export function readIntoSync(fd: number, buffer: Buffer, position: number, readAt: ReadAt = readSync): number {
  let got = 0;
  while (got < buffer.length) {
    const n = readAt(fd, buffer, got, buffer.length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** `length` bytes at `position` (fewer at the end of the file). */
export function readAtSync(fd: number, position: number, length: number, readAt: ReadAt = readSync): Buffer {
  const buf = Buffer.allocUnsafe(length);
  const got = readIntoSync(fd, buf, position, readAt);
  return got === length ? buf : buf.subarray(0, got);
}

/** `length` bytes at `position` of `source` (fewer at the end of the file). */
export async function readAt(source: Pick<ByteSource, 'read'>, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await source.read(buf, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === length ? buf : buf.subarray(0, got);
}
