/**
 * A listing for rows alone leaves the search fields to be read from the file on first use
 * (src/store/summary/search-fields.ts). On every session of the corpus, such a row must equal the
 * row of a listing that gathered them: every field, the search fields included once read.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionInfoJson } from '../../src/store/summary/session-info.js';
import { summarizeFileSync } from '../../src/store/summary/summary.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const corpus = (readdirSync(FIXTURES, { recursive: true }) as string[])
  .filter((name) => name.endsWith('.jsonl'))
  .map((name) => join(FIXTURES, name))
  .sort();

describe('search fields on demand', () => {
  it('the corpus is not empty', () => {
    expect(corpus.length).toBeGreaterThan(20);
  });

  it.each(corpus)('%s: the row equals the eager one, search fields included', (path) => {
    const eager = summarizeFileSync(path);
    const onDemand = summarizeFileSync(path, 'on-demand');
    if ('ok' in eager) {
      expect(onDemand).toEqual(eager);
      return;
    }
    if ('ok' in onDemand) throw new Error(`${path}: ${onDemand.message}`);
    // The JSON row reads no search field; it must be the same before any is read.
    expect(sessionInfoJson(onDemand)).toEqual(sessionInfoJson(eager));
    expect(Object.keys(onDemand)).toEqual(Object.keys(eager));
    expect({ ...onDemand }).toEqual({ ...eager });
    expect(onDemand.textPlaces).toBe(onDemand.textPlaces);
  });
});
