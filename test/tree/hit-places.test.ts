/** Branch-aware hits: each entry holding a text is counted as active, abandoned or compacted. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTree, readSessionSync } from '../../src/store/index.js';
import { hitPlaces } from '../../src/tree/hit-places.js';
import { buildIndex } from '../../src/tree/tree-index.js';
import { tempDir } from '../helpers/factory.js';

const t = '2026-01-01T00:00:00.000Z';
const user = (id: string, parentId: string | null, text: string): object => ({
  type: 'message',
  id,
  parentId,
  timestamp: t,
  message: { role: 'user', content: text, timestamp: 1 },
});
const reply = (id: string, parentId: string, text: string): object => ({
  type: 'message',
  id,
  parentId,
  timestamp: t,
  message: { role: 'assistant', content: [{ type: 'text', text }], model: 'm', provider: 'p', timestamp: 2 },
});

function indexOf(lines: object[]) {
  const file = join(tempDir(), 's.jsonl');
  writeFileSync(
    file,
    `${[{ type: 'session', version: 3, id: 'hp', timestamp: t, cwd: '/w' }, ...lines].map((l) => JSON.stringify(l)).join('\n')}\n`,
  );
  const session = readSessionSync(file);
  if (!session.ok) throw new Error(session.message);
  return buildIndex(buildTree(session));
}

describe('hitPlaces', () => {
  const index = indexOf([
    user('e1', null, 'shared start'),
    reply('e2', 'e1', 'zebra: the old idea'),
    user('e3', 'e1', 'try the other way'),
    reply('e4', 'e3', 'zebra again, new'),
    {
      type: 'compaction',
      id: 'e5',
      parentId: 'e4',
      timestamp: t,
      summary: 'we tried things',
      firstKeptEntryId: 'e4',
      tokensBefore: 1000,
    },
    user('e6', 'e5', 'zebra after the compaction'),
  ]);
  const id = (n: number | undefined): string | undefined => (n === undefined ? undefined : index.entries[n]!.id);

  it('counts a hit per kind and names the first of each', () => {
    const zebra = hitPlaces(index, 'Zebra');
    expect(zebra.counts).toEqual({ active: 2, abandoned: 1, compacted: 0 });
    expect(id(zebra.first.abandoned)).toBe('e2');
    expect(id(zebra.first.active)).toBe('e4');
  });

  it('an entry before the latest compaction that the model no longer sees is compacted', () => {
    expect(hitPlaces(index, 'other way').counts).toEqual({ active: 0, abandoned: 0, compacted: 1 });
    expect(hitPlaces(index, 'shared').counts).toEqual({ active: 0, abandoned: 0, compacted: 1 });
    expect(hitPlaces(index, 'nowhere').counts).toEqual({ active: 0, abandoned: 0, compacted: 0 });
  });
});
