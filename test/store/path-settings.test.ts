import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionsSettings, StoreError, savePathMapping } from '../../src/store/index.js';

let agent: string;
let file: string;
beforeEach(() => {
  agent = mkdtempSync(join(tmpdir(), 'pi-sessions-path-settings-'));
  file = join(agent, 'pi-sessions.json');
});
afterEach(() => rmSync(agent, { recursive: true, force: true }));

describe('pi-sessions.json', () => {
  it('missing: no mappings and nothing to say', () => {
    expect(readSessionsSettings(agent)).toEqual({ pathMap: [], problems: [] });
  });

  it('broken JSON, a folder in its place or a non-object: no mappings and one line naming the file', () => {
    writeFileSync(file, '{"pathMap": [');
    expect(readSessionsSettings(agent)).toEqual({ pathMap: [], problems: [`${file}: not valid JSON, ignored`] });
    writeFileSync(file, '[1]');
    expect(readSessionsSettings(agent).problems).toEqual([`${file}: not a JSON object, ignored`]);
    rmSync(file);
    mkdirSync(file);
    expect(readSessionsSettings(agent).problems).toEqual([`${file}: not a regular file (a directory), ignored`]);
  });

  it('the usable entries are kept beside a line for each other one (a BOM is fine, as in pi)', () => {
    writeFileSync(
      file,
      `\uFEFF${JSON.stringify({
        pathMap: [
          { from: '/Users/ana', to: '/home/ana' },
          { from: 'rel', to: '/x' },
        ],
      })}`,
    );
    expect(readSessionsSettings(agent)).toEqual({
      pathMap: [{ from: '/Users/ana', to: '/home/ana' }],
      problems: [`${file}: pathMap[1] needs "from" and "to" as absolute paths, ignored`],
    });
  });

  it('savePathMapping creates the file, replaces by from, keeps other keys, leaves no temp file', () => {
    expect(savePathMapping(agent, { from: '/Users/ana', to: '/home/ana/' })).toEqual({
      from: '/Users/ana',
      to: '/home/ana',
    });
    const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...settings, other: { kept: true } }));
    savePathMapping(agent, { from: '/Users/ana/', to: '/srv/ana', host: 'mac' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      pathMap: [{ from: '/Users/ana', to: '/srv/ana', host: 'mac' }],
      other: { kept: true },
    });
    expect(readdirSync(agent)).toEqual(['pi-sessions.json']);
  });

  it('savePathMapping refuses relative paths, an empty host and a file it cannot read, changing nothing', () => {
    const refused = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(StoreError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused(() => savePathMapping(agent, { from: '/a', to: 'b' }))).toBe('TO must be an absolute path: b');
    expect(refused(() => savePathMapping(agent, { from: '/a', to: '/b', host: ' ' }))).toBe('--host needs a name');
    writeFileSync(file, '{"pathMap": [{"from": 1}]}');
    expect(refused(() => savePathMapping(agent, { from: '/a', to: '/b' }))).toBe(
      `${file}: pathMap[0] needs "from" and "to" as absolute paths; fix it first`,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"pathMap": [{"from": 1}]}');
    expect(readdirSync(agent)).toEqual(['pi-sessions.json']);
  });
});
