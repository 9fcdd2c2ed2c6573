import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { digestingSink, type LongLineDigest } from '../../src/store/read/line-prefix.js';
import { LineSplitter } from '../../src/store/read/lines.js';
import { type ScannedFile, scanFrom, scanFromSync } from '../../src/store/read/scan.js';

const dir = mkdtempSync(join(tmpdir(), 'pi-sessions-scan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Seen = [string, number, boolean];
const collect = (seen: Seen[]) => (buf: Buffer, start: number, end: number, lineNo: number, terminated: boolean) =>
  seen.push([buf.toString('utf8', start, end), lineNo, terminated]);

function scanned(result: unknown): ScannedFile {
  if (typeof result !== 'object' || result === null || 'ok' in result || 'rewritten' in result)
    throw new Error(`not scanned: ${JSON.stringify(result)}`);
  return result as ScannedFile;
}

describe('scanFrom', () => {
  it('scans from an offset with the true line numbers, sync and async alike', async () => {
    const path = join(dir, 'a.jsonl');
    writeFileSync(path, 'one\ntwo\n\nfour\nfive');
    const whole: Seen[] = [];
    const first = scanned(scanFromSync(path, { onLine: collect(whole) }));
    expect(whole).toEqual([
      ['one', 1, true],
      ['two', 2, true],
      ['', 3, true],
      ['four', 4, true],
      ['five', 5, false],
    ]);
    expect(first).toMatchObject({ size: 18, lastLine: 5, lastCompleteLine: 4, endsWithNewline: false });
    expect(first.seam.offset).toBe(14);
    const rest: Seen[] = [];
    const again = scanned(
      await scanFrom(
        path,
        { onLine: collect(rest), firstLine: first.lastCompleteLine + 1, partial: 'keep' },
        first.seam,
      ),
    );
    // `keep`: the unterminated last line is not handed over, and the seam stays before it.
    expect(rest).toEqual([]);
    expect(again.seam.offset).toBe(14);
    appendFileSync(path, '\nsix\n');
    const more: Seen[] = [];
    const third = scanned(
      await scanFrom(
        path,
        { onLine: collect(more), firstLine: again.lastCompleteLine + 1, partial: 'keep' },
        again.seam,
      ),
    );
    expect(more).toEqual([
      ['five', 5, true],
      ['six', 6, true],
    ]);
    expect(third.lastCompleteLine).toBe(6);
  });

  it('reports a file rewritten before the seam, and one that shrank', () => {
    const path = join(dir, 'b.jsonl');
    writeFileSync(path, 'aaaa\nbbbb\n');
    const first = scanned(scanFromSync(path, { onLine: () => undefined }));
    writeFileSync(path, 'aaaa\nbbbX\ncccc\n');
    expect(scanFromSync(path, { onLine: () => undefined }, first.seam)).toMatchObject({ rewritten: true });
    writeFileSync(path, 'aaaa\n');
    expect(scanFromSync(path, { onLine: () => undefined }, first.seam)).toMatchObject({ rewritten: true });
    writeFileSync(path, 'aaaa\nbbbb\ncccc\n');
    const seen: Seen[] = [];
    scanned(scanFromSync(path, { onLine: collect(seen), firstLine: 3 }, first.seam));
    expect(seen).toEqual([['cccc', 3, true]]);
  });

  it('refuses a FIFO at once, as a value', async () => {
    const fifo = join(dir, 'x.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(scanFromSync(fifo, { onLine: () => undefined })).toEqual({
      ok: false,
      path: fifo,
      reason: 'not-a-file',
      message: 'not a regular file (a FIFO)',
    });
    expect(await scanFrom(fifo, { onLine: () => undefined })).toMatchObject({ ok: false, reason: 'not-a-file' });
  });
});

describe('long lines', () => {
  it('a line past the bound streams to the sink in pieces; shorter lines are whole', () => {
    const seen: Seen[] = [];
    const pieces: string[] = [];
    const ends: [number, boolean][] = [];
    const splitter = new LineSplitter(collect(seen), {
      maxLineBytes: () => 8,
      onLongLine: (lineNo) => ({
        piece: (b, s, e) => pieces.push(b.toString('utf8', s, e)),
        end: (t) => ends.push([lineNo, t]),
      }),
    });
    for (const chunk of ['sho', 'rt\nthis line is lo', 'ng indeed\nnext\ntail without', ' newline and long'])
      splitter.push(Buffer.from(chunk), chunk.length);
    splitter.end();
    expect(seen).toEqual([
      ['short', 1, true],
      ['next', 3, true],
    ]);
    expect(pieces.join('')).toBe('this line is long indeedtail without newline and long');
    expect(ends).toEqual([
      [2, true],
      [4, false],
    ]);
  });

  it('the digest finds its needles wherever the chunks cut them', () => {
    const line =
      '{"type":"message","id":"abcd1234","parentId":null,"message":{"role":"toolResult","content":"xx","usage":{}}}\r';
    for (let cut = 1; cut < line.length; cut++) {
      let digest: LongLineDigest | undefined;
      const sink = digestingSink(7, (d) => (digest = d));
      const bytes = Buffer.from(line);
      sink.piece(bytes, 0, cut);
      sink.piece(bytes, cut, bytes.length);
      sink.end(true);
      expect(digest, `cut at ${cut}`).toMatchObject({
        lineNo: 7,
        bytes: bytes.length,
        hasUsage: true,
        hasGlue: false,
        endsWithBrace: true,
        terminated: true,
      });
      expect(digest!.head.toString()).toBe(line);
    }
  });
});
