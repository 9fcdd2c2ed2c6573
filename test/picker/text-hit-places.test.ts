/**
 * Branch-aware full-text hits in the picker (text-hit-places.ts): `in:` predicates, the counts per
 * place and the best hit, on sessions listed from real files (their `textPlaces` from the summariser).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSearchIndex, type ParsedQuery, parseQuery, searchSessions, snippetFor } from '../../src/picker/query.js';
import { hitCountsText, hitFocus, placeAt, placeRuns, tagHits } from '../../src/picker/text-hit-places.js';
import { summarizeFileSync } from '../../src/store/index.js';
import type { SessionInfo } from '../../src/store/types.js';
import { SessionBuilder, tempDir } from '../helpers/factory.js';
import { NOW } from './make-info.js';

const dir = tempDir('text-hit-places-');

function listed(name: string, build: (b: SessionBuilder) => void): SessionInfo {
  const b = new SessionBuilder();
  build(b);
  const info = summarizeFileSync(b.writeTo(join(dir, `${name}.jsonl`)));
  if (!('textPlaces' in info)) throw new Error(info.message);
  return info;
}

const q = (text: string): ParsedQuery => parseQuery(text, NOW);

/** zebra on the active path twice, once on an abandoned branch, once before a compaction. */
const branched = listed('branched', (b) => {
  b.user('zebra before the compaction');
  const kept = b.assistant('kept reply');
  const fork = b.user('which way now');
  b.assistant('a ZEBRA on the old branch');
  b.branchFrom(fork);
  b.assistant('zebra on the new branch');
  b.compaction('summary', kept);
  b.user('zebra   after\n\nthe compaction');
});
const linear = listed('linear', (b) => {
  b.user('zebra in a plain session');
  b.assistant('one zebra, two zebra');
});
const other = listed('other', (b) => {
  b.user('nothing striped');
  const fork = b.assistant('a fork here');
  b.user('an abandoned thought');
  b.branchFrom(fork);
  b.user('the path pi resumes');
});
const index = createSearchIndex([branched, linear, other]);
const names = (text: string): string[] =>
  searchSessions(index, q(text)).matches.map((m) => m.info.path.replace(/^.*\/|\.jsonl$/g, ''));

describe('in: predicates', () => {
  it('parse, and name the places on a typo', () => {
    expect(q('in:Abandoned')).toEqual({ ok: true, terms: [{ kind: 'in', place: 'abandoned' }] });
    expect(q('in:gone')).toEqual({ ok: false, error: 'unknown in:gone (use in:active, in:abandoned, in:compacted)' });
  });

  it('place the hits of the text terms', () => {
    expect(names('zebra')).toEqual(['branched', 'linear']);
    expect(names('zebra in:abandoned')).toEqual(['branched']);
    expect(names('in:compacted zebra')).toEqual(['branched']);
    expect(names('zebra in:active')).toEqual(['branched', 'linear']);
    expect(names('"old branch" in:active')).toEqual([]);
    expect(names('"old branch" !in:active')).toEqual(['branched']);
    expect(names('zebra !in:abandoned')).toEqual(['linear']);
    expect(names('zebra in:abandoned|in:compacted')).toEqual(['branched']);
  });

  it('alone, ask for sessions with message text there', () => {
    expect(names('in:abandoned')).toEqual(['branched', 'other']);
    expect(names('in:compacted')).toEqual(['branched']);
    expect(names('!in:abandoned')).toEqual(['linear']);
    expect(names('in:active')).toEqual(['branched', 'linear', 'other']);
  });
});

describe('tagging the hits', () => {
  it('counts every hit by place and shows the best one (active first)', () => {
    const tags = tagHits(branched, q('zebra'));
    expect(tags?.counts).toEqual({ active: 2, abandoned: 1, compacted: 1 });
    expect(tags?.best.place).toBe('active');
    expect(snippetFor(branched, tags!.best).match).toBe('zebra');
    // The compaction's summary is searched after the messages, so the text after the hit runs on into it.
    expect(snippetFor(branched, tags!.best).after).toBe(' on the new branch zebra   after\n\nthe compaction summary');
    expect(hitCountsText(tags!)).toBe('2 active · 1 abandoned · 1 compacted');
  });

  it('shows the place an in: term asks for, with its count first', () => {
    const tags = tagHits(branched, q('zebra in:abandoned'));
    expect(tags?.best.place).toBe('abandoned');
    expect(snippetFor(branched, tags!.best).match).toBe('ZEBRA');
    expect(hitCountsText(tags!)).toBe('1 abandoned · 2 active · 1 compacted');
    expect(hitFocus(branched, undefined, q('zebra in:abandoned'))).toEqual({ text: 'zebra', place: 'abandoned' });
  });

  it('a query of several words carries them all to the tree, not only the hit’s', () => {
    expect(hitFocus(branched, undefined, q('zebra branch in:abandoned'))).toEqual({
      text: 'zebra',
      place: 'abandoned',
      words: 'zebra branch',
    });
    // Quoted and negated: the phrase goes, the word it must not hold does not.
    expect(hitFocus(branched, undefined, q('"new branch" zebra !lion in:active'))?.words).toBe('new branch zebra');
    // One word: nothing more to carry.
    expect(hitFocus(branched, undefined, q('zebra in:active'))).toEqual({ text: 'zebra', place: 'active' });
  });

  it('tags a plain session as all active, and regex hits too', () => {
    expect(hitCountsText(tagHits(linear, q('zebra'))!)).toBe('3 active');
    expect(tagHits(branched, q('re:zeb?ra on'))?.counts).toEqual({ active: 1, abandoned: 1, compacted: 0 });
    expect(tagHits(linear, q('tool:bash'))).toBeUndefined();
  });

  it('maps the runs onto the prepared text (whitespace collapsed, case folded)', () => {
    const runs = placeRuns(branched);
    const prepared =
      'zebra before the compaction kept reply which way now a zebra on the old branch zebra on the new branch zebra after the compaction summary';
    expect(placeAt(runs, prepared.indexOf('before'))).toBe('compacted');
    // The compaction's own summary follows the message text: the compaction is on the active path.
    expect(placeAt(runs, prepared.indexOf('summary'))).toBe('active');
    expect(placeAt(runs, prepared.indexOf('kept'))).toBe('active');
    expect(placeAt(runs, prepared.indexOf('old branch'))).toBe('abandoned');
    expect(placeAt(runs, prepared.indexOf('after'))).toBe('active');
    expect(runs?.[runs.length - 2]).toBe(prepared.length);
    expect(placeRuns(linear)).toBeNull();
  });
});
