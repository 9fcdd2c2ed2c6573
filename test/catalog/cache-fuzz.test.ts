/**
 * The catalogue is a cache, never a source of truth: whatever is done to the file (fields of the
 * wrong type, numbers changed, offsets moved to another session's text, records swapped or
 * duplicated, bytes flipped, the file cut short), a listing through it equals the listing without
 * it, texts included, and never throws. Half the edits are "resealed" (every checksum recomputed,
 * as someone who knows the format would do): then the shape, range and slice-tag checks alone
 * must catch them, so resealed edits are only those that make a record wrong, not merely different.
 */
import { copyFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CatalogueRecord, isUsableRecord } from '../../src/catalog/format.js';
import { catalogueFile, listSessionsCached, loadCatalogue } from '../../src/catalog/index.js';
import { type CatalogueParts, random, readCatalogueParts, writeCatalogueParts } from './catalogue-edit.js';
import { corpusStore, freshList, plain, type TestStore } from './helpers.js';

type Rng = ReturnType<typeof random>;

async function listThrough(store: TestStore) {
  const result = await listSessionsCached(store.locations, { scope: 'all', cacheDir: store.cacheDir });
  await result.saved;
  return { sessions: result.sessions.map(plain), skipped: result.skipped, stats: result.stats };
}

const WRONG_VALUES: unknown[] = [42, '42', null, [], {}, true, -1, 1.5, [1, 'x'], { length: 3 }];

/** Sets a field of a record (or of its session) to a value of the wrong type. */
function wrongType(parts: CatalogueParts, rng: Rng): string {
  const record = rng.pick(parts.records.filter((r) => r.s));
  const s = record.s as unknown as Record<string, unknown>;
  const value = rng.pick(WRONG_VALUES);
  const inSession = rng.int(4) > 0;
  const key = inSession ? rng.pick(Object.keys(s)) : rng.pick(['p', 'z', 'm', 'i', 't', 'r', 'y']);
  const target = inSession ? s : (record as unknown as Record<string, unknown>);
  const before = target[key];
  target[key] = value;
  // A value the field may hold (null for a date, a number for another) is not an edit of its type.
  if (isUsableRecord(record, parts.data.length)) {
    target[key] = before;
    return wrongType(parts, rng);
  }
  return `${inSession ? 's.' : ''}${key} = ${JSON.stringify(value)}`;
}

/** Nested values of the wrong shape: usage, labels, problems, textPlaces. */
function wrongNested(parts: CatalogueParts, rng: Rng): string {
  const s = rng.pick(parts.records.filter((r) => r.s)).s!;
  const edits: [string, () => void][] = [
    ['usage.cost = "lots"', () => ((s.usage as unknown as Record<string, unknown>)['cost'] = 'lots')],
    ['usage.input = -5', () => (s.usage.input = -5)],
    ['labels = [1]', () => ((s as unknown as Record<string, unknown>)['labels'] = [1])],
    ['problems = [{line: "x"}]', () => ((s as unknown as Record<string, unknown>)['problems'] = [{ line: 'x' }])],
    ['textPlaces = [5, 7]', () => (s.textPlaces = [5, 7])],
    ['textPlaces = [10, 0, 5, 1]', () => (s.textPlaces = [10, 0, 5, 1])],
    ['textPlaces = [3]', () => (s.textPlaces = [3])],
    ['created = 1e300', () => ((s as unknown as Record<string, unknown>)['created'] = 1e300)],
    ['messageCount = 2.5', () => (s.messageCount = 2.5)],
    ['delete s.cwd', () => delete (s as unknown as Record<string, unknown>)['cwd']],
  ];
  const [what, edit] = rng.pick(edits);
  edit();
  return what;
}

/** Offsets moved: onto another session's texts or resume point, off their slice's start, or past the data. */
function wrongOffsets(parts: CatalogueParts, rng: Rng): string {
  const withText = parts.records.filter((r) => r.t);
  const a = rng.pick(withText);
  const b = rng.pick(withText.filter((r) => r !== a));
  const withResume = parts.records.filter((r) => r.r);
  switch (rng.int(5)) {
    case 0:
      [a.t, b.t] = [b.t, a.t];
      return `texts of ${a.p} and ${b.p} swapped`;
    case 1:
      a.t = [...b.t!];
      return `texts of ${a.p} point at ${b.p}'s`;
    case 2:
      a.t = [a.t![0] + 1, a.t![1] - 1, a.t![2] - 1];
      return `texts of ${a.p} shifted by a byte`;
    case 3:
      a.t = [parts.data.length - 2, 10, 5];
      return `texts of ${a.p} past the data`;
    default: {
      const [c, d] = [rng.pick(withResume), rng.pick(withResume)];
      if (c === d) return wrongOffsets(parts, rng);
      [c.r, d.r] = [d.r, c.r];
      return `resume points of ${c.p} and ${d.p} swapped`;
    }
  }
}

/** A number changed to another plausible one: only a checksum can tell (never resealed). */
function otherNumber(parts: CatalogueParts, rng: Rng): string {
  const record = rng.pick(parts.records.filter((r) => r.s));
  const s = record.s!;
  const edits: [string, () => void][] = [
    ['s.messageCount + 1', () => (s.messageCount += 1)],
    ['s.entryCount * 2', () => (s.entryCount *= 2)],
    ['s.usage.cost + 0.5', () => (s.usage.cost += 0.5)],
    ['s.modified + 1000', () => (s.modified = (s.modified ?? 0) + 1000)],
    ['s.firstMessage changed', () => (s.firstMessage = `${s.firstMessage} (edited)`)],
    ['s of two records swapped', () => swapSessions(parts, record, rng)],
  ];
  const [what, edit] = rng.pick(edits);
  edit();
  return what;
}

function swapSessions(parts: CatalogueParts, a: CatalogueRecord, rng: Rng): void {
  const b = rng.pick(parts.records.filter((r) => r.s && r !== a));
  [a.s, b.s] = [b.s, a.s];
}

/** Records reordered or duplicated, or a skipped file's reason made up: harmless or caught. */
function reshuffle(parts: CatalogueParts, rng: Rng): string {
  const { records } = parts;
  switch (rng.int(3)) {
    case 0: {
      const i = rng.int(records.length);
      const j = rng.int(records.length);
      [records[i], records[j]] = [records[j]!, records[i]!];
      return `records ${i} and ${j} swapped`;
    }
    case 1: {
      const copy = structuredClone(rng.pick(records.filter((r) => r.s)));
      copy.s!.name = 'a duplicate that must not win';
      records.push(copy);
      return `record of ${copy.p} duplicated (the copy renamed)`;
    }
    default: {
      const skipped = records.find((r) => r.x);
      if (!skipped) return reshuffle(parts, rng);
      (skipped.x as { reason: string }).reason = 'bogus';
      return `skipped file's reason = "bogus"`;
    }
  }
}

describe('the catalogue is a cache: any edit of it lists as if there were none', () => {
  it('every edit, resealed or not, lists exactly the sessions and texts of a listing without a cache', async () => {
    const store = corpusStore();
    const fresh = await freshList(store.locations);
    await listThrough(store);
    const file = catalogueFile(store.cacheDir, store.root);
    const pristine = `${file}.pristine`;
    copyFileSync(file, pristine);
    const sealedEdits = [wrongType, wrongNested, wrongOffsets, reshuffle];
    const rawEdits = [...sealedEdits, otherNumber];
    const rounds = Number(process.env['FUZZ_ROUNDS'] ?? 48);
    for (let round = 0; round < rounds; round++) {
      const rng = random(round + 1);
      copyFileSync(pristine, file);
      let what: string;
      const kind = round % 4;
      if (kind === 3) {
        // Bytes: cut short, or one byte of the metadata flipped.
        const size = readFileSync(file).length;
        if (rng.int(2) === 0) {
          const at = rng.int(size);
          truncateSync(file, at);
          what = `cut at byte ${at} of ${size}`;
        } else {
          const bytes = readFileSync(file);
          const parts = readCatalogueParts(file);
          const at = parts.headerBytes + parts.header.data + rng.int(parts.header.meta);
          bytes[at] = bytes[at]! ^ (1 << rng.int(7));
          writeFileSync(file, bytes);
          what = `metadata byte ${at} flipped`;
        }
      } else {
        const reseal = kind === 1;
        const parts = readCatalogueParts(file);
        const edits = reseal ? sealedEdits : rawEdits;
        const count = 1 + rng.int(3);
        const done: string[] = [];
        for (let i = 0; i < count; i++) done.push(rng.pick(edits)(parts, rng));
        writeCatalogueParts(file, parts, { reseal });
        what = `${reseal ? 'resealed: ' : ''}${done.join('; ')}`;
      }
      let listed: Awaited<ReturnType<typeof listThrough>>;
      try {
        listed = await listThrough(store);
      } catch (error) {
        throw new Error(`round ${round} (${what}): the listing threw ${String(error)}`);
      }
      expect(listed.sessions, `round ${round}: ${what}`).toStrictEqual(fresh.sessions);
      expect(listed.skipped, `round ${round}: ${what}`).toStrictEqual(fresh.skipped);
      // And what it saved is whole again: nothing left to drop.
      expect(loadCatalogue(file, store.root)?.dropped ?? 0, `round ${round}: ${what}`).toBe(0);
    }
  }, 120_000);

  it('a record of the wrong type is dropped alone, its file read again, and the catalogue mended', async () => {
    const store = corpusStore();
    const fresh = await freshList(store.locations);
    await listThrough(store);
    const file = catalogueFile(store.cacheDir, store.root);
    const parts = readCatalogueParts(file);
    const victim = parts.records.find((r) => r.s && r.s.name !== undefined) ?? parts.records.find((r) => r.s)!;
    (victim.s as unknown as Record<string, unknown>)['firstMessage'] = 42;
    (victim.s as unknown as Record<string, unknown>)['name'] = 42;
    writeCatalogueParts(file, parts, { reseal: true });
    expect(loadCatalogue(file, store.root)?.dropped).toBe(1);
    const listed = await listThrough(store);
    expect(listed.stats).toMatchObject({ catalogue: 'loaded', dropped: 1, added: 1, reread: 0 });
    expect(listed.sessions).toStrictEqual(fresh.sessions);
    const again = await listThrough(store);
    expect(again.stats).toMatchObject({ catalogue: 'loaded', dropped: 0, added: 0, unchanged: again.stats.unchanged });
  });

  it("texts pointed at another session's are never that session's text: the row reads its own file", async () => {
    const store = corpusStore();
    const fresh = await freshList(store.locations);
    await listThrough(store);
    const file = catalogueFile(store.cacheDir, store.root);
    const parts = readCatalogueParts(file);
    const [a, b] = parts.records.filter((r) => r.t && r.s && r.s.messageCount > 0);
    [a!.t, b!.t] = [b!.t, a!.t];
    [a!.r, b!.r] = [b!.r, a!.r];
    writeCatalogueParts(file, parts, { reseal: true });
    const listed = await listThrough(store);
    const row = (path: string) => listed.sessions.find((s) => s.path === path)!;
    const truth = (path: string) => fresh.sessions.find((s) => s.path === path)!;
    for (const path of [a!.p, b!.p]) {
      expect(row(path).allMessagesText).toBe(truth(path).allMessagesText);
      expect(row(path).toolOutputText).toBe(truth(path).toolOutputText);
    }
    expect(truth(a!.p).allMessagesText).not.toBe(truth(b!.p).allMessagesText);
  });
});
