/**
 * Records stay small and the trim keeps the newest history, whatever was typed: a 1 MB label is
 * journalled as a preview and the id of the entry that holds it (the session file only grows), so
 * it cannot push older records out; the label after it restores it whole on undo (pi reads the
 * same 1 MB label back); the newest changes all stay undoable. planTrim (the streamed trim's plan)
 * keeps at least the newest 200 records and drops lines no record of ours could be.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  JOURNAL_KEEP_BYTES,
  JOURNAL_KEEP_RECORDS,
  journalLine,
  journalPath,
  parseJournal,
  parseJournalLine,
  planTrim,
  renameSession,
  resolveLocations,
  setLabel,
  undoLatest,
} from '../../src/store/index.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { openWithPi } from '../helpers/pi.js';

function sessions(): { a: string; b: string; dir: string } {
  const dir = tempDir();
  const one = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000a1' });
  one.user('the labelled one');
  one.assistant('ok');
  const two = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000b2' });
  two.user('the renamed one');
  two.assistant('ok');
  return { a: one.writeTo(join(dir, 'a.jsonl')), b: two.writeTo(join(dir, 'b.jsonl')), dir };
}

describe('a 1 MB label, then 300 small changes', () => {
  it('is journalled small; the newest changes all undo, and the label comes back whole', async () => {
    const { a, b, dir } = sessions();
    // The folder as a custom sessions folder: undo only touches sessions in the folders it resolves.
    const locations = resolveLocations({ cwd: dir, sessionDir: dir, env: {}, home: dir });
    const big = `${'a long label '.repeat(80_000)}end`;
    expect(big.length).toBeGreaterThan(1_000_000);
    await setLabel(a, '00000001', 'v1');
    await setLabel(a, '00000001', big);
    await setLabel(a, '00000001', 'v2');
    for (let i = 0; i < 300; i++) await renameSession(b, `name ${i}`);

    const text = readFileSync(journalPath(), 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(303);
    for (const line of lines) expect(line.length).toBeLessThan(2048);
    const records = parseJournal(text);
    expect(records[1]).toMatchObject({ kind: 'label', previousLabel: 'v1', label: expect.stringMatching(/…$/) });
    // The label that replaced the big one refers to the entry holding it instead of copying it.
    expect(records[2]).toMatchObject({ kind: 'label', previousLabel: expect.stringMatching(/^a long label .*…$/) });
    expect(records[2]).toHaveProperty('previousLabelEntry');

    for (let i = 299; i >= 0; i--) {
      const undone = await undoLatest({ locations });
      expect(undone.record).toMatchObject({ kind: 'rename', name: `name ${i}` });
    }
    expect((await openWithPi(b)).manager.getSessionName()).toBeUndefined();
    await undoLatest({ locations });
    expect((await openWithPi(a)).manager.getLabel('00000001')).toBe(big);
    await undoLatest({ locations });
    expect((await openWithPi(a)).manager.getLabel('00000001')).toBe('v1');
    await undoLatest({ locations });
    expect((await openWithPi(a)).manager.getLabel('00000001')).toBeUndefined();
  }, 120_000);
});

const record = (i: number, pad = 10): string =>
  journalLine({
    kind: 'rename',
    path: `/s/${i}.jsonl`,
    time: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
    id: (0x20000000 + i).toString(16),
    after: { size: 1, mtimeMs: 1, ino: 1 },
    entryId: 'e0000001',
    previousName: 'n'.repeat(pad),
  });

/** The plan of a trim of a file holding `text`, and the records it keeps. */
async function plan(text: string, limits?: { keepBytes: number; keepRecords: number }): Promise<string[]> {
  const path = join(tempDir(), 'journal.jsonl');
  writeFileSync(path, text);
  const handle = await open(path, 'r');
  try {
    const { ranges, kept } = await planTrim(handle, Buffer.byteLength(text), limits);
    const bytes = readFileSync(path);
    const keptText = ranges.map(([from, to]) => bytes.toString('utf8', from, to)).join('');
    const ids = keptText
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => parseJournalLine(l)!.id!);
    expect(ids).toHaveLength(kept);
    return ids;
  } finally {
    await handle.close();
  }
}

const idOf = (i: number): string => (0x20000000 + i).toString(16);

describe('planTrim: the newest records, read backwards', () => {
  it('a huge newest line (an older version’s record) is dropped; the records before it are kept', async () => {
    const small = Array.from({ length: 300 }, (_, i) => record(i)).join('');
    const ids = await plan(small + record(300, 1_200_000));
    expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => idOf(i)));
  });

  it('keeps at least the newest 200 records even when they pass the byte budget', async () => {
    const text = Array.from({ length: 250 }, (_, i) => record(i, 4000)).join('');
    const ids = await plan(text);
    expect(ids).toHaveLength(JOURNAL_KEEP_RECORDS);
    expect(ids.at(-1)).toBe(idOf(249));
    expect(ids[0]).toBe(idOf(50));
    expect(JOURNAL_KEEP_RECORDS * 4000).toBeGreaterThan(JOURNAL_KEEP_BYTES);
  });

  it('within the byte budget when the records are small; lines split across read chunks are whole', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => record(i, 300)).join('');
    const ids = await plan(text);
    expect(ids.length).toBeGreaterThan(JOURNAL_KEEP_RECORDS);
    expect(ids.length * 400).toBeLessThanOrEqual(JOURNAL_KEEP_BYTES + 400);
    expect(ids.at(-1)).toBe(idOf(4999));
    // Consecutive: nothing skipped in the middle.
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, k) => idOf(5000 - ids.length + k)));
  });

  it('drops a torn last line, blank and foreign lines, earlier trim markers', async () => {
    const marker = journalLine({ kind: 'trimmed', path: '/j', time: '2026-01-01T00:00:00.000Z', id: 'ffffffff' });
    const text = `${marker}${record(1)}\n\nnot json\n${record(2)}{"v":1,"kind":"rename","pa`;
    expect(await plan(text)).toEqual([idOf(1), idOf(2)]);
    expect(await plan(`${record(3)}${record(4)}`, { keepBytes: 0, keepRecords: 1 })).toEqual([idOf(4)]);
  });

  it('a 20 MB line between records is passed over, the records on both sides kept', async () => {
    const line = `{"v":1,"pad":"${'x'.repeat(20 * 1024 * 1024)}"}\n`;
    const ids = await plan(`${record(1)}${line}${record(2)}`);
    expect(ids).toEqual([idOf(1), idOf(2)]);
  });
});
