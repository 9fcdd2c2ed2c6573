/**
 * The few synchronous file calls the catalogue makes on session files, behind an interface so
 * tests (and the bench) can count the bytes a refresh really reads.
 */
import { closeSync, fstatSync, readSync, type Stats } from 'node:fs';
import { openRegularSync } from './regular-file.js';

export interface FileIo {
  /** Opens a regular file for reading; anything else (a FIFO…) throws at once, never blocks. */
  openSync(path: string): number;
  fstatSync(fd: number): Stats;
  /** Reads up to `length` bytes at `position` (null: the current position) into `buffer`. */
  readSync(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

export const nodeIo: FileIo = {
  openSync: (path) => openRegularSync(path).fd,
  fstatSync: (fd) => fstatSync(fd),
  readSync: (fd, buffer, offset, length, position) => readSync(fd, buffer, offset, length, position),
  closeSync: (fd) => closeSync(fd),
};

/** Wraps an io so every byte read is added to `counter.bytes` (tests, bench). */
export function countingIo(counter: { bytes: number }, inner: FileIo = nodeIo): FileIo {
  return {
    ...inner,
    readSync(fd, buffer, offset, length, position) {
      const n = inner.readSync(fd, buffer, offset, length, position);
      counter.bytes += n;
      return n;
    },
  };
}
