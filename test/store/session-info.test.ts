/**
 * SessionInfo's fields are written once (src/store/summary/session-info.ts). The compiler checks the
 * table against the type; these tests check that every producer and encoding agrees with the
 * table, so a field added to one place and forgotten in another fails here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromSessionRecord } from '../../src/catalog/format.js';
import {
  isSessionRecord,
  SESSION_INFO_FIELDS,
  SESSION_INFO_KEYS,
  sessionInfoJson,
  toSessionRecord,
} from '../../src/store/summary/session-info.js';
import { summarizeFileSync } from '../../src/store/summary/summary.js';
import type { SessionInfo } from '../../src/store/types.js';
import { SessionBuilder } from '../helpers/factory.js';

const dir = mkdtempSync(join(tmpdir(), 'pi-sessions-info-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A row with every optional field set, and one with none. */
function rows(): SessionInfo[] {
  const full = new SessionBuilder({
    id: '019b0000-0000-7000-8000-0000000000f1',
    parentSession: '/somewhere/parent.jsonl',
  });
  const first = full.user('the first prompt');
  full.assistant('an answer');
  full.label(first, 'important');
  full.name('A named session');
  const bare = new SessionBuilder({ id: '019b0000-0000-7000-8000-0000000000f2' });
  return [full.writeTo(join(dir, 'full.jsonl')), bare.writeTo(join(dir, 'bare.jsonl'))].map((path) => {
    const info = summarizeFileSync(path);
    if ('ok' in info) throw new Error(info.message);
    return info;
  });
}

const sorted = (keys: readonly string[]): string[] => [...keys].sort();

describe('SessionInfo fields, written once', () => {
  it('the summariser fills exactly the fields of the table', () => {
    for (const info of rows()) expect(sorted(Object.keys(info))).toEqual(sorted(SESSION_INFO_KEYS));
  });

  it('the catalogue record round-trips every field', () => {
    for (const info of rows()) {
      const back = fromSessionRecord(info.path, info.size, info.mtimeMs, toSessionRecord(info), {
        main: () => info,
        output: () => info.toolOutputText,
      });
      expect(sorted(Object.keys(back))).toEqual(sorted(SESSION_INFO_KEYS));
      for (const key of SESSION_INFO_KEYS) expect(back[key], key).toEqual(info[key]);
      // Nothing the catalogue keeps beside the record is duplicated into it.
      for (const key of Object.keys(toSessionRecord(info)))
        expect(SESSION_INFO_FIELDS[key as keyof SessionInfo].catalogue, key).not.toBe('beside');
    }
  });

  it('the list --json row has one key per field, as the table says (absent values as null)', () => {
    for (const info of rows()) {
      const row = sessionInfoJson(info);
      const expected = SESSION_INFO_KEYS.flatMap((key) => {
        const json = SESSION_INFO_FIELDS[key].json;
        if (json.as === 'omit') return [];
        return [json.as === 'iso-from-ms' ? json.name : key];
      });
      expect(Object.keys(row)).toEqual(expected);
      expect(Object.values(row)).not.toContain(undefined);
    }
    const [full] = rows();
    expect(sessionInfoJson(full!)).toMatchObject({
      name: 'A named session',
      parentSessionPath: '/somewhere/parent.jsonl',
      mtime: new Date(full!.mtimeMs).toISOString(),
      labels: ['important'],
    });
  });
});

describe('the catalogue record check, derived from the table', () => {
  it('every record the summariser makes passes; every field of the wrong shape, or missing, fails', () => {
    for (const info of rows()) {
      const record = toSessionRecord(info) as unknown as Record<string, unknown>;
      expect(isSessionRecord(record)).toBe(true);
      for (const key of SESSION_INFO_KEYS) {
        const spec = SESSION_INFO_FIELDS[key];
        if (spec.catalogue === 'beside') continue;
        // Nothing fits every shape: an object without the usage keys, a number for text, text for a number.
        const textual = spec.shape === 'text' || spec.shape === 'text-or-null';
        for (const wrong of [{}, textual ? 42 : 'text', -1, 1.5, [null]]) {
          const edited = { ...record, [key]: wrong };
          // A date is kept as any finite ms (a negative one is before 1970, not damage).
          const fits = spec.shape === 'date' && typeof wrong === 'number';
          expect(isSessionRecord(edited), `${key} = ${JSON.stringify(wrong)}`).toBe(fits);
        }
        const { [key]: _gone, ...without } = record;
        expect(isSessionRecord(without), `${key} missing`).toBe(spec.catalogue === 'optional');
      }
    }
    expect(isSessionRecord(null)).toBe(false);
    expect(isSessionRecord([])).toBe(false);
  });

  it('textPlaces: pairs of a rising end and a place 0 to 2', () => {
    const [info] = rows();
    const record = toSessionRecord(info!);
    const holds = (textPlaces: unknown) => isSessionRecord({ ...record, textPlaces });
    expect(holds([])).toBe(true);
    expect(holds([5, 0, 9, 1, 12, 2])).toBe(true);
    for (const bad of [[5], [5, 3], [5, 0, 5, 1], [9, 0, 5, 1], [0, 0], [-1, 0], [2.5, 0], ['5', 0]])
      expect(holds(bad), JSON.stringify(bad)).toBe(false);
  });
});
